#pragma once
// TuningCache: tuned configurations kept in a JSON file across runs, so a run on a known GPU and
// grid starts with its best configuration and no tuning. Writers on several ranks, jobs or nodes
// sharing one home directory may store at once: each store reads, merges and rewrites the file
// under an exclusive flock on "<file>.lock", writing a temporary file renamed over the old one,
// so readers (which take no lock) see either the old or the new file, never a torn one.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "autotune/cache_key.hpp"
#include "autotune/configuration.hpp"

namespace gridflow::autotune {

/// What is kept per key.
struct CacheEntry {
  Configuration config;
  double median_s = 0;                     ///< its median seconds per run when tuned
  std::optional<double> default_median_s;  ///< the default configuration's, when it passed its check
  std::string strategy;                    ///< that found it
  std::size_t evaluations = 0;             ///< configurations the tuning tried
  std::string tuned_at;                    ///< UTC, ISO 8601; set by store()
};

/// $GRIDFLOW_TUNING_CACHE when set, else $XDG_CACHE_HOME/gridflow/tuning.json, else
/// $HOME/.cache/gridflow/tuning.json. Throws gridflow::Error when none of the three is set.
std::filesystem::path default_cache_path();

class TuningCache {
 public:
  using WarningSink = std::function<void(const std::string&)>;

  /// Nothing is read or created until the first lookup or store. Problems that lose cached
  /// entries without stopping the run (an unreadable file, a malformed entry) go to `warn`,
  /// which by default prints "gridflow: warning: ..." to stderr.
  explicit TuningCache(std::filesystem::path path = default_cache_path(), WarningSink warn = {});

  const std::filesystem::path& path() const { return m_path; }

  /// The entry for key.id() stored by the same code version; nullopt otherwise (no file, an
  /// unreadable file, no entry, an entry from another code version).
  std::optional<CacheEntry> lookup(const CacheKey& key) const;
  /// Adds or replaces the entry for key.id(), and drops every entry whose code version is not
  /// key.code_version (stale measurements of other kernel code). Creates the directory if need
  /// be; blocks while another process stores. Throws gridflow::Error when the file cannot be written.
  void store(const CacheKey& key, CacheEntry entry);

 private:
  std::filesystem::path m_path;
  WarningSink m_warn;
};

}  // namespace gridflow::autotune
