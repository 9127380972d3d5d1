#include "app/deck/filters_deck.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <sstream>
#include <stdexcept>

#include "io/xdmf.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

namespace kf = kernels::filter;

[[noreturn]] void refuse(const std::string& key, const std::string& why) { throw InputError("key '" + key + "': " + why); }

/// Runs `make`, turning the weights' own Error (a bad size, sigma or weight) into an InputError naming `key`.
template <class Make>
auto weights_for(const std::string& key, Make make) {
  try {
    return make();
  } catch (const Error& e) {
    refuse(key, e.what());
  }
}

template <int Dim>
kf::FilterWeights<Dim> mean_block(Deck& deck, const std::string& block) {
  const std::string key = block + ".size";
  const auto size = deck.integers(key, Dim, std::nullopt, {1, kf::max_axis_length});
  std::array<int, Dim> s{};
  for (int d = 0; d < Dim; ++d) s[d] = static_cast<int>(size[d]);
  return weights_for(key, [&] { return kf::mean_filter<Dim>(s); });
}

template <int Dim>
kf::FilterWeights<Dim> gaussian_block(Deck& deck, const std::string& block) {
  const auto sigma = deck.numbers(block + ".sigma", Dim);
  const double truncate = deck.number(block + ".truncate", 4.0);
  if (!(truncate > 0)) refuse(block + ".truncate", exact_decimal(truncate) + " must be > 0");
  std::array<double, Dim> s{};
  for (int d = 0; d < Dim; ++d) {
    s[d] = sigma[d];
    if (!(s[d] > 0)) refuse(block + ".sigma", "sigma along axis " + std::to_string(d) + " is " + exact_decimal(s[d]) + ", must be > 0");
  }
  return weights_for(block + ".sigma", [&] { return kf::gaussian_filter<Dim>(s, truncate); });
}

template <int Dim>
kf::FilterWeights<Dim> correlate_block(Deck& deck, const std::string& block) {
  const auto shape = deck.integers(block + ".shape", Dim, std::nullopt, {1, kf::max_axis_length});
  std::array<int, Dim> s{};
  std::size_t count = 1;
  for (int d = 0; d < Dim; ++d) count *= static_cast<std::size_t>(s[d] = static_cast<int>(shape[d]));
  const auto weights = deck.numbers(block + ".weights", count);  // its message names the count
  return weights_for(block + ".weights", [&] { return kf::full_weights<Dim>(s, weights); });
}

kf::WhitenParams whiten_block(Deck& deck, const std::string& block) {
  kf::WhitenParams p;
  p.memory = static_cast<int>(deck.integer(block + ".memory", p.memory, {1, kf::max_whiten_memory}));
  p.ridge = deck.number(block + ".ridge", p.ridge);
  if (!(p.ridge >= 0) || !std::isfinite(p.ridge)) refuse(block + ".ridge", exact_decimal(p.ridge) + " must be >= 0 and finite");
  return p;
}

/// The key of the block's parameter that sets its extent along the axes.
std::string extent_key(const std::string& block, const std::string& kind) {
  return block + (kind == "mean" ? ".size" : kind == "gaussian" ? ".sigma" : ".shape");
}

void check_name(const std::string& key, const std::string& name, const std::vector<std::string>& fields,
                const std::vector<std::string>& earlier) {
  if (name.empty()) refuse(key, "a dataset name must not be empty");
  if (name.find('/') != std::string::npos || name == "." || name == "..")
    refuse(key, "'" + name + "' is not a dataset name ('/' separates HDF5 groups; '.' and '..' are taken)");
  try {
    io::require_xdmf_name(name, "dataset name");
  } catch (const std::invalid_argument& e) {
    refuse(key, e.what());
  }
  if (std::find(fields.begin(), fields.end(), name) != fields.end())
    refuse(key, "'" + name + "' is the name of a field the run writes; give the filtered field another name");
  const auto& reserved = reserved_output_names();
  if (std::find(reserved.begin(), reserved.end(), name) != reserved.end())
    refuse(key, "'" + name + "' is taken by the output files' own groups (Info, Input, spectrum)");
  if (std::find(earlier.begin(), earlier.end(), name) != earlier.end())
    refuse(key, "'" + name + "' is written by an earlier [[filters]] block already; give each filter its own name");
}

}  // namespace

