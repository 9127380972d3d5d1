#include "io/h5_attributes.hpp"

#include <string>
#include <type_traits>

#include "io/h5_handle.hpp"
#include "mesh/check.hpp"

namespace gridflow::io {

namespace {

H5Type utf8_string_type() {
  H5Type t(GRIDFLOW_H5_CHECK(H5Tcopy(H5T_C_S1)));
  GRIDFLOW_H5_CHECK(H5Tset_size(t, H5T_VARIABLE));
  GRIDFLOW_H5_CHECK(H5Tset_cset(t, H5T_CSET_UTF8));
  return t;
}

/// HDF5 keeps an attribute in its object's header, 64 KiB at most (name and type included).
constexpr std::size_t attribute_data_limit = 64 * 1024 - 1024;

void write_raw(hid_t owner, const std::string& name, hid_t type, hsize_t count, bool scalar, const void* data) {
  const std::size_t bytes = static_cast<std::size_t>(count) * H5Tget_size(type);
  if (bytes > attribute_data_limit)
    throw Error("attribute '" + name + "' would hold " + std::to_string(bytes) + " bytes, more than the " +
                std::to_string(attribute_data_limit) + " an HDF5 attribute can: arrays of any length belong in datasets");
  H5Space space(scalar ? GRIDFLOW_H5_CHECK(H5Screate(H5S_SCALAR)) : GRIDFLOW_H5_CHECK(H5Screate_simple(1, &count, nullptr)));
  if (H5Aexists(owner, name.c_str()) > 0) GRIDFLOW_H5_CHECK(H5Adelete(owner, name.c_str()));
  H5Attr attr(GRIDFLOW_H5_CHECK(H5Acreate2(owner, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT)));
  // An empty array (a solve that needed no iteration has no residual history) is an attribute of
  // shape (0,): nothing to write, and H5Awrite refuses the null pointer an empty vector gives.
  if (scalar || count > 0) GRIDFLOW_H5_CHECK(H5Awrite(attr, type, data));
}

}  // namespace

void write_attribute(hid_t owner, const std::string& name, const AttributeValue& value) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::int64_t>) {
          write_raw(owner, name, H5T_NATIVE_INT64, 1, true, &v);
        } else if constexpr (std::is_same_v<V, double>) {
          write_raw(owner, name, H5T_NATIVE_DOUBLE, 1, true, &v);
        } else if constexpr (std::is_same_v<V, bool>) {
          const std::int8_t b = v ? 1 : 0;  // h5py reads a 0/1 int8; HDF5 has no portable bool
          write_raw(owner, name, H5T_NATIVE_INT8, 1, true, &b);
        } else if constexpr (std::is_same_v<V, std::string>) {
          const char* p = v.c_str();
          write_raw(owner, name, utf8_string_type(), 1, true, &p);
        } else if constexpr (std::is_same_v<V, std::vector<std::int64_t>>) {
          write_raw(owner, name, H5T_NATIVE_INT64, v.size(), false, v.data());
        } else if constexpr (std::is_same_v<V, std::vector<double>>) {
          write_raw(owner, name, H5T_NATIVE_DOUBLE, v.size(), false, v.data());
        } else {
          std::vector<const char*> p;
          for (const auto& s : v) p.push_back(s.c_str());
          write_raw(owner, name, utf8_string_type(), p.size(), false, p.data());
        }
      },
      value);
}

void write_attributes(hid_t owner, const Attributes& attributes) {
  for (const auto& [name, value] : attributes) write_attribute(owner, name, value);
}

}  // namespace gridflow::io
