#pragma once
#include <hdf5.h>

#include "io/attribute.hpp"

namespace gridflow::io {

/// Writes `value` as attribute `name` of the object `owner` (collective in a parallel file:
/// every rank passes the same value). Strings are variable-length UTF-8.
void write_attribute(hid_t owner, const std::string& name, const AttributeValue& value);
void write_attributes(hid_t owner, const Attributes& attributes);

}  // namespace gridflow::io
