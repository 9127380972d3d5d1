#include "autotune/search_space.hpp"

#include <limits>

#include "mesh/check.hpp"

namespace gridflow::autotune {

SearchSpace& SearchSpace::add(Parameter parameter) {
  parameter.validate();
  for (const auto& p : m_parameters)
    if (p.name == parameter.name) throw Error("search space: parameter '" + parameter.name + "' added twice");
  m_parameters.push_back(std::move(parameter));
  return *this;
}

SearchSpace& SearchSpace::require(std::string description, std::function<bool(const Configuration&)> holds) {
  if (!holds) throw Error("search space: constraint '" + description + "' has no predicate");
  m_constraints.push_back({std::move(description), std::move(holds)});
  return *this;
}

const Parameter& SearchSpace::parameter(std::string_view name) const {
  for (const auto& p : m_parameters)
    if (p.name == name) return p;
  throw Error("search space: no parameter '" + std::string(name) + "'");
}

std::size_t SearchSpace::unconstrained_size() const {
  std::size_t size = 1;
  for (const auto& p : m_parameters) {
    if (size > std::numeric_limits<std::size_t>::max() / p.values.size()) return std::numeric_limits<std::size_t>::max();
    size *= p.values.size();
  }
  return size;
}

std::optional<std::string> SearchSpace::violation(const Configuration& c) const {
  for (const auto& p : m_parameters) {
    if (!c.has(p.name)) return "no value for parameter '" + p.name + "'";
    if (p.index_of(c.at(p.name)) < 0) return p.name + "=" + std::to_string(c.at(p.name)) + " is not a listed value";
  }
  if (c.size() != m_parameters.size()) {
    for (const auto& [name, value] : c.values()) {
      bool known = false;
      for (const auto& p : m_parameters) known = known || p.name == name;
      if (!known) return "unknown parameter '" + name + "'";
    }
  }
  for (const auto& constraint : m_constraints)
    if (!constraint.holds(c)) return "violates " + constraint.description;
  return std::nullopt;
}

Configuration SearchSpace::default_configuration() const {
  Configuration c;
  for (const auto& p : m_parameters) c.set(p.name, p.default_value);
  if (const auto why = violation(c)) throw Error("search space: the default configuration " + c.to_string() + " " + *why);
  return c;
}

std::vector<Configuration> SearchSpace::enumerate(std::size_t max_unconstrained) const {
  const std::size_t total = unconstrained_size();
  if (total > max_unconstrained)
    throw Error("search space: " + std::to_string(total) + " unconstrained configurations, more than the " +
                std::to_string(max_unconstrained) + " allowed for enumeration");
  std::vector<Configuration> legal_ones;
  if (m_parameters.empty()) return legal_ones;
  Indices odometer(m_parameters.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    Configuration c = at(odometer);
    if (legal(c)) legal_ones.push_back(std::move(c));
    for (std::size_t k = odometer.size(); k-- > 0;) {
      if (++odometer[k] < m_parameters[k].values.size()) break;
      odometer[k] = 0;
    }
  }
  return legal_ones;
}

std::vector<Configuration> SearchSpace::neighbours(const Configuration& c) const {
  const Indices centre = indices(c);
  std::vector<Configuration> result;
  for (std::size_t k = 0; k < centre.size(); ++k) {
    for (const int step : {-1, +1}) {
      if (step < 0 && centre[k] == 0) continue;
      if (step > 0 && centre[k] + 1 >= m_parameters[k].values.size()) continue;
      Indices moved = centre;
      moved[k] = step < 0 ? centre[k] - 1 : centre[k] + 1;
      Configuration candidate = at(moved);
      if (legal(candidate)) result.push_back(std::move(candidate));
    }
  }
  return result;
}

SearchSpace::Indices SearchSpace::indices(const Configuration& c) const {
  Indices result;
  result.reserve(m_parameters.size());
  for (const auto& p : m_parameters) {
    const int i = c.has(p.name) ? p.index_of(c.at(p.name)) : -1;
    if (i < 0) throw Error("search space: configuration '" + c.to_string() + "' gives '" + p.name + "' no listed value");
    result.push_back(static_cast<std::size_t>(i));
  }
  return result;
}

Configuration SearchSpace::at(const Indices& indices) const {
  if (indices.size() != m_parameters.size())
    throw Error("search space: " + std::to_string(indices.size()) + " indices for " +
                std::to_string(m_parameters.size()) + " parameters");
  Configuration c;
  for (std::size_t k = 0; k < indices.size(); ++k) c.set(m_parameters[k].name, m_parameters[k].values.at(indices[k]));
  return c;
}

std::string SearchSpace::describe(const Configuration& c) const {
  std::string text;
  for (const auto& [name, value] : c.values()) {
    if (!text.empty()) text += ',';
    const Parameter* p = nullptr;
    for (const auto& q : m_parameters) p = q.name == name ? &q : p;
    text += name + '=' + (p ? p->describe(value) : std::to_string(value));
  }
  return text;
}

}  // namespace gridflow::autotune
