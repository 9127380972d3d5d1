#include "io/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>

#include "mesh/check.hpp"

namespace gridflow::io {

namespace {

std::string errno_text(int e) { return std::string(std::strerror(e)) + " (errno " + std::to_string(e) + ")"; }

/// The holder's line as the lock file records it, or a note that it is not readable.
std::string recorded_holder(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text.empty() ? "a process that has not yet recorded itself" : text;
}

/// The command line of this process, arguments separated by spaces.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  for (char& c : text)
    if (c == '\0') c = ' ';
  return text.empty() ? "unknown" : text;
}

}  // namespace

std::string OutputLock::this_process() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown");
  const std::time_t now = std::time(nullptr);
  char started[32] = {};
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string("host ") + host + ", pid " + std::to_string(getpid()) + ", started " + started + ", command " +
         command_line();
}

OutputLock::OutputLock(std::string path) : m_path(std::move(path)) {
  // The file may be removed by its holder between our open and our flock: then we hold a lock on
  // a file no one else will see, so check the path still names what we locked and try again.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw Error("cannot create the lock file " + m_path + ": " + errno_text(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      ::close(fd);
      if (e == EWOULDBLOCK)
        throw InputError("key 'output.dir': another run is writing the same series into this folder: " + m_path +
                         " is locked by " + recorded_holder(m_path) +
                         ". Wait for that run to end, or choose another output.dir or output.name");
      if (e == EINTR) continue;
      // NFS without lockd, Lustre without the flock mount option: run, but say nothing guards.
      m_note = "cannot lock " + m_path + " (" + errno_text(e) +
               "): this file system has no locks, so a second run into this folder would not be detected";
      return;
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) != 0 || ::stat(m_path.c_str(), &named) != 0 || held.st_ino != named.st_ino ||
        held.st_dev != named.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string holder = this_process() + "\n";
    // A record that cannot be written (a full disk) leaves a lock that still works: its holder
    // then reads as one that has not recorded itself.
    const bool recorded = ::ftruncate(fd, 0) == 0 && ::write(fd, holder.data(), holder.size()) == ssize_t(holder.size());
    (void)recorded;
    m_fd = fd;
    return;
  }
  throw Error("cannot lock " + m_path + ": the file keeps being replaced by other processes");
}

OutputLock::~OutputLock() {
  if (m_fd < 0) return;
  ::unlink(m_path.c_str());
  ::close(m_fd);
}

}  // namespace gridflow::io
