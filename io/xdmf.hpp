#pragma once
// XDMF 3 description of a time series of HDF5 files on a uniform (co-rectilinear) mesh, so
// ParaView and VisIt open the whole series as one data set.
//
// Every step is a 3DCoRectMesh: a 3D field as it is, a 2D field as a mesh one point thick in z
// (dimensions 1 x ny x nx, z = 0), which readers place in the X-Y plane (a 2DCoRectMesh lands in
// ParaView's Y-Z plane). The field datasets are referenced with those dimensions, slowest axis
// first (the (ny, nx) dataset of a 2D field as 1 x ny x nx: the same values in the same order).
// The document is built and written by libxml2, so any name is escaped as XML requires.
#include <array>
#include <string>
#include <vector>

namespace gridflow::io {

struct XdmfMesh {
  int dim = 2;
  std::array<long long, 3> points{};  ///< x, y, z point counts
  std::array<double, 3> origin{};     ///< x, y, z
  std::array<double, 3> spacing{};    ///< x, y, z
  std::string precision = "double";   ///< "float" or "double"
};

struct XdmfStep {
  long long step = 0;
  double time = 0;
  std::string file;                 ///< relative to the .xmf file
  std::vector<std::string> fields;  ///< dataset names at the file's root
};

/// Throws std::invalid_argument, naming `what`, when `name` cannot stand in an XDMF document as a
/// series, file or field name: not valid UTF-8 text for XML 1.0 (control characters), or a ':'.
void require_xdmf_name(const std::string& name, const std::string& what);

/// The XML text for `steps` (a temporal collection of uniform grids named `name`).
/// Throws std::invalid_argument for a name that XML 1.0 cannot hold (invalid UTF-8, control
/// characters) or a file or field name with ':' (an XDMF HDF reference is FILE:/DATASET, and
/// readers split it at the first ':').
std::string xdmf_document(const std::string& name, const XdmfMesh& mesh, const std::vector<XdmfStep>& steps);

}  // namespace gridflow::io
