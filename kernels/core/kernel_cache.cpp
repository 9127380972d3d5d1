#include "kernels/core/kernel_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

namespace gridflow::kernels::core {

namespace {

constexpr const char* magic = "gridflow-kernel 1\n";

std::string hex(std::uint64_t v) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::string variable(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

/// The file's text: magic, identity length, binary length, binary checksum, identity, binary.
std::string encode(const std::string& identity, const std::string& binary) {
  std::ostringstream out;
  out << magic << identity.size() << ' ' << binary.size() << ' ' << hex(fnv1a(binary)) << '\n' << identity << binary;
  return out.str();
}

}  // namespace

std::filesystem::path default_kernel_cache_dir() {
  if (const std::string explicit_dir = variable("GRIDFLOW_KERNEL_CACHE"); !explicit_dir.empty()) return explicit_dir;
  if (const std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')  // XDG ignores relative paths
    return std::filesystem::path(xdg) / "gridflow" / "kernels";
  if (const std::string home = variable("HOME"); !home.empty()) return std::filesystem::path(home) / ".cache" / "gridflow" / "kernels";
  return {};
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::filesystem::path KernelCache::path_of(const std::string& identity) const {
  return m_dir.empty() ? m_dir : m_dir / (hex(fnv1a(identity)) + ".cubin");
}

std::optional<std::string> KernelCache::load(const std::string& identity, bool* corrupt) const {
  if (corrupt) *corrupt = false;
  if (m_dir.empty()) return std::nullopt;
  std::ifstream in(path_of(identity), std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (corrupt) *corrupt = true;  // until it checks out
  const std::string head(magic);
  if (text.compare(0, head.size(), head) != 0) return std::nullopt;
  std::istringstream fields(text.substr(head.size(), 64));
  std::size_t identity_size = 0, binary_size = 0;
  std::string checksum;
  if (!(fields >> identity_size >> binary_size >> checksum)) return std::nullopt;
  const std::size_t start = text.find('\n', head.size());
  if (start == std::string::npos || text.size() - (start + 1) != identity_size + binary_size) return std::nullopt;
  if (text.compare(start + 1, identity_size, identity) != 0) return std::nullopt;
  std::string binary = text.substr(start + 1 + identity_size);
  if (hex(fnv1a(binary)) != checksum) return std::nullopt;
  if (corrupt) *corrupt = false;
  return binary;
}

bool KernelCache::store(const std::string& identity, const std::string& binary) const {
  if (m_dir.empty()) return false;
  std::error_code ec;
  std::filesystem::create_directories(m_dir, ec);
  if (ec) return false;
  const std::filesystem::path path = path_of(identity);
  const std::filesystem::path temporary = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << encode(identity, binary);
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      return false;
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (!ec) return true;
  std::filesystem::remove(temporary, ec);
  return false;
}

}  // namespace gridflow::kernels::core
