#pragma once
#include <string>

namespace gridflow::mesh {

/// Where a field's values live.
enum class MemorySpace { host, device };

inline std::string to_string(MemorySpace s) { return s == MemorySpace::host ? "host" : "device"; }

}  // namespace gridflow::mesh
