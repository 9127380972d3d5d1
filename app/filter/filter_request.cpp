#include "app/filter/filter_request.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "kernels/filter/whiten.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow::app {

namespace fs = std::filesystem;
namespace kf = kernels::filter;

namespace {

const std::vector<std::string> kinds{"mean", "gaussian", "correlate", "whiten"};

[[noreturn]] void refuse(const std::string& option, const std::string& reason) { throw InputError(option + ": " + reason); }

template <class V>
std::string list_text(const std::vector<V>& values) {
  std::ostringstream os;
  for (std::size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i];
  return os.str();
}

/// Options that belong to other kinds are refused rather than ignored.
void check_options_of_kind(const FilterArguments& a) {
  const std::vector<std::pair<std::string, std::string>> owner{{"--size", "mean"},      {"--sigma", "gaussian"},
                                                               {"--truncate", "gaussian"}, {"--weights", "correlate"},
                                                               {"--memory", "whiten"},     {"--ridge", "whiten"}};
  for (const auto& [option, kind] : owner)
    if (a.given.count(option) && a.kind != kind) refuse(option, "applies to --filter " + kind + " only (this is --filter " + a.kind + ")");
}

/// One value for every spatial axis, or one per axis.
template <class V>
std::vector<V> per_axis(const std::vector<V>& values, int spatial_rank, const std::string& option) {
  if (values.size() == 1) return std::vector<V>(static_cast<std::size_t>(spatial_rank), values[0]);
  if (static_cast<int>(values.size()) != spatial_rank)
    refuse(option, std::to_string(values.size()) + " values for data of " + std::to_string(spatial_rank) +
                       " spatial axes (give one value, or one per axis)");
  return values;
}

/// The kernels' own argument checks (sizes, sigma, weight counts), reported against the option.
template <class F>
auto checked(const std::string& option, const std::string& value, F&& make) {
  try {
    return make();
  } catch (const Error& e) {
    std::string reason = e.what();
    const std::string prefix = "filter: ";
    if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
    refuse(option + " " + value, reason);
  }
}

/// FILE.h5:/path split at the last ':' followed by a dataset path; nothing when malformed.
std::optional<std::pair<std::string, std::string>> try_split_weights_argument(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return std::nullopt;
  return std::make_pair(text.substr(0, colon), text.substr(colon + 1));
}

std::pair<std::string, std::string> split_weights_argument(const std::string& text) {
  const auto split = try_split_weights_argument(text);
  if (!split) refuse("--weights '" + text + "'", "expected FILE.h5:/dataset (the file, a colon, the dataset's path in it)");
  return *split;
}

/// Rank 0 checks that --out can be created where it points; the same error everywhere if not.
void check_output_path(const FilterArguments& a, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string error;
  if (rank == 0) {
    const fs::path out(a.output);
    const fs::path folder = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    std::error_code ec;
    if (a.output.empty() || out.filename().empty()) error = "--out '" + a.output + "': not a file name";
    else if (!fs::is_directory(folder, ec)) error = "--out '" + a.output + "': folder '" + folder.string() + "' does not exist";
    else if (::access(folder.c_str(), W_OK | X_OK) != 0)
      error = "--out '" + a.output + "': folder '" + folder.string() + "' is not writable: " + std::strerror(errno);
    else if (fs::is_directory(out, ec)) error = "--out '" + a.output + "': is a folder";
    else if (out.filename().string().size() > NAME_MAX || a.output.size() >= PATH_MAX)
      error = "--out: file name too long (at most " + std::to_string(NAME_MAX) + " bytes a name, " +
              std::to_string(PATH_MAX - 1) + " in all)";
    else if (const auto weights = try_split_weights_argument(a.weights);
             fs::exists(out, ec) && (fs::equivalent(out, a.input, ec) || (weights && fs::equivalent(out, weights->first, ec))))
      error = "--out '" + a.output + "': is an input file of this command; writing it would destroy what is read";
  }
  share_rank0_input_error(error, comm);
}

}  // namespace

