#pragma once
// Configuration: one point of a search space, a small map from parameter name to value
// ("bx=64,by=2,cpt=4"). Booleans are 0/1; a choice among names holds the index of its name.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json_fwd.hpp>

namespace gridflow::autotune {

class Configuration {
 public:
  using Values = std::map<std::string, int, std::less<>>;

  Configuration() = default;
  Configuration(std::initializer_list<std::pair<const std::string, int>> values) : m_values(values) {}

  /// The value of `name`; throws gridflow::Error naming the parameter when it is absent.
  int at(std::string_view name) const;
  bool has(std::string_view name) const { return m_values.find(name) != m_values.end(); }
  /// Sets (adds or replaces) the value of `name`.
  void set(const std::string& name, int value) { m_values[name] = value; }
  std::size_t size() const { return m_values.size(); }
  const Values& values() const { return m_values; }

  /// "bx=64,by=2,cpt=4" (names in alphabetical order); "" when empty.
  std::string to_string() const;
  /// Inverse of to_string; throws gridflow::Error naming the text on a malformed entry.
  static Configuration parse(std::string_view text);

  /// FNV-1a of to_string(): the same on every rank and in every run, unlike std::hash.
  std::uint64_t stable_hash() const;

  friend bool operator==(const Configuration& a, const Configuration& b) { return a.m_values == b.m_values; }
  friend bool operator!=(const Configuration& a, const Configuration& b) { return !(a == b); }
  friend bool operator<(const Configuration& a, const Configuration& b) { return a.m_values < b.m_values; }

 private:
  Values m_values;
};

/// Writes to_string(): gtest and log messages print configurations readably.
std::ostream& operator<<(std::ostream& os, const Configuration& c);

/// JSON object {"bx": 64, "by": 2}; from_json throws gridflow::Error on any other shape.
void to_json(nlohmann::json& j, const Configuration& c);
void from_json(const nlohmann::json& j, Configuration& c);

}  // namespace gridflow::autotune

template <>
struct std::hash<gridflow::autotune::Configuration> {
  std::size_t operator()(const gridflow::autotune::Configuration& c) const noexcept {
    return static_cast<std::size_t>(c.stable_hash());
  }
};
