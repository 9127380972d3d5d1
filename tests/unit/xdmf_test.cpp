// The XDMF index as text: parsed back with libxml2, names come out as they went in (escaped, not
// mangled), a 2D mesh is a 3D one a point thick, numbers read back exactly.
#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/xdmf.hpp"

using gridflow::io::XdmfMesh;
using gridflow::io::XdmfStep;
using gridflow::io::xdmf_document;

namespace {

using Doc = std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)>;

Doc parse(const std::string& text) {
  return Doc(xmlReadMemory(text.data(), static_cast<int>(text.size()), "index.xmf", nullptr, XML_PARSE_NONET),
             &xmlFreeDoc);
}

std::string name_of(xmlNodePtr n) { return reinterpret_cast<const char*>(n->name); }

std::string attribute(xmlNodePtr n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  if (!v) return "(none)";
  std::string s(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return s;
}

std::string content(xmlNodePtr n) {
  xmlChar* v = xmlNodeGetContent(n);
  std::string s(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return s;
}

std::vector<xmlNodePtr> children(xmlNodePtr n, const std::string& name) {
  std::vector<xmlNodePtr> out;
  for (xmlNodePtr c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && name_of(c) == name) out.push_back(c);
  return out;
}

xmlNodePtr only(xmlNodePtr n, const std::string& name) {
  const auto c = children(n, name);
  EXPECT_EQ(c.size(), 1u) << name;
  return c.empty() ? nullptr : c.front();
}

XdmfMesh mesh2d() {
  XdmfMesh m;
  m.dim = 2;
  m.points = {65, 49, 0};
  m.origin = {-0.5, 0.25, 0};
  m.spacing = {0.1, 1.0 / 48, 0};
  m.precision = "float";
  return m;
}

}  // namespace

TEST(Xdmf, NamesWithXmlCharactersComeBackUnchanged) {
  const std::string name = "a&b<c\"d'e>f g";
  const std::string field = "u&<\"";
  const std::string file = name + "_00000000.h5";
  const std::string text = xdmf_document(name, mesh2d(), {XdmfStep{0, 0.0, file, {field}}});
  EXPECT_EQ(text.find("a&b"), std::string::npos) << "a bare '&' in:\n" << text;
  const Doc doc = parse(text);
  ASSERT_TRUE(doc) << "not well-formed XML:\n" << text;
  xmlNodePtr root = xmlDocGetRootElement(doc.get());
  const xmlNodePtr collection = only(only(root, "Domain"), "Grid");
  ASSERT_TRUE(collection);
  EXPECT_EQ(attribute(collection, "Name"), name);
  const xmlNodePtr step = only(collection, "Grid");
  ASSERT_TRUE(step);
  const xmlNodePtr field_node = only(step, "Attribute");
  ASSERT_TRUE(field_node);
  EXPECT_EQ(attribute(field_node, "Name"), field);
  EXPECT_EQ(content(only(field_node, "DataItem")), file + ":/" + field);
}

TEST(Xdmf, TwoDimensionalMeshIsOnePointThickInZ) {
  const std::vector<XdmfStep> steps = {{0, 0.0, "heat_00000000.h5", {"u"}}, {92, 0.1 + 0.2, "heat_00000092.h5", {"u"}}};
  const Doc doc = parse(xdmf_document("heat", mesh2d(), steps));
  ASSERT_TRUE(doc);
  xmlNodePtr root = xmlDocGetRootElement(doc.get());
  EXPECT_EQ(attribute(root, "Version"), "3.0");
  const xmlNodePtr collection = only(only(root, "Domain"), "Grid");
  ASSERT_TRUE(collection);
  EXPECT_EQ(attribute(collection, "GridType"), "Collection");
  EXPECT_EQ(attribute(collection, "CollectionType"), "Temporal");
  const auto grids = children(collection, "Grid");
  ASSERT_EQ(grids.size(), 2u);
  EXPECT_EQ(attribute(grids[0], "Name"), "step 0");
  EXPECT_EQ(std::stod(attribute(only(grids[1], "Time"), "Value")), 0.1 + 0.2);  // exact, not rounded
  for (xmlNodePtr g : grids) {
    const xmlNodePtr topology = only(g, "Topology");
    EXPECT_EQ(attribute(topology, "TopologyType"), "3DCoRectMesh");
    EXPECT_EQ(attribute(topology, "Dimensions"), "1 49 65");
    const xmlNodePtr geometry = only(g, "Geometry");
    EXPECT_EQ(attribute(geometry, "GeometryType"), "ORIGIN_DXDYDZ");
    const auto items = children(geometry, "DataItem");
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(content(items[0]), "0 0.25 -0.5");  // z y x
    EXPECT_EQ(content(items[1]), "0.1 0.020833333333333332 0.1");
    const xmlNodePtr data = only(only(g, "Attribute"), "DataItem");
    EXPECT_EQ(attribute(data, "Format"), "HDF");
    EXPECT_EQ(attribute(data, "NumberType"), "Float");
    EXPECT_EQ(attribute(data, "Precision"), "4");
    EXPECT_EQ(attribute(data, "Dimensions"), "1 49 65");
  }
}

TEST(Xdmf, ThreeDimensionalMeshListsZYX) {
  XdmfMesh m;
  m.dim = 3;
  m.points = {13, 11, 15};
  m.origin = {1, 2, 3};
  m.spacing = {0.5, 0.25, 0.125};
  const Doc doc = parse(xdmf_document("p", m, {{770, 0.0, "p_00000770.h5", {"u"}}}));
  ASSERT_TRUE(doc);
  const xmlNodePtr g = only(only(only(xmlDocGetRootElement(doc.get()), "Domain"), "Grid"), "Grid");
  ASSERT_TRUE(g);
  EXPECT_EQ(attribute(only(g, "Topology"), "Dimensions"), "15 11 13");
  const auto items = children(only(g, "Geometry"), "DataItem");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(content(items[0]), "3 2 1");
  EXPECT_EQ(content(items[1]), "0.125 0.25 0.5");
  const xmlNodePtr data = only(only(g, "Attribute"), "DataItem");
  EXPECT_EQ(attribute(data, "Precision"), "8");
  EXPECT_EQ(attribute(data, "Dimensions"), "15 11 13");
  EXPECT_EQ(attribute(only(g, "Attribute"), "Center"), "Node");
}

TEST(Xdmf, RefusesNamesNoXdmfCanHold) {
  EXPECT_THROW(xdmf_document("a\x01", mesh2d(), {}), std::invalid_argument);
  EXPECT_THROW(xdmf_document("bad \xff utf-8", mesh2d(), {}), std::invalid_argument);
  EXPECT_THROW(xdmf_document("h", mesh2d(), {{0, 0.0, "a:b_00000000.h5", {"u"}}}), std::invalid_argument);
  EXPECT_THROW(xdmf_document("h", mesh2d(), {{0, 0.0, "h_00000000.h5", {"u:v"}}}), std::invalid_argument);
  EXPECT_THROW(gridflow::io::require_xdmf_name("x:y", "output name"), std::invalid_argument);
  EXPECT_NO_THROW(gridflow::io::require_xdmf_name("été & <co> \"run\"\t2", "output name"));
}
