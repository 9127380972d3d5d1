#include "autotune/cache_key.hpp"

#include "gridflow/config.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::autotune {

std::string CacheKey::id() const {
  for (const auto* field : {&device, &kernel, &precision, &extents, &code_version})
    if (field->empty())
      throw Error("tuning cache key '" + device + "|" + kernel + "|" + precision + "|" + extents + "' (version '" +
                  code_version + "') has an empty field");
  return device + '|' + kernel + '|' + precision + '|' + extents;
}

std::string CacheKey::current_code_version() { return std::string(GRIDFLOW_VERSION) + '+' + GRIDFLOW_GIT_HASH; }

std::string extents_key(const std::vector<std::int64_t>& extents) {
  if (extents.empty()) throw Error("tuning cache key: no extents");
  std::string key;
  for (const std::int64_t n : extents) {
    if (n <= 0) throw Error("tuning cache key: extent " + std::to_string(n) + " is not positive");
    key += (key.empty() ? "" : "x") + std::to_string(n);
  }
  return key;
}

std::string device_key(mesh::MemorySpace space) {
  return space == mesh::MemorySpace::host ? std::string("cpu") : mesh::current_gpu_description();
}

}  // namespace gridflow::autotune
