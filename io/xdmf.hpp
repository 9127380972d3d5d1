#pragma once
// XDMF (version 2) description of a time series of HDF5 files on a uniform (co-rectilinear) mesh,
// so ParaView and VisIt open the whole series as one data set.
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

/// The XML text for `steps` (a temporal collection of uniform grids).
std::string xdmf_document(const std::string& name, const XdmfMesh& mesh, const std::vector<XdmfStep>& steps);

}  // namespace gridflow::io
