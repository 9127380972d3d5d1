#pragma once
// RAII for HDF5 identifiers: H5Handle<&H5Fclose> closes its file when it goes out of scope.
#include <hdf5.h>

#include <utility>

namespace gridflow::io {

template <herr_t (*Close)(hid_t)>
class H5Handle {
 public:
  H5Handle() = default;
  explicit H5Handle(hid_t id) : m_id(id) {}
  H5Handle(H5Handle&& o) noexcept : m_id(std::exchange(o.m_id, H5I_INVALID_HID)) {}
  H5Handle& operator=(H5Handle&& o) noexcept {
    if (this != &o) {
      reset();
      m_id = std::exchange(o.m_id, H5I_INVALID_HID);
    }
    return *this;
  }
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  ~H5Handle() { reset(); }

  hid_t get() const { return m_id; }
  operator hid_t() const { return m_id; }
  /// Closes now, reporting failure (a collective close that fails must not pass silently).
  herr_t close() { return m_id >= 0 ? Close(std::exchange(m_id, H5I_INVALID_HID)) : 0; }
  /// Gives the identifier up unclosed: on a failure path a collective close could wait forever for
  /// ranks that never come (they are aborted instead).
  hid_t release() { return std::exchange(m_id, H5I_INVALID_HID); }

 private:
  void reset() noexcept {
    if (m_id >= 0) Close(m_id);
    m_id = H5I_INVALID_HID;
  }
  hid_t m_id = H5I_INVALID_HID;
};

using H5File = H5Handle<&H5Fclose>;
using H5Group = H5Handle<&H5Gclose>;
using H5Dataset = H5Handle<&H5Dclose>;
using H5Space = H5Handle<&H5Sclose>;
using H5Type = H5Handle<&H5Tclose>;
using H5Attr = H5Handle<&H5Aclose>;
using H5Plist = H5Handle<&H5Pclose>;

}  // namespace gridflow::io