FilterRequest make_filter_request(const FilterArguments& a, MPI_Comm comm) {
  FilterRequest r;
  r.arguments = a;
  if (std::find(kinds.begin(), kinds.end(), a.kind) == kinds.end())
    refuse("--filter '" + a.kind + "'", "unknown kind; one of mean, gaussian, correlate, whiten");
  check_options_of_kind(a);
  for (const char* option : {"--mode", "--cval"})
    if (a.kind == "whiten" && a.given.count(option)) refuse(option, "whiten has no boundary mode (frames are predicted, not convolved)");
  try {
    r.boundary.mode = kf::parse_boundary_mode(a.mode);
  } catch (const Error& e) {
    refuse("--mode '" + a.mode + "'", "unknown mode; one of constant, nearest, reflect, mirror, wrap");
  }
  r.boundary.cval = a.cval;
  if (a.device != "cpu" && a.device != "gpu" && a.device != "auto") refuse("--device '" + a.device + "'", "one of cpu, gpu, auto");
  if (a.given.count("--buffer-mb") && !(a.buffer_mb > 0)) refuse("--buffer-mb", "must be > 0");
  for (const char* option : {"--method", "--tune", "--tuning-cache"})
    if (a.kind == "whiten" && a.given.count(option)) refuse(option, "whiten has one method (the tuner chooses nothing for it)");
  try {
    r.method = autotune::parse_filter_method(a.method);
  } catch (const Error&) {
    refuse("--method '" + a.method + "'", "one of direct, fft, auto");
  }
  if (r.method == autotune::FilterMethod::fft && r.boundary.mode == kf::BoundaryMode::wrap)
    refuse("--method fft", "does not take --mode wrap (its tiles would read rows beyond the neighbours'); use --method direct or auto");
  if (a.tune == "online") r.tuning.mode = autotune::TuningMode::online;
  else if (a.tune == "cached") r.tuning.mode = autotune::TuningMode::cached;
  else if (a.tune == "off") r.tuning.mode = autotune::TuningMode::off;
  else refuse("--tune '" + a.tune + "'", "one of online, cached, off");
  if (a.given.count("--tuning-cache") && a.tuning_cache.empty()) refuse("--tuning-cache", "must name a file");
  r.tuning.cache = a.tuning_cache;
  if (a.kind == "whiten") {
    if (a.memory < 1) refuse("--memory " + std::to_string(a.memory), "must be >= 1 (the frames each prediction uses)");
    if (a.memory > kf::max_whiten_memory)
      refuse("--memory " + std::to_string(a.memory), "at most " + std::to_string(kf::max_whiten_memory) + " frames");
    if (!(a.ridge >= 0) || !std::isfinite(a.ridge)) refuse("--ridge", "must be >= 0 and finite");
  }
  check_output_path(a, comm);

  r.shape = io::probe_array(a.input, a.dataset, comm);
  r.frames = a.frames || a.kind == "whiten";
  const int rank = r.shape.rank();
  const std::string data = "dataset '" + a.dataset + "'";
  if (a.kind == "whiten" && rank != 3)
    refuse(data, "rank " + std::to_string(rank) + "; whiten takes a stack of 2D frames, shape (T, Y, X)");
  if (r.frames && rank < 2)
    refuse(data, "rank 1 with --frames: the first axis is time, so frames need a dataset of rank 2 or 3");
  r.spatial_rank = rank - (r.frames ? 1 : 0);
  const int s = r.spatial_rank;
  if (a.kind == "whiten") {
    if (r.shape.extent[1] < 3 || r.shape.extent[2] < 3)
      refuse(data, "frames of " + std::to_string(r.shape.extent[1]) + " x " + std::to_string(r.shape.extent[2]) +
                       "; whiten needs at least 3 x 3 points per frame");
    const std::string name = a.dataset.substr(a.dataset.find_first_not_of('/') == std::string::npos ? 0 : a.dataset.find_first_not_of('/'));
    if (name == "shifts") refuse(data, "whiten writes the shifts under that name; rename the dataset");
    return r;
  }

  std::string option, value;
  if (a.kind == "mean") {
    option = "--size", value = list_text(a.size);
    if (a.size.empty()) refuse("--size", "required by --filter mean");
    for (int n : per_axis(a.size, s, option))
      r.axis_weights.push_back(checked(option, value, [&] { return kf::mean_weights(n); }));
  } else if (a.kind == "gaussian") {
    option = "--sigma", value = list_text(a.sigma);
    if (a.sigma.empty()) refuse("--sigma", "required by --filter gaussian");
    for (double sigma : per_axis(a.sigma, s, option))
      r.axis_weights.push_back(checked(option, value, [&] { return kf::gaussian_weights(sigma, a.truncate); }));
  } else {  // correlate
    option = "--weights", value = "'" + a.weights + "'";
    if (a.weights.empty()) refuse("--weights", "required by --filter correlate");
    const auto [file, dataset] = split_weights_argument(a.weights);
    io::ArrayShape ws;
    try {
      ws = io::probe_array(file, dataset, comm);
    } catch (const InputError& e) {
      refuse(option + " " + value, e.what());
    }
    if (ws.rank() != s)
      refuse(option + " " + value, "weights of rank " + std::to_string(ws.rank()) + " for data of " + std::to_string(s) +
                                       " spatial axes (scipy.ndimage.correlate needs the same rank)");
    for (hsize_t n : ws.extent) r.full_shape.push_back(static_cast<int>(std::min<hsize_t>(n, 1u << 30)));
    for (int n : r.full_shape)
      if (n > kf::max_axis_length)
        refuse(option + " " + value, "extent " + std::to_string(n) + " along an axis; at most " + std::to_string(kf::max_axis_length) +
                                         " (radius 32)");
    r.full_values = io::read_small_array(file, dataset, comm);
    r.separable = false;
    checked(option, value, [&] {  // non-finite weights
      std::array<int, 3> shape{1, 1, 1};
      for (int j = 0; j < s; ++j) shape[static_cast<std::size_t>(s - 1 - j)] = r.full_shape[j];
      return kf::full_weights<3>(shape, r.full_values);
    });
  }
  // The kernels reach at most an axis's extent (scipy would go on; the issue asks for an error).
  for (int j = 0; j < s; ++j) {
    const int length = r.length(j);
    const int radius = std::max(length / 2, length - 1 - length / 2);
    const hsize_t extent = r.shape.extent[static_cast<std::size_t>(j + (r.frames ? 1 : 0))];
    if (static_cast<hsize_t>(radius) > extent)
      refuse(option + " " + value, "radius " + std::to_string(radius) + " along spatial axis " + std::to_string(j) + " is larger than the axis (extent " +
                                       std::to_string(extent) + ")");
  }
  return r;
}

