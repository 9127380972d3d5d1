#include "io/write_failure.hpp"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gridflow::io {

namespace fs = std::filesystem;

namespace {

/// errno values that say why a write failed; others (EINVAL, or ENOENT of a lookup, or of a rank
/// whose partial file another rank removed first) are left over from calls that do not explain it.
bool explains_a_write(int e) {
  return e == ENOSPC || e == EDQUOT || e == EFBIG || e == EIO || e == EROFS || e == EACCES || e == EPERM;
}

std::string advice(int e, const std::string& folder_key) {
  if (e == ENOSPC || e == EDQUOT || e == EFBIG) return "free space in " + folder_key + " or choose another folder";
  if (e == EROFS || e == EACCES || e == EPERM) return "choose a writable " + folder_key;
  return "check " + folder_key + " (its file system, its permissions, the space left)";
}

}  // namespace

std::string write_failure_message(const std::string& path, int saved_errno, std::uintmax_t needed_bytes,
                                  const std::string& detail, const std::string& folder_key) {
  int cause = explains_a_write(saved_errno) ? saved_errno : 0;
  if (cause == 0) {
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    struct statvfs s {};
    if (::statvfs(folder.c_str(), &s) == 0 && std::uintmax_t(s.f_bavail) * s.f_frsize < needed_bytes) cause = ENOSPC;
  }
  const std::string why = cause ? std::string(std::strerror(cause)) + " (errno " + std::to_string(cause) + ")" : detail;
  return "writing " + path + " failed: " + why + "; " + advice(cause, folder_key);
}

void remove_partial_file(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
}

}  // namespace gridflow::io
