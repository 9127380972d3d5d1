#include "kernels/core/non_finite_flag.hpp"

#include <algorithm>
#include <string>

#include "mesh/check.hpp"

namespace gridflow::kernels::core {

NonFiniteFlag::NonFiniteFlag(std::int64_t nx, std::int64_t ny, std::int64_t nz, mesh::MemorySpace space) : m_space(space) {
  m_keying.row_points = nx;
  m_keying.plane_points = nx * ny;
  m_keying.points = nx * ny * nz;
  if (space == mesh::MemorySpace::device) {
    m_device = mesh::Buffer(sizeof(std::uint64_t), space);
    assign(no_non_finite);
  }
}

NonFiniteWatch NonFiniteFlag::watch(std::int64_t step) const {
  // Keys of later steps than this would wrap around (about 2.7e11 steps on 8192^2 points).
  GRIDFLOW_REQUIRE(step >= 0 && static_cast<std::uint64_t>(step) < no_non_finite / static_cast<std::uint64_t>(m_keying.points) - 1,
                   "step " + std::to_string(step) + " is past what the non-finite flag can key");
  NonFiniteWatch w = m_keying;
  w.slot = m_space == mesh::MemorySpace::device ? static_cast<std::uint64_t*>(m_device.data()) : m_host.get();
  w.step = step;
  return w;
}

void NonFiniteFlag::record_host(std::int64_t step, std::int64_t i, std::int64_t j, std::int64_t k) {
  record_non_finite(m_host.get(), m_keying.key(step, i, j, k));
}

std::uint64_t NonFiniteFlag::read(StreamHandle stream) const {
  std::uint64_t key = *m_host;
  if (m_space == mesh::MemorySpace::device) {
    std::uint64_t device_key = no_non_finite;
    mesh::copy_bytes_async(&device_key, mesh::MemorySpace::host, m_device.data(), mesh::MemorySpace::device,
                           sizeof(device_key), stream);
    mesh::synchronize(stream);
    key = std::min(key, device_key);
  }
  return key;
}

void NonFiniteFlag::assign(std::uint64_t key) {
  *m_host = key;
  if (m_space == mesh::MemorySpace::device)
    mesh::copy_bytes(m_device.data(), mesh::MemorySpace::device, &key, mesh::MemorySpace::host, sizeof(key));
}

NonFiniteAt NonFiniteFlag::decode(std::uint64_t key) const {
  const auto points = static_cast<std::uint64_t>(m_keying.points);
  const auto index = static_cast<std::int64_t>(key % points);
  NonFiniteAt at;
  at.step = static_cast<std::int64_t>(key / points);
  at.k = index / m_keying.plane_points;
  at.j = index % m_keying.plane_points / m_keying.row_points;
  at.i = index % m_keying.row_points;
  return at;
}

}  // namespace gridflow::kernels::core
