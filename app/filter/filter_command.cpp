#include "app/filter/filter_command.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "app/filter/array_filter_run.hpp"
#include "app/run/run_setup.hpp"
#include "app/filter/whiten_run.hpp"
#include "io/array_dataset.hpp"
#include "mesh/check.hpp"
#include "solver/run_options.hpp"

namespace gridflow::app {

namespace {

const char* const options_with_values[] = {"--dataset", "--out",    "--filter", "--mode",   "--cval",   "--size",     "--sigma",
                                           "--truncate", "--weights", "--memory", "--ridge", "--device", "--buffer-mb",
                                           "--method",   "--tune",    "--tuning-cache"};

/// `device=gpu` as in decks; nothing else is a setting of this command.
void apply_settings(const std::vector<std::string>& settings, FilterArguments& a) {
  for (const auto& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || s.substr(0, eq) != "device")
      throw InputError("'" + s + "': unknown argument; gridflow filter takes one input file and, as in decks, device=cpu|gpu|auto");
    a.device = s.substr(eq + 1);
    a.given.insert("--device");
  }
}

std::string shape_text(const io::ArrayShape& s) {
  std::ostringstream os;
  for (int a = 0; a < s.rank(); ++a) os << (a ? " x " : "") << s.extent[a];
  return os.str();
}

std::string filter_text(const FilterArguments& a) {
  std::ostringstream os;
  os << a.kind;
  auto list = [&](const char* name, const auto& v) {
    os << ' ' << name << '=';
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  };
  if (a.kind == "mean") list("size", a.size);
  if (a.kind == "gaussian") list("sigma", a.sigma), os << " truncate=" << a.truncate;
  if (a.kind == "correlate") os << " weights=" << a.weights;
  if (a.kind == "whiten") os << " memory=" << a.memory << " ridge=" << a.ridge;
  if (a.kind != "whiten") os << " mode=" << a.mode;
  if (a.kind != "whiten" && a.mode == "constant") os << " cval=" << a.cval;
  if (a.frames || a.kind == "whiten") os << " per frame";
  return os.str();
}

}  // namespace

CLI::App* add_filter_subcommand(CLI::App& app, FilterArguments& a, std::vector<std::string>& settings) {
  CLI::App* f = app.add_subcommand("filter", "filter a dataset of rank 1 to 3 with scipy.ndimage's semantics (mean, gaussian, "
                                             "correlate) or whiten a frame stack; writes OUT.h5 atomically");
  f->add_option("input", a.input, "input HDF5 file")->required();
  f->add_option("settings", settings, "device=cpu|gpu|auto, as in decks (same as --device)");
  f->add_option("--dataset", a.dataset, "the dataset to filter (path in the file); OUT.h5 gets it under the same name")->required();
  f->add_option("--out", a.output, "output HDF5 file, replaced atomically when the run succeeds")->required();
  f->add_option("--filter", a.kind, "mean, gaussian, correlate or whiten")->required();
  f->add_option("--mode", a.mode, "boundary: constant, nearest, reflect (default), mirror or wrap, as scipy.ndimage");
  f->add_option("--cval", a.cval, "the value beyond the edges for --mode constant (default 0)");
  f->add_option("--size", a.size, "mean: width, one for every axis or one per axis (numpy order), e.g. 5 or 3,5")->delimiter(',')->allow_extra_args(false);
  f->add_option("--sigma", a.sigma, "gaussian: standard deviation(s) in points, one or one per axis (numpy order)")
      ->delimiter(',')
      ->allow_extra_args(false);
  f->add_option("--truncate", a.truncate, "gaussian: radius int(truncate * sigma + 0.5) (default 4)");
  f->add_option("--weights", a.weights, "correlate: FILE.h5:/path, an array of the data's (spatial) rank");
  f->add_option("--memory", a.memory, "whiten: the N previous frames each frame is predicted from (default 20, at most 64)");
  f->add_option("--ridge", a.ridge, "whiten: regularisation of the least-squares weights (default 1e-6)");
  f->add_flag("--frames", a.frames, "the first axis is time: filter each frame separately (implied by whiten)");
  f->add_option("--device", a.device, "cpu, gpu, or auto (default: the GPU where every rank has one)");
  f->add_option("--method", a.method, "mean, gaussian, correlate: direct (default: sums in scipy's order, the same bits on any device "
                                     "and rank count), fft (FFT tiles: equal to rounding) or auto (the faster, measured)");
  f->add_option("--tune", a.tune, "online (default: measure the variants where there is a choice, once per shape and device; the "
                                 "winner is cached), cached (the cache's choice or the defaults) or off");
  f->add_option("--tuning-cache", a.tuning_cache, "the tuning cache file, as tuning.cache in decks");
  f->add_option("--buffer-mb", a.buffer_mb, "memory for one chunk of values per rank, in MiB (default: 1 GiB on the host, half "
                                            "the free GPU memory)");
  return f;
}

int run_filter_command(const CLI::App& sub, FilterArguments a, const std::vector<std::string>& settings, MPI_Comm comm) {
  for (const char* name : options_with_values)
    if (sub.count(name) > 0) a.given.insert(name);
  apply_settings(settings, a);
  const FilterRequest request = make_filter_request(a, comm);

  solver::RunOptions placement;
  placement.device = a.device;
  placement.device_sharing = true;  // ranks beyond the GPU count share them: chunks are sized by what each finds free
  mesh::MemorySpace space = mesh::MemorySpace::host;
  try {
    space = resolve_device(placement, comm);
  } catch (const InputError& e) {  // named as this command spells it, not as the deck key
    const std::string reason = e.what();
    const auto but = reason.find("but ");
    throw InputError("--device '" + a.device + "': " + (but == std::string::npos ? reason : reason.substr(but + 4)));
  }
  int rank = 0, ranks = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &ranks));

  if (rank == 0) {  // before the work, so a long run says what it is doing
    std::printf("gridflow filter: %s on %s:%s (%s, %s) -> %s (%s)\n", filter_text(a).c_str(), a.input.c_str(), a.dataset.c_str(),
                shape_text(request.shape).c_str(), io::to_string(request.shape.type), a.output.c_str(),
                io::to_string(request.output_type()));
    std::fflush(stdout);
  }
  const auto start = std::chrono::steady_clock::now();
  const io::ArrayReader reader(a.input, a.dataset, comm);
  io::ArrayWriter writer(a.output, a.dataset, io::ArrayShape{request.shape.extent, request.output_type()}, comm);
  const FilterRunReport r = a.kind == "whiten" ? run_whiten(request, reader, writer, space, comm)
                                                : run_array_filter(request, reader, writer, space, comm);
  writer.commit();
  if (rank == 0 && !r.tuning.empty()) std::printf("gridflow filter: tuned: %s\n", r.tuning.c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rank == 0) {
    std::printf("gridflow filter: %.3f s on %d rank%s, %s (%s), %lld chunk%s of %lld along axis 0 per rank: read %.3f s, copy %.3f s, "
                "filter %.3f s, write %.3f s, open and publish %.3f s\n",
                seconds, ranks, ranks == 1 ? "" : "s", mesh::to_string(space).c_str(), r.kernel_path.c_str(), r.chunks,
                r.chunks == 1 ? "" : "s", r.chunk_rows, r.read, r.copy, r.filter, r.write, seconds - r.total);
  }
  return 0;
}

}  // namespace gridflow::app
