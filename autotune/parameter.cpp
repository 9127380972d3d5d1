#include "autotune/parameter.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "mesh/check.hpp"

namespace gridflow::autotune {

Parameter Parameter::integers(std::string name, std::vector<int> values, int default_value) {
  Parameter p{std::move(name), std::move(values), default_value, {}};
  p.validate();
  return p;
}

Parameter Parameter::boolean(std::string name, bool default_value) {
  return integers(std::move(name), {0, 1}, default_value ? 1 : 0);
}

Parameter Parameter::choice(std::string name, std::vector<std::string> labels, const std::string& default_label) {
  Parameter p{std::move(name), {}, 0, std::move(labels)};
  for (std::size_t i = 0; i < p.labels.size(); ++i) p.values.push_back(static_cast<int>(i));
  const auto it = std::find(p.labels.begin(), p.labels.end(), default_label);
  if (it == p.labels.end()) throw Error("parameter '" + p.name + "': default '" + default_label + "' is not one of its labels");
  p.default_value = static_cast<int>(it - p.labels.begin());
  p.validate();
  return p;
}

int Parameter::index_of(int value) const {
  const auto it = std::find(values.begin(), values.end(), value);
  return it == values.end() ? -1 : static_cast<int>(it - values.begin());
}

std::string Parameter::describe(int value) const {
  const int i = index_of(value);
  return (labels.empty() || i < 0) ? std::to_string(value) : labels[static_cast<std::size_t>(i)];
}

void Parameter::validate() const {
  const auto identifier_char = [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; };
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
      !std::all_of(name.begin(), name.end(), [&](char ch) { return identifier_char(static_cast<unsigned char>(ch)); }))
    throw Error("parameter name '" + name + "' is not an identifier (letters, digits, '_')");
  if (values.empty()) throw Error("parameter '" + name + "' has no values");
  if (std::set<int>(values.begin(), values.end()).size() != values.size())
    throw Error("parameter '" + name + "' lists a value twice");
  if (index_of(default_value) < 0)
    throw Error("parameter '" + name + "': default " + std::to_string(default_value) + " is not one of its values");
  if (!labels.empty() && labels.size() != values.size())
    throw Error("parameter '" + name + "' has " + std::to_string(labels.size()) + " labels for " +
                std::to_string(values.size()) + " values");
}

}  // namespace gridflow::autotune
