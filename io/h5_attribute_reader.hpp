#pragma once
// Reading back the attributes io/h5_attributes writes, from a file a user hands in: every failure
// is an InputError naming the attribute and the file (such a file is not what it claims to be).
#include <hdf5.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/h5_handle.hpp"
#include "mesh/check.hpp"

namespace gridflow::io {

/// HDF5's error stack printing off while it lives: a failure on a user's file is reported as one
/// message, not a stack dump.
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &m_function, &m_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, m_function, m_data); }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;

 private:
  H5E_auto2_t m_function = nullptr;
  void* m_data = nullptr;
};

/// The attributes of `owner`; `what` names the file in messages ("checkpoint PATH").
struct AttributeReader {
  hid_t owner;
  std::string what;

  [[noreturn]] void missing(const std::string& name) const {
    throw InputError(what + " has no readable attribute '" + name + "': not a complete gridflow checkpoint");
  }
  H5Attr open(const std::string& name) const {
    if (H5Aexists(owner, name.c_str()) <= 0) missing(name);
    H5Attr a(H5Aopen(owner, name.c_str(), H5P_DEFAULT));
    if (a.get() < 0) missing(name);
    return a;
  }
  hssize_t count(const H5Attr& a) const {
    H5Space s(H5Aget_space(a));
    return H5Sget_simple_extent_npoints(s);
  }
  template <class V>
  std::vector<V> numbers(const std::string& name, hid_t type) const {
    H5Attr a = open(name);
    std::vector<V> out(static_cast<std::size_t>(std::max<hssize_t>(0, count(a))));
    if (!out.empty() && H5Aread(a, type, out.data()) < 0) missing(name);
    return out;
  }
  template <class V>
  V number(const std::string& name, hid_t type) const {
    const auto v = numbers<V>(name, type);
    if (v.size() != 1) missing(name);
    return v[0];
  }
  std::vector<std::string> strings(const std::string& name) const {
    H5Attr a = open(name);
    H5Type t(H5Tcopy(H5T_C_S1));
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    std::vector<char*> raw(static_cast<std::size_t>(std::max<hssize_t>(0, count(a))), nullptr);
    if (!raw.empty() && H5Aread(a, t, raw.data()) < 0) missing(name);
    std::vector<std::string> out;
    for (char* p : raw) {
      out.emplace_back(p ? p : "");
      if (p) H5free_memory(p);
    }
    return out;
  }
  std::string string(const std::string& name) const {
    const auto v = strings(name);
    if (v.size() != 1) missing(name);
    return v[0];
  }
};

}  // namespace gridflow::io
