#pragma once
// KernelCache: compiled device code (cubins) kept on disk between runs, one file per kernel named by
// a hash of what it was compiled from. A file holds a header, that identity in full (the source,
// the architecture, the compiler's version: a hash collision or a stale file never loads the wrong
// code) and a checksum of the binary; one that does not match is taken for absent, and the kernel is
// compiled again and the file replaced. Files are written to a temporary name and renamed, so
// concurrent runs (ranks of one node) never read half a file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gridflow::kernels::core {

/// Where compiled kernels are kept: $GRIDFLOW_KERNEL_CACHE when set, else
/// $XDG_CACHE_HOME/gridflow/kernels, else $HOME/.cache/gridflow/kernels (beside the tuning cache);
/// empty (no disk cache: kernels are compiled in every run) when none of the three is set.
std::filesystem::path default_kernel_cache_dir();

/// 64-bit FNV-1a of `text`: the file name of an identity, and a binary's checksum.
std::uint64_t fnv1a(const std::string& text);

class KernelCache {
 public:
  /// `dir` empty: a cache that keeps nothing.
  explicit KernelCache(std::filesystem::path dir) : m_dir(std::move(dir)) {}

  /// The binary stored for `identity`, or nothing when there is none or its file does not match
  /// (truncated, altered, another identity): `corrupt` then says whether a file was there.
  std::optional<std::string> load(const std::string& identity, bool* corrupt = nullptr) const;
  /// Stores `binary` for `identity`; false when the folder or file cannot be written (the kernel
  /// is then compiled again next run; nothing else depends on the cache).
  bool store(const std::string& identity, const std::string& binary) const;
  /// The file of `identity` (empty for a cache that keeps nothing).
  std::filesystem::path path_of(const std::string& identity) const;

 private:
  std::filesystem::path m_dir;
};

}  // namespace gridflow::kernels::core
