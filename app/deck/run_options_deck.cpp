#include "app/deck/run_options_deck.hpp"

#include "app/deck/tuning_options_deck.hpp"

#include <cstdio>
#include <stdexcept>

#include "io/xdmf.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

// The series' files are NAME_00000010.h5, NAME.xmf, NAME_residual.csv, ...: the name must make a
// file name (NAME_MAX is 255 bytes on the usual file systems) and stand in an XDMF reference.
constexpr std::size_t max_output_name = 200;

void check_output_name(const std::string& name) {
  const std::string key = "key 'output.name': ";
  if (name.empty()) throw InputError(key + "must not be empty");
  if (name.size() > max_output_name)
    throw InputError(key + "is " + std::to_string(name.size()) + " bytes long; at most " + std::to_string(max_output_name) +
                     " (the files' names add a step number and a suffix)");
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", c);
      throw InputError(key + "has a control character (byte " + code + " at offset " + std::to_string(i) +
                       "); a file name must be printable text");
    }
  }
  if (name.find('/') != std::string::npos)
    throw InputError(key + "'" + name + "' must be a file name without '/' (output.dir gives the folder)");
  try {
    io::require_xdmf_name(name, "output name");
  } catch (const std::invalid_argument& e) {
    throw InputError(key + e.what());
  }
}

}  // namespace

using solver::RunOptions;

solver::RunOptions read_run_options(Deck& deck, int dim) {
  solver::RunOptions o;
  o.problem = deck.string("problem", std::nullopt, {"heat2d", "poisson3d"});
  o.precision = deck.string("precision", "double", {"float", "double"}) == "float" ? kernels::core::Precision::float32
                                                                                 : kernels::core::Precision::float64;
  o.device = deck.string("device", "auto", {"cpu", "gpu", "auto"});
  const auto dims = deck.integers("decomposition", dim, std::vector<std::int64_t>(dim, 0), IntegerRange::of<int>());
  for (int d = 0; d < dim; ++d) {
    if (dims[d] < 0) throw InputError("key 'decomposition': entries must be >= 0 (0 lets MPI choose)");
    o.decomposition[d] = static_cast<int>(dims[d]);
  }
  o.device_sharing = deck.boolean("device_sharing", false);
  o.halo_width_given = deck.has("halo.width");
  const auto width = deck.integer("halo.width", 1, IntegerRange::of<int>());
  if (width < 1 || width > 64) throw InputError("key 'halo.width': " + std::to_string(width) + " is not in 1..64");
  o.halo_width = static_cast<int>(width);
  o.halo_transport = halo::parse_transport(deck.string("halo.transport", "auto", {"mpi", "nccl", "auto"}));
  o.output_dir = deck.string("output.dir", "output");
  if (o.output_dir.empty()) throw InputError("key 'output.dir': must not be empty");
  o.output_name = deck.string("output.name", o.problem);
  check_output_name(o.output_name);
  o.output_enabled = deck.boolean("output.enabled", true);
  o.output_async = deck.boolean("output.async", true);
  o.output_every = deck.integer("output.every", 0);
  if (o.output_every < 0) throw InputError("key 'output.every': must be >= 0 (0 writes the final state only)");
  o.progress_every = deck.integer("progress.every", 0);
  if (o.progress_every < 0) throw InputError("key 'progress.every': must be >= 0 (0 = about ten reports)");
  // Not for device = "auto": the tuner's choice of device must not change the run's bits.
  o.device_expressions = deck.boolean("expressions.device", o.device == "gpu");
  o.tuning = read_tuning_options(deck);
  return o;
}

}  // namespace gridflow::app
