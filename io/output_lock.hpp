#pragma once
// OutputLock: an advisory lock (flock) on "<directory>/<name>.lock" that a run holds for its
// lifetime, so that a second run writing the same series into the same folder is refused at start
// instead of mixing its files into the first one's.
//
// The lock belongs to the open file, so the kernel drops it when the process ends in any way
// (exit, crash, kill -9): a lock file left behind without a live holder is simply taken over.
// The file holds who took it (host, pid, start time, command) for the message of the run refused.
#include <string>

namespace gridflow::io {

class OutputLock {
 public:
  /// Takes the lock on `path` (created if missing). Throws InputError naming `path` and the holder
  /// written in the file when another process holds it; Error when the file cannot be created.
  /// On a file system without locks (flock: ENOLCK, ENOSYS, EOPNOTSUPP) it holds nothing and
  /// says so in note().
  explicit OutputLock(std::string path);
  /// Releases the lock and removes the file (while still holding it, so no run takes the lock on
  /// a file that is being removed).
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  const std::string& path() const { return m_path; }
  /// Empty, or why no lock is held (the file system has no locks).
  const std::string& note() const { return m_note; }

  /// "host H, pid P, started T (UTC), command C": this process, as the lock file records it.
  static std::string this_process();

 private:
  std::string m_path;
  std::string m_note;
  int m_fd = -1;
};

}  // namespace gridflow::io
