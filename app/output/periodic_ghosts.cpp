#include "app/output/periodic_ghosts.hpp"

#include <algorithm>

#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

/// Every shift of {-1, 0, 1}^Dim but the zero one, axis 0 fastest.
template <int Dim>
std::vector<std::array<int, Dim>> nonzero_shifts() {
  std::vector<std::array<int, Dim>> shifts;
  int total = 1;
  for (int d = 0; d < Dim; ++d) total *= 3;
  for (int k = 0; k < total; ++k) {
    std::array<int, Dim> s{};
    bool zero = true;
    for (int d = 0, rest = k; d < Dim; ++d, rest /= 3) {
      s[d] = rest % 3 - 1;
      zero = zero && s[d] == 0;
    }
    if (!zero) shifts.push_back(s);
  }
  return shifts;
}

template <int Dim>
mesh::Box<Dim> shifted(mesh::Box<Dim> b, const std::array<int, Dim>& s, const mesh::Box<Dim>& points) {
  for (int d = 0; d < Dim; ++d) {
    b.lo[d] += s[d] * points.extent(d);
    b.hi[d] += s[d] * points.extent(d);
  }
  return b;
}

/// The ghosts of rank r's halo (width[d] along axis d) that lie in the grid's image under shift
/// s, moved back into the grid: where r's values for that image come from.
template <int Dim>
mesh::Box<Dim> image_source(const mesh::Box<Dim>& owned, const std::array<int, Dim>& width, const std::array<int, Dim>& s,
                            const mesh::Box<Dim>& points) {
  mesh::Box<Dim> halo = owned;
  for (int d = 0; d < Dim; ++d) halo = halo.grow(d, width[d]);
  const mesh::Box<Dim> ghosts_in_image = halo.intersect(shifted<Dim>(points, s, points));
  std::array<int, Dim> back{};
  for (int d = 0; d < Dim; ++d) back[d] = -s[d];
  return shifted<Dim>(ghosts_in_image, back, points);
}

}  // namespace

template <class T, int Dim>
PeriodicGhosts<T, Dim>::PeriodicGhosts(const mesh::Decomposition<Dim>& decomposition, const std::array<int, Dim>& width,
                                       mesh::MemorySpace space, StreamHandle stream)
    : m_width(width), m_owned(decomposition.owned()), m_stream(stream) {
  const mesh::Box<Dim> points = decomposition.grid().points();
  for (int d = 0; d < Dim; ++d) {
    GRIDFLOW_REQUIRE(width[d] >= 0, "periodic ghosts need widths >= 0");
    GRIDFLOW_REQUIRE(width[d] <= points.extent(d), "periodic ghosts wider than an axis would need images two periods away");
  }
  std::vector<mesh::Box<Dim>> from;
  for (int r = 0; r < decomposition.size(); ++r) from.push_back(decomposition.owned_by(r));
  std::size_t largest = 0;
  for (const auto& s : nonzero_shifts<Dim>()) {
    std::vector<mesh::Box<Dim>> to;
    bool any = false;
    for (int r = 0; r < decomposition.size(); ++r) {
      to.push_back(image_source<Dim>(from[r], width, s, points));
      any = any || !to.back().empty();
    }
    if (!any) continue;  // the same answer on every rank: all of them skip this collective
    Image image;
    image.source = to[decomposition.rank()];
    image.target = shifted<Dim>(image.source, s, points);
    image.move = std::make_unique<halo::BoxRedistribution<T, Dim>>(decomposition.comm(), from, to, space, stream);
    if (!image.source.empty()) {
      image.piece = std::make_unique<mesh::Field<T, Dim>>(image.source, 0, space, "periodic_ghosts");
      largest = std::max(largest, static_cast<std::size_t>(image.source.size()));
    }
    m_images.push_back(std::move(image));
  }
  if (largest > 0) m_staging = mesh::Buffer(largest * sizeof(T), space);
}

template <class T, int Dim>
PeriodicGhosts<T, Dim>::~PeriodicGhosts() = default;

template <class T, int Dim>
void PeriodicGhosts<T, Dim>::fill(mesh::Field<T, Dim>& field) {
  GRIDFLOW_REQUIRE(field.owned() == m_owned && field.ghost_width() >= *std::max_element(m_width.begin(), m_width.end()),
                   "periodic ghosts of field '" + field.label() + "': not this rank's box, or ghosts narrower than the width");
  T* staging = static_cast<T*>(m_staging.data());
  for (auto& image : m_images) {
    image.move->apply(&field, image.piece.get());
    if (!image.piece) continue;
    // Stream-ordered on the device: each unpack reads the staging before the next pack writes it.
    kernels::pack::pack(*image.piece, image.source, staging, m_stream);
    kernels::pack::unpack(static_cast<const T*>(staging), image.target, field, m_stream);
  }
}

template class PeriodicGhosts<float, 2>;
template class PeriodicGhosts<double, 2>;
template class PeriodicGhosts<float, 3>;
template class PeriodicGhosts<double, 3>;

}  // namespace gridflow::app
