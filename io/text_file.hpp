#pragma once
// Small text files beside the output (the XDMF index, the residual CSV), written so that a file
// with the final name is always whole: under a hidden temporary name, then renamed.
#include <string>

namespace gridflow::io {

/// Writes `text` to "<folder>/.<name>.partial" and renames it to `path`. On any failure
/// the temporary file is removed, `path` is left as it was, and Error says which file, the errno
/// text and what to do (write_failure_message; `folder_key` names the folder's deck key).
/// Not collective: one rank calls it.
void write_text_file_atomically(const std::string& path, const std::string& text, const std::string& folder_key);

}  // namespace gridflow::io
