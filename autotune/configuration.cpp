#include "autotune/configuration.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

#include "mesh/check.hpp"

namespace gridflow::autotune {

int Configuration::at(std::string_view name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end())
    throw Error("configuration '" + to_string() + "' has no parameter '" + std::string(name) + "'");
  return it->second;
}

std::string Configuration::to_string() const {
  std::string text;
  for (const auto& [name, value] : m_values) {
    if (!text.empty()) text += ',';
    text += name + '=' + std::to_string(value);
  }
  return text;
}

Configuration Configuration::parse(std::string_view text) {
  Configuration c;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view entry = text.substr(0, comma);
    const std::size_t equals = entry.find('=');
    const std::string_view name = entry.substr(0, equals == std::string_view::npos ? 0 : equals);
    const std::string_view digits = equals == std::string_view::npos ? std::string_view{} : entry.substr(equals + 1);
    int value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (name.empty() || digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || c.has(name))
      throw Error("malformed configuration entry '" + std::string(entry) + "' (expected name=integer, names unique)");
    c.set(std::string(name), value);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return c;
}

std::uint64_t Configuration::stable_hash() const {
  std::uint64_t h = 14695981039346656037ull;
  for (const char ch : to_string()) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ull;
  }
  return h;
}

std::ostream& operator<<(std::ostream& os, const Configuration& c) { return os << c.to_string(); }

void to_json(nlohmann::json& j, const Configuration& c) {
  j = nlohmann::json::object();
  for (const auto& [name, value] : c.values()) j[name] = value;
}

void from_json(const nlohmann::json& j, Configuration& c) {
  if (!j.is_object()) throw Error("a configuration must be a JSON object, not " + j.dump());
  Configuration parsed;
  for (const auto& [name, value] : j.items()) {
    if (!value.is_number_integer())
      throw Error("configuration value '" + name + "' is not an integer: " + value.dump());
    parsed.set(name, value.get<int>());
  }
  c = std::move(parsed);
}

}  // namespace gridflow::autotune
