#pragma once
// SearchSpace: named discrete parameters plus constraints over whole configurations. A
// configuration is legal when it gives every parameter (and nothing else) one of its values and
// satisfies every constraint; strategies only ever propose legal configurations.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "autotune/configuration.hpp"
#include "autotune/parameter.hpp"

namespace gridflow::autotune {

/// A predicate over a whole configuration; `description` says what it demands, for messages
/// ("bx*by <= 1024").
struct Constraint {
  std::string description;
  std::function<bool(const Configuration&)> holds;
};

class SearchSpace {
 public:
  /// Index form of a configuration: position of each parameter's value, in parameter order.
  using Indices = std::vector<std::size_t>;

  /// Appends a parameter; throws gridflow::Error on an invalid one or a name already used.
  SearchSpace& add(Parameter parameter);
  /// Adds a constraint every legal configuration satisfies.
  SearchSpace& require(std::string description, std::function<bool(const Configuration&)> holds);

  const std::vector<Parameter>& parameters() const { return m_parameters; }
  const std::vector<Constraint>& constraints() const { return m_constraints; }
  /// Throws gridflow::Error when there is no parameter `name`.
  const Parameter& parameter(std::string_view name) const;
  /// Configurations before constraints: the product of the value counts.
  std::size_t unconstrained_size() const;

  /// Why `c` is illegal (a missing, unknown or unlisted value, or the first constraint it breaks),
  /// or nullopt when it is legal.
  std::optional<std::string> violation(const Configuration& c) const;
  bool legal(const Configuration& c) const { return !violation(c).has_value(); }

  /// Every parameter at its default; throws gridflow::Error saying why when that is illegal.
  Configuration default_configuration() const;
  /// Every legal configuration, the last parameter varying fastest. Throws gridflow::Error when
  /// the unconstrained space exceeds `max_unconstrained` (a guard against enumerating huge spaces).
  std::vector<Configuration> enumerate(std::size_t max_unconstrained = 1u << 20) const;
  /// The legal configurations that differ from `c` in one parameter, moved to the adjacent value
  /// before or after its current one. `c` must give every parameter a listed value.
  std::vector<Configuration> neighbours(const Configuration& c) const;

  /// `c` in index form; throws gridflow::Error when `c` does not give every parameter a listed value.
  Indices indices(const Configuration& c) const;
  /// The configuration at `indices` (one in range per parameter); legality is not checked.
  Configuration at(const Indices& indices) const;
  /// "bx=64,load=shared": like Configuration::to_string, with labels for choices.
  std::string describe(const Configuration& c) const;

 private:
  std::vector<Parameter> m_parameters;
  std::vector<Constraint> m_constraints;
};

}  // namespace gridflow::autotune
