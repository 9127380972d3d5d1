#include "solver/dirichlet_boundary.hpp"

#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::solver {

template <class T, int Dim>
DirichletBoundary<T, Dim>::DirichletBoundary(const mesh::Grid<Dim>& grid, std::array<SharedFunction, 2 * Dim> faces,
                                             mesh::MemorySpace space, StreamHandle stream)
    : m_grid(grid), m_faces(std::move(faces)), m_space(space), m_stream(stream) {}

template <class T, int Dim>
bool DirichletBoundary<T, Dim>::time_dependent() const {
  for (const auto& f : m_faces)
    if (f->uses("t")) return true;
  return false;
}

template <class T, int Dim>
mesh::Box<Dim> DirichletBoundary<T, Dim>::face_points(int axis, int side) const {
  mesh::Box<Dim> b = m_grid.points().face(axis, side);
  for (int lower = 0; lower < axis; ++lower) {
    b.lo[lower] += 1;
    b.hi[lower] -= 1;
  }
  return b;
}

template <class T, int Dim>
const std::vector<typename DirichletBoundary<T, Dim>::Piece>& DirichletBoundary<T, Dim>::pieces_in(const mesh::Box<Dim>& region) {
  auto [it, inserted] = m_pieces.try_emplace({region.lo, region.hi});
  if (inserted)
    for (int axis = 0; axis < Dim; ++axis)
      for (int side = 0; side < 2; ++side) {
        const auto box = face_points(axis, side).intersect(region);
        if (!box.empty()) it->second.push_back({2 * axis + side, box});
      }
  return it->second;
}

template <class T, int Dim>
void DirichletBoundary<T, Dim>::evaluate(const std::vector<Piece>& pieces, double t, T* out,
                                         kernels::core::NonFiniteFlag* flag, std::int64_t step) const {
  for (const auto& p : pieces) {
    const auto& b = p.box;
    const auto n = static_cast<std::size_t>(b.size());
    m_columns.resize((Dim + 2) * n);  // x, y[, z], t, result
    auto& columns = m_columns;
    std::size_t k = 0;
    for (mesh::Index z = 0; z < (Dim == 3 ? b.extent(Dim - 1) : 1); ++z)
      for (mesh::Index y = b.lo[1]; y <= b.hi[1]; ++y)
        for (mesh::Index x = b.lo[0]; x <= b.hi[0]; ++x, ++k) {
          columns[k] = m_grid.coordinate(0, x);
          columns[n + k] = m_grid.coordinate(1, y);
          if constexpr (Dim == 3) columns[2 * n + k] = m_grid.coordinate(2, b.lo[2] + z);
          columns[Dim * n + k] = t;
        }
    std::vector<const double*> vars;
    for (int v = 0; v <= Dim; ++v) vars.push_back(columns.data() + v * n);
    double* result = columns.data() + (Dim + 1) * n;
    m_faces[p.face]->eval_bulk(static_cast<int>(n), vars, result);
    bool finite = true;
    for (std::size_t q = 0; q < n; ++q) {
      out[q] = static_cast<T>(result[q]);
      finite &= kernels::core::finite_value(out[q]);
    }
    if (!finite && flag)
      for (std::size_t q = 0; q < n; ++q)
        if (!kernels::core::finite_value(out[q])) {  // the first in x-fastest order, as the keys order points
          const auto row = static_cast<mesh::Index>(b.extent(0)), plane = row * b.extent(1);
          const auto at = static_cast<mesh::Index>(q);
          flag->record_host(step, b.lo[0] + at % row, b.lo[1] + at % plane / row, Dim == 3 ? b.lo[Dim - 1] + at / plane : 0);
          break;
        }
    out += n;
  }
}

