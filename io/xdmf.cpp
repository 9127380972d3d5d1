#include "io/xdmf.hpp"

#include <libxml/chvalid.h>
#include <libxml/tree.h>
#include <libxml/xmlstring.h>

#include <array>
#include <charconv>
#include <memory>
#include <new>
#include <stdexcept>
#include <system_error>
#include <type_traits>

namespace gridflow::io {

namespace {

const xmlChar* x(const char* s) { return reinterpret_cast<const xmlChar*>(s); }
const xmlChar* x(const std::string& s) { return x(s.c_str()); }

/// `text` as XML 1.0 can hold it: valid UTF-8 of characters the Char production allows (no NUL,
/// no control characters but tab, newline and carriage return). libxml2 escapes the rest.
void require_xml_text(const std::string& text, const std::string& what) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.c_str());
  const auto* end = p + text.size();
  while (p < end) {
    int len = static_cast<int>(end - p);
    const int c = xmlGetUTF8Char(p, &len);
    if (c < 0 || len <= 0 || !xmlIsCharQ(c))
      throw std::invalid_argument(what + " '" + text +
                                  "' is not text an XML document can hold (valid UTF-8, no control characters)");
    p += len;
  }
}

std::string number(double v) {
  char buffer[32];  // the shortest text that reads back as the same double
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  if (r.ec != std::errc()) throw std::runtime_error("XDMF: cannot format a number");
  return std::string(buffer, r.ptr);
}

template <class T>
std::string list(const std::array<T, 3>& zyx) {
  std::string s;
  for (const T& v : zyx) {
    if (!s.empty()) s += ' ';
    if constexpr (std::is_floating_point_v<T>) s += number(v);
    else s += std::to_string(v);
  }
  return s;
}

/// x, y, z values as XDMF lists them: slowest axis first (z y x).
template <class T>
std::array<T, 3> zyx(const std::array<T, 3>& xyz) {
  return {xyz[2], xyz[1], xyz[0]};
}

xmlNodePtr child(xmlNodePtr parent, const char* name) {
  xmlNodePtr node = xmlNewChild(parent, nullptr, x(name), nullptr);
  if (!node) throw std::bad_alloc();
  return node;
}

/// xmlNewProp keeps `value` as text; the writer escapes it (&, <, " and the rest).
void attribute(xmlNodePtr node, const char* name, const std::string& value) {
  if (!xmlNewProp(node, x(name), x(value))) throw std::bad_alloc();
}

/// Text content, escaped by the writer.
void text(xmlNodePtr node, const std::string& content) {
  xmlNodePtr t = xmlNewText(x(content));
  if (!t || !xmlAddChild(node, t)) throw std::bad_alloc();
}

void data_item(xmlNodePtr parent, const std::string& name, const char* format, int precision,
               const std::string& dimensions, const std::string& content) {
  xmlNodePtr item = child(parent, "DataItem");
  if (!name.empty()) attribute(item, "Name", name);
  attribute(item, "Format", format);
  attribute(item, "NumberType", "Float");
  attribute(item, "Precision", std::to_string(precision));
  attribute(item, "Dimensions", dimensions);
  text(item, content);
}

}  // namespace

void require_xdmf_name(const std::string& name, const std::string& what) {
  require_xml_text(name, what);
  if (name.find(':') != std::string::npos)
    throw std::invalid_argument(what + " '" + name + "' has a ':', which XDMF readers take for the end of the " +
                                "file part of an HDF5 reference (FILE:/DATASET)");
}

std::string xdmf_document(const std::string& name, const XdmfMesh& mesh, const std::vector<XdmfStep>& steps) {
  if (mesh.dim != 2 && mesh.dim != 3) throw std::invalid_argument("XDMF: a mesh is 2D or 3D");
  if (mesh.precision != "float" && mesh.precision != "double")
    throw std::invalid_argument("XDMF: precision '" + mesh.precision + "' is not float or double");
  require_xml_text(name, "series name");
  for (const auto& s : steps) {
    require_xdmf_name(s.file, "file name");
    for (const auto& f : s.fields) require_xdmf_name(f, "field name");
  }

  // A 2D mesh as a 3D one, one point thick at z = 0 (z spacing that of x: one point, no extent).
  std::array<long long, 3> points = mesh.points;
  std::array<double, 3> origin = mesh.origin, spacing = mesh.spacing;
  if (mesh.dim == 2) {
    points[2] = 1;
    origin[2] = 0;
    spacing[2] = spacing[0];
  }
  const std::string dimensions = list(zyx(points));
  const int bytes = mesh.precision == "float" ? 4 : 8;

  std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)> doc(xmlNewDoc(x("1.0")), &xmlFreeDoc);
  if (!doc) throw std::bad_alloc();
  xmlNodePtr root = xmlNewDocNode(doc.get(), nullptr, x("Xdmf"), nullptr);
  if (!root) throw std::bad_alloc();
  xmlDocSetRootElement(doc.get(), root);
  attribute(root, "Version", "3.0");
  xmlNodePtr collection = child(child(root, "Domain"), "Grid");
  attribute(collection, "Name", name);
  attribute(collection, "GridType", "Collection");
  attribute(collection, "CollectionType", "Temporal");

  for (const auto& s : steps) {
    xmlNodePtr grid = child(collection, "Grid");
    attribute(grid, "Name", "step " + std::to_string(s.step));
    attribute(grid, "GridType", "Uniform");
    attribute(child(grid, "Time"), "Value", number(s.time));
    xmlNodePtr topology = child(grid, "Topology");
    attribute(topology, "TopologyType", "3DCoRectMesh");
    attribute(topology, "Dimensions", dimensions);
    xmlNodePtr geometry = child(grid, "Geometry");
    attribute(geometry, "GeometryType", "ORIGIN_DXDYDZ");
    data_item(geometry, "Origin", "XML", 8, "3", list(zyx(origin)));
    data_item(geometry, "Spacing", "XML", 8, "3", list(zyx(spacing)));
    for (const auto& f : s.fields) {
      xmlNodePtr field = child(grid, "Attribute");
      attribute(field, "Name", f);
      attribute(field, "AttributeType", "Scalar");
      attribute(field, "Center", "Node");
      data_item(field, "", "HDF", bytes, dimensions, s.file + ":/" + f);
    }
  }

  xmlChar* memory = nullptr;
  int size = 0;
  xmlDocDumpFormatMemoryEnc(doc.get(), &memory, &size, "UTF-8", 1);
  if (!memory || size <= 0) throw std::runtime_error("XDMF: libxml2 could not write the document");
  std::unique_ptr<xmlChar, decltype(xmlFree)> owned(memory, xmlFree);
  return std::string(reinterpret_cast<const char*>(memory), static_cast<std::size_t>(size));
}

}  // namespace gridflow::io
