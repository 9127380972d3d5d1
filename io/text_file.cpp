#include "io/text_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "io/write_failure.hpp"
#include "mesh/check.hpp"

namespace gridflow::io {

namespace fs = std::filesystem;

void write_text_file_atomically(const std::string& path, const std::string& text, const std::string& folder_key) {
  const fs::path final_path(path);
  const std::string partial = (final_path.parent_path() / ("." + final_path.filename().string() + ".partial")).string();
  const auto fail = [&](const std::string& call) {
    const int saved = errno;
    remove_partial_file(partial);
    throw Error(write_failure_message(path, saved, text.size(), call + " failed: " + std::strerror(saved), folder_key));
  };
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open(" + partial + ")");
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail("write(" + partial + ")");
    }
    done += static_cast<std::size_t>(n);
  }
  // Some file systems (NFS) report a full disk at close only.
  if (::close(fd) != 0) fail("close(" + partial + ")");
  if (std::rename(partial.c_str(), path.c_str()) != 0) fail("rename(" + partial + ", " + path + ")");
}

}  // namespace gridflow::io