template <int Dim>
kf::FilterWeights<Dim> field_weights(const FilterRequest& r) {
  const int rank = r.shape.rank();
  const int first_spatial = r.frames ? 1 : 0;
  // Field axis d holds dataset axis rank - 1 - d; spatial index j = that axis - first_spatial.
  auto spatial_of = [&](int d) { return d < rank ? rank - 1 - d - first_spatial : -1; };
  if (r.separable) {
    std::array<std::vector<double>, Dim> axis;
    for (int d = 0; d < Dim; ++d) {
      const int j = spatial_of(d);
      axis[d] = j >= 0 ? r.axis_weights[static_cast<std::size_t>(j)] : kf::identity_weights();
    }
    return kf::separable_weights<Dim>(axis, r.arguments.kind);
  }
  std::array<int, Dim> shape{};
  for (int d = 0; d < Dim; ++d) {
    const int j = spatial_of(d);
    shape[d] = j >= 0 ? r.full_shape[static_cast<std::size_t>(j)] : 1;
  }
  // C order over the dataset's axes is x fastest; axes of extent 1 change nothing.
  kf::FilterWeights<Dim> w = kf::full_weights<Dim>(shape, r.full_values);
  w.name = r.arguments.kind;
  return w;
}

template kf::FilterWeights<2> field_weights<2>(const FilterRequest&);
template kf::FilterWeights<3> field_weights<3>(const FilterRequest&);

}  // namespace gridflow::app
