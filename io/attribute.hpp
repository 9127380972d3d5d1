#pragma once
// A typed value stored as an HDF5 attribute (the deck's keys, run metadata).
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gridflow::io {

using AttributeValue = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>,
                                    std::vector<double>, std::vector<std::string>>;
using Attributes = std::vector<std::pair<std::string, AttributeValue>>;

}  // namespace gridflow::io
