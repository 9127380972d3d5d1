#pragma once
// The message of a failed write: which file, why (the errno text, found even where MPI-IO and HDF5
// report only "input/output error"), and what the user can do about it.
#include <cstdint>
#include <string>

namespace gridflow::io {

/// "writing PATH failed: No space left on device (errno 28); free space in FOLDER_KEY or choose
/// another folder". The cause is `saved_errno` when it names one (errno right after the failed
/// call); else "No space left on device" when the file system of PATH's folder has less than
/// `needed_bytes` free (MPI-IO's write errors lose errno); else `detail` (the failed call).
/// `folder_key`: the deck key of the folder ("output.dir", "checkpoint.dir").
std::string write_failure_message(const std::string& path, int saved_errno, std::uintmax_t needed_bytes,
                                  const std::string& detail, const std::string& folder_key);

/// Removes `path` if it exists (a partial file of a failed write); errors are ignored: the write's
/// own failure is what gets reported.
void remove_partial_file(const std::string& path);

}  // namespace gridflow::io
