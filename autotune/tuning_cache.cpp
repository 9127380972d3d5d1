#include "autotune/tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace {

using nlohmann::json;
constexpr const char* format_tag = "gridflow-tuning-cache/1";

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& p) {
  throw Error("tuning cache: " + what + " '" + p.string() + "': " + std::strerror(errno));
}

/// An exclusive flock held for the object's lifetime. flock locks belong to the open file
/// description, so two threads of one process exclude each other as two processes do.
class ExclusiveLock {
 public:
  explicit ExclusiveLock(const std::filesystem::path& p) : m_fd(::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (m_fd < 0) fail("cannot open the lock file", p);
    while (::flock(m_fd, LOCK_EX) != 0)
      if (errno != EINTR) {
        ::close(m_fd);
        fail("cannot lock", p);
      }
  }
  ~ExclusiveLock() { ::close(m_fd); }
  ExclusiveLock(const ExclusiveLock&) = delete;
  ExclusiveLock& operator=(const ExclusiveLock&) = delete;

 private:
  int m_fd;
};

struct Record {
  CacheKey key;
  CacheEntry entry;
};

json to_json_record(const Record& r) {
  return {{"device", r.key.device},
          {"kernel", r.key.kernel},
          {"precision", r.key.precision},
          {"extents", r.key.extents},
          {"code_version", r.key.code_version},
          {"config", r.entry.config},
          {"median_s", r.entry.median_s},
          {"default_median_s", r.entry.default_median_s ? json(*r.entry.default_median_s) : json(nullptr)},
          {"strategy", r.entry.strategy},
          {"evaluations", r.entry.evaluations},
          {"tuned_at", r.entry.tuned_at}};
}

/// Throws (json or gridflow) exceptions on a malformed record.
Record from_json_record(const json& j) {
  Record r;
  r.key.device = j.at("device").get<std::string>();
  r.key.kernel = j.at("kernel").get<std::string>();
  r.key.precision = j.at("precision").get<std::string>();
  r.key.extents = j.at("extents").get<std::string>();
  r.key.code_version = j.at("code_version").get<std::string>();
  r.key.id();  // rejects empty fields
  r.entry.config = j.at("config").get<Configuration>();
  r.entry.median_s = j.at("median_s").get<double>();
  const json& d = j.at("default_median_s");
  if (!d.is_null()) r.entry.default_median_s = d.get<double>();
  r.entry.strategy = j.at("strategy").get<std::string>();
  r.entry.evaluations = j.at("evaluations").get<std::size_t>();
  r.entry.tuned_at = j.at("tuned_at").get<std::string>();
  return r;
}

/// The file's well-formed records; an absent file has none, an unreadable one is reported and
/// has none, a malformed record is reported and skipped.
std::vector<Record> read_records(const std::filesystem::path& p, const TuningCache::WarningSink& warn) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  const json document = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  std::string problem;
  if (document.is_discarded())
    problem = "it is not valid JSON";
  else if (!document.is_object() || !document.contains("format") || document.at("format") != format_tag)
    problem = std::string("it is not a \"") + format_tag + "\" document";
  else if (!document.contains("entries") || !document.at("entries").is_array())
    problem = "it has no \"entries\" array";
  if (!problem.empty()) {
    warn("ignoring the tuning cache '" + p.string() + "': " + problem + "; it counts as empty");
    return {};
  }
  std::vector<Record> records;
  for (const json& j : document.at("entries")) {
    try {
      records.push_back(from_json_record(j));
    } catch (const std::exception& e) {
      warn("ignoring a malformed entry of the tuning cache '" + p.string() + "': " + e.what());
    }
  }
  return records;
}

/// Writes `text` to a temporary file beside `p` and renames it over `p`.
void replace_file(const std::filesystem::path& p, const std::string& text) {
  const std::filesystem::path temporary = p.string() + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", temporary);
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      errno = saved;
      fail("cannot write", temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    errno = saved;
    fail("cannot flush", temporary);
  }
  if (::rename(temporary.c_str(), p.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    errno = saved;
    fail("cannot rename the new file over", p);
  }
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::filesystem::path default_cache_path() {
  if (const std::string explicit_path = environment("GRIDFLOW_TUNING_CACHE"); !explicit_path.empty())
    return explicit_path;
  // The XDG base-directory specification ignores relative paths.
  if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')
    return std::filesystem::path(xdg) / "gridflow" / "tuning.json";
  if (const std::string home = environment("HOME"); !home.empty())
    return std::filesystem::path(home) / ".cache" / "gridflow" / "tuning.json";
  throw Error("tuning cache: none of GRIDFLOW_TUNING_CACHE, XDG_CACHE_HOME and HOME is set; give the cache a path");
}

TuningCache::TuningCache(std::filesystem::path path, WarningSink warn) : m_path(std::move(path)), m_warn(std::move(warn)) {
  if (m_path.empty()) throw Error("tuning cache: empty path");
  if (!m_warn) m_warn = [](const std::string& message) { std::cerr << "gridflow: warning: " << message << std::endl; };
}

std::optional<CacheEntry> TuningCache::lookup(const CacheKey& key) const {
  const std::string id = key.id();
  for (Record& r : read_records(m_path, m_warn))
    if (r.key.code_version == key.code_version && r.key.id() == id) return std::move(r.entry);
  return std::nullopt;
}

void TuningCache::store(const CacheKey& key, CacheEntry entry) {
  const std::string id = key.id();
  entry.tuned_at = utc_now();
  if (m_path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(m_path.parent_path(), ec);
    if (ec) throw Error("tuning cache: cannot create '" + m_path.parent_path().string() + "': " + ec.message());
  }
  const ExclusiveLock lock(m_path.string() + ".lock");
  json entries = json::array();
  for (const Record& r : read_records(m_path, m_warn))
    if (r.key.code_version == key.code_version && r.key.id() != id) entries.push_back(to_json_record(r));
  entries.push_back(to_json_record({key, std::move(entry)}));
  const json document = {{"format", format_tag}, {"entries", std::move(entries)}};
  replace_file(m_path, document.dump(2) + '\n');
}

}  // namespace gridflow::autotune