autotune::FilterMethod decomposed_method(autotune::FilterMethod method, kf::BoundaryMode mode) {
  return mode == kf::BoundaryMode::wrap ? autotune::FilterMethod::direct : method;
}

const std::vector<std::string>& reserved_output_names() {
  static const std::vector<std::string> names{"Info", "Input", "spectrum"};
  return names;
}

template <int Dim>
std::vector<FilterBlock<Dim>> read_filters(Deck& deck, const std::vector<std::string>& fields, const mesh::Grid<Dim>& grid) {
  std::vector<FilterBlock<Dim>> blocks;
  std::vector<std::string> names;
  const std::size_t count = deck.blocks("filters");
  for (std::size_t i = 0; i < count; ++i) {
    const std::string block = "filters[" + std::to_string(i) + "]";
    FilterBlock<Dim> f;
    f.kind = deck.string(block + ".kind", std::nullopt, {"mean", "gaussian", "correlate", "whiten"});
    if (f.kind == "whiten" && Dim != 2)
      refuse(block + ".kind", "whiten filters 2D frames (heat2d); this run's fields are 3D");
    f.field = deck.string(block + ".field", std::nullopt, fields);
    f.name = deck.string(block + ".name", f.field + "_" + f.kind);
    check_name(block + ".name", f.name, fields, names);
    if (f.kind == "whiten") {
      f.whiten = whiten_block(deck, block);
      names.push_back(f.name);
      blocks.push_back(std::move(f));
      continue;
    }
    const std::string mode = deck.string(block + ".mode", std::string("reflect"), {"constant", "nearest", "reflect", "mirror", "wrap"});
    f.boundary.mode = kf::parse_boundary_mode(mode);
    if (f.boundary.mode == kf::BoundaryMode::constant) f.boundary.cval = deck.number(block + ".cval", 0.0);
    else if (deck.has(block + ".cval"))
      refuse(block + ".cval", "only mode = \"constant\" reads a cval (this block's mode is '" + mode + "')");

    f.method = autotune::parse_filter_method(deck.string(block + ".method", std::string("direct"), {"direct", "fft", "auto"}));
    if (f.method == autotune::FilterMethod::fft && f.boundary.mode == kf::BoundaryMode::wrap)
      refuse(block + ".method", std::string("the fft method does not take mode = \"wrap\" in situ (its tiles would read the far end ") +
                                    "of the grid on every rank); use method = \"direct\" or \"auto\"");

    if (f.kind == "mean") f.weights = mean_block<Dim>(deck, block);
    else if (f.kind == "gaussian") f.weights = gaussian_block<Dim>(deck, block);
    else f.weights = correlate_block<Dim>(deck, block);

    for (int d = 0; d < Dim; ++d) {
      const int radius = std::max(f.weights.lo_reach(d), f.weights.hi_reach(d));
      const mesh::Index points = grid.n[d] + 1;
      if (radius > points) {
        std::ostringstream os;
        os << "the " << f.kind << " filter reaches " << radius << " points along axis " << d << ", more than the grid's "
           << points << " points there (radius larger than an axis)";
        refuse(extent_key(block, f.kind), os.str());
      }
    }
    names.push_back(f.name);
    blocks.push_back(std::move(f));
  }
  return blocks;
}

template std::vector<FilterBlock<2>> read_filters<2>(Deck&, const std::vector<std::string>&, const mesh::Grid<2>&);
template std::vector<FilterBlock<3>> read_filters<3>(Deck&, const std::vector<std::string>&, const mesh::Grid<3>&);

}  // namespace gridflow::app
