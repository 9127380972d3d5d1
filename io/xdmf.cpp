#include "io/xdmf.hpp"

#include <iomanip>
#include <sstream>

namespace gridflow::io {

namespace {
// XDMF lists per-axis values slowest first: z y x.
template <class A>
std::string slowest_first(const A& a, int dim) {
  std::ostringstream os;
  os << std::setprecision(17);
  for (int d = dim - 1; d >= 0; --d) os << a[d] << (d ? " " : "");
  return os.str();
}
}  // namespace

std::string xdmf_document(const std::string& name, const XdmfMesh& mesh, const std::vector<XdmfStep>& steps) {
  const std::string dims = slowest_first(mesh.points, mesh.dim);
  const std::string topology = mesh.dim == 3 ? "3DCoRectMesh" : "2DCoRectMesh";
  const std::string geometry = mesh.dim == 3 ? "ORIGIN_DXDYDZ" : "ORIGIN_DXDY";
  const int bytes = mesh.precision == "float" ? 4 : 8;
  std::ostringstream x;
  x << std::setprecision(17);
  x << "<?xml version=\"1.0\" ?>\n"
    << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf Version=\"2.0\">\n"
    << "  <Domain>\n"
    << "    <Grid Name=\"" << name << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& s : steps) {
    x << "      <Grid Name=\"step " << s.step << "\" GridType=\"Uniform\">\n"
      << "        <Time Value=\"" << s.time << "\" />\n"
      << "        <Topology TopologyType=\"" << topology << "\" Dimensions=\"" << dims << "\" />\n"
      << "        <Geometry GeometryType=\"" << geometry << "\">\n"
      << "          <DataItem Format=\"XML\" NumberType=\"Float\" Precision=\"8\" Dimensions=\"" << mesh.dim << "\">"
      << slowest_first(mesh.origin, mesh.dim) << "</DataItem>\n"
      << "          <DataItem Format=\"XML\" NumberType=\"Float\" Precision=\"8\" Dimensions=\"" << mesh.dim << "\">"
      << slowest_first(mesh.spacing, mesh.dim) << "</DataItem>\n"
      << "        </Geometry>\n";
    for (const auto& f : s.fields)
      x << "        <Attribute Name=\"" << f << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
        << "          <DataItem Format=\"HDF\" NumberType=\"Float\" Precision=\"" << bytes << "\" Dimensions=\"" << dims
        << "\">" << s.file << ":/" << f << "</DataItem>\n"
        << "        </Attribute>\n";
    x << "      </Grid>\n";
  }
  x << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return x.str();
}

}  // namespace gridflow::io