template <class T, int Dim>
void DirichletBoundary<T, Dim>::apply(mesh::Field<T, Dim>& field, const mesh::Box<Dim>& region, double t,
                                      kernels::core::NonFiniteFlag* flag, std::int64_t step) {
  const auto& pieces = pieces_in(region);
  std::size_t count = 0;
  for (const auto& p : pieces) count += static_cast<std::size_t>(p.box.size());
  if (count == 0) return;

  if (m_space == mesh::MemorySpace::host) {
    m_host_values.resize(count);
    evaluate(pieces, t, m_host_values.data(), flag, step);
    const T* at = m_host_values.data();
    for (const auto& p : pieces) {
      kernels::pack::unpack(at, p.box, field, m_stream);
      at += p.box.size();
    }
    return;
  }

  Staging& s = stage(m_staging, m_next_slot, count * sizeof(T));
  T* host = static_cast<T*>(s.host.data());
  evaluate(pieces, t, host, flag, step);
  mesh::copy_bytes_async(s.device.data(), mesh::MemorySpace::device, host, mesh::MemorySpace::host, count * sizeof(T), m_stream);
  s.copied->record(m_stream);
  const T* at = static_cast<const T*>(s.device.data());
  for (const auto& p : pieces) {
    kernels::pack::unpack(at, p.box, field, m_stream);
    at += p.box.size();
  }
}

template <class T, int Dim>
typename DirichletBoundary<T, Dim>::Staging& DirichletBoundary<T, Dim>::stage(std::array<Staging, 2>& slots, int& next,
                                                                            std::size_t bytes) {
  Staging& s = slots[next];
  next ^= 1;
  if (s.copied) s.copied->synchronize();  // the host slot may still be read by its last copy
  else s.copied.emplace();
  if (s.host.bytes() < bytes) {
    s.host = mesh::Buffer(bytes, mesh::MemorySpace::host, /*pinned=*/true);
    s.device = mesh::Buffer(bytes, mesh::MemorySpace::device);
  }
  return s;
}

template <class T, int Dim>
kernels::stencil::HeatRing<T> DirichletBoundary<T, Dim>::ring(const mesh::Box<Dim>& box, std::int64_t step0, double dt,
                                                              int steps, kernels::core::NonFiniteFlag* flag) {
  if constexpr (Dim != 2) {
    throw Error("Dirichlet boundary: fused steps with moving boundary values exist for 2D grids only");
  } else {
    kernels::stencil::HeatRing<T> ring;
    ring.box = box;
    ring.active = m_grid.interior();
    const auto count = static_cast<std::size_t>(ring.count(steps));
    if (count == 0) return ring;
    const auto& pieces = pieces_in(box);
    std::size_t points = 0;
    for (const auto& p : pieces) points += static_cast<std::size_t>(p.box.size());
    m_host_values.resize(points);
    Staging* s = nullptr;
    T* values = nullptr;
    if (m_space == mesh::MemorySpace::host) {
      m_ring_values.resize(count);
      values = m_ring_values.data();
    } else {
      s = &stage(m_ring_staging, m_next_ring_slot, count * sizeof(T));
      values = static_cast<T*>(s->host.data());
    }
    const auto layout = ring.view();
    for (int step = 1; step < steps; ++step) {
      evaluate(pieces, static_cast<double>(step0 + step) * dt, m_host_values.data(), flag, step0 + step);
      const T* v = m_host_values.data();
      for (const auto& p : pieces)
        for (auto j = p.box.lo[1]; j <= p.box.hi[1]; ++j)
          for (auto i = p.box.lo[0]; i <= p.box.hi[0]; ++i, ++v)
            values[layout.index(step, static_cast<int>(i), static_cast<int>(j))] = *v;
    }
    if (s) {
      mesh::copy_bytes_async(s->device.data(), mesh::MemorySpace::device, values, mesh::MemorySpace::host,
                             count * sizeof(T), m_stream);
      s->copied->record(m_stream);
      values = static_cast<T*>(s->device.data());
    }
    ring.values = values;
    return ring;
  }
}

template class DirichletBoundary<float, 2>;
template class DirichletBoundary<double, 2>;
template class DirichletBoundary<float, 3>;
template class DirichletBoundary<double, 3>;

}  // namespace gridflow::solver
