#pragma once
// The stages of a distributed multi-dimensional FFT: where the values lie while each axis is
// transformed. Box arithmetic only (no communication), so it is tested on its own.
//
// Every stage keeps its axis whole on every rank, so its 1D transforms are local; a change of
// boxes between stages is one transpose. Boxes are of spectral points: the grid's points, except
// that for real values the x axis holds the n/2 + 1 bins of the half spectrum (after the first
// stage's r2c transform along x).
//
//   slab 2D     stage 0: rows split along y,    x transformed
//               stage 1: columns split along x, y transformed            (spectrum split along x)
//   slab 3D     stage 0: z-slabs, x transformed; stage 1: the same slabs, y transformed
//               stage 2: y-slabs (split along y), z transformed          (spectrum split along y)
//   pencil 3D   ranks as a p1 x p2 grid (p1 <= p2, p1 the largest divisor of the rank count not
//               above its square root; rank r at (r % p1, r / p1)):
//               stage 0: x-pencils, y split p1 ways, z split p2 ways, x transformed
//               stage 1: y-pencils, x split p1 ways, z split p2 ways, y transformed
//               stage 2: z-pencils, x split p1 ways, y split p2 ways, z transformed
// Splits are mesh::split_range's (the first parts take the remainder); with more ranks than
// planes some ranks hold nothing in a stage.
#include <vector>

#include "mesh/box.hpp"

namespace gridflow::transform {

enum class FftDecomposition { slab, pencil };
/// What the values of the field are: complex (c2c) or real (r2c forward, c2r inverse).
enum class FftValues { complex, real };

template <int Dim>
struct FftStage {
  std::vector<mesh::Box<Dim>> boxes;  ///< per rank, spectral points
  int axis = 0;                       ///< transformed in this stage
};

template <int Dim>
struct FftStages {
  mesh::Box<Dim> spectrum;                ///< every spectral point (x: 0..n/2 for real values)
  std::vector<mesh::Box<Dim>> real_boxes;  ///< real values: stage 0's boxes over the grid's points
  std::vector<FftStage<Dim>> stages;
};

/// The stages for `points` (the whole grid, lo = 0) over `ranks` ranks. Throws Error for a pencil
/// decomposition in 2D.
template <int Dim>
FftStages<Dim> plan_fft_stages(const mesh::Box<Dim>& points, FftValues values, FftDecomposition decomposition,
                               int ranks);

/// p1 of the pencil grid above.
int pencil_rows(int ranks);

}  // namespace gridflow::transform
