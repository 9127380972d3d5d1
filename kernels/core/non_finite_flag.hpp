#pragma once
// The first non-finite value a run wrote: kernels raise it with one compare per value they write
// anyway (no extra pass over memory, no synchronisation), keyed by (step, global point) so that
// the minimum over all writers, ranks included, is the earliest step and, within it, the lowest
// point index: key = step * points + index, index = i + (n0+1) (j + (n1+1) k). A fused launch
// that takes several steps records each step it computes under that step's number.
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/grid.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::core {

/// The key of "no non-finite value seen".
inline constexpr std::uint64_t no_non_finite = std::numeric_limits<std::uint64_t>::max();

/// What a kernel needs to record: where (the slot, in the fields' memory space) and how to key.
/// A null slot records nothing.
struct NonFiniteWatch {
  std::uint64_t* slot = nullptr;
  std::int64_t step = 0;         ///< the step whose values the kernel writes (the first, when fused)
  std::int64_t row_points = 0;   ///< global points along x
  std::int64_t plane_points = 0; ///< global points in an x-y plane
  std::int64_t points = 0;       ///< global points in all

  GRIDFLOW_HOST_DEVICE std::uint64_t key(std::int64_t at_step, std::int64_t i, std::int64_t j, std::int64_t k = 0) const {
    return static_cast<std::uint64_t>(at_step) * static_cast<std::uint64_t>(points) +
           static_cast<std::uint64_t>(i + row_points * j + plane_points * k);
  }
};

/// False for NaN and +-infinity: v - v is 0 for a finite v and NaN otherwise, and NaN is the one
/// value unequal to itself. A subtraction and a compare, which GCC vectorises inside a row loop as an
/// integer OR (std::isfinite and a compare of |v| with the largest value stopped it). Needs IEEE
/// semantics: no -ffast-math / -ffinite-math-only, which the project never uses.
template <class T>
GRIDFLOW_HOST_DEVICE inline bool finite_value(T v) {
  const T zero = v - v;
  return zero == zero;
}

/// The bits of v - v: none for a finite v (v - v is +0 when rounding to nearest), some for NaN
/// and +-infinity. OR-ed over a row they cost a subtraction and an OR a value, two vector
/// instructions, which a row loop keeps vectorised (a compare cost a third and ~18% on the CPU).
template <class T>
GRIDFLOW_HOST_DEVICE inline auto non_finite_bits(T v) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const T zero = v - v;
  Bits bits;
  std::memcpy(&bits, &zero, sizeof bits);
  return bits;
}

/// slot = min(slot, key), atomically: from any CUDA thread, or any host thread.
GRIDFLOW_HOST_DEVICE inline void record_non_finite(std::uint64_t* slot, std::uint64_t key) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<unsigned long long*>(slot), static_cast<unsigned long long>(key));
#else
  std::uint64_t seen = __atomic_load_n(slot, __ATOMIC_RELAXED);
  while (key < seen && !__atomic_compare_exchange_n(slot, &seen, key, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

/// A decoded key: the step and the global point.
struct NonFiniteAt {
  std::int64_t step = 0;
  std::int64_t i = 0, j = 0, k = 0;
};

/// Owns the slot the kernels of one run record into (in the fields' memory space) and a host
/// slot for values computed on the host (boundary expressions), both keyed for one grid.
class NonFiniteFlag {
 public:
  template <int Dim>
  NonFiniteFlag(const mesh::Grid<Dim>& grid, mesh::MemorySpace space)
      : NonFiniteFlag(grid.n[0] + 1, grid.n[1] + 1, Dim == 3 ? grid.n[Dim - 1] + 1 : 1, space) {}

  /// For a kernel that writes the values of step `step` (and, fused, the steps after it).
  NonFiniteWatch watch(std::int64_t step) const;
  /// Records a value computed on the host at global point (i, j, k) at step `step`.
  void record_host(std::int64_t step, std::int64_t i, std::int64_t j, std::int64_t k = 0);
  /// The earliest key this rank's writers recorded; with device fields it copies 8 bytes on `stream`
  /// and waits for them (call it where the run waits anyway).
  std::uint64_t read(StreamHandle stream) const;
  /// Sets both slots to `key` (a solver continuing another's run takes its flag along). Blocks.
  void assign(std::uint64_t key);
  /// The step and point of a key other than no_non_finite.
  NonFiniteAt decode(std::uint64_t key) const;
  mesh::MemorySpace space() const { return m_space; }

 private:
  NonFiniteFlag(std::int64_t nx, std::int64_t ny, std::int64_t nz, mesh::MemorySpace space);
  NonFiniteWatch m_keying;
  mesh::MemorySpace m_space;
  mesh::Buffer m_device;  // the kernels' slot, device fields only
  std::unique_ptr<std::uint64_t> m_host = std::make_unique<std::uint64_t>(no_non_finite);  // stable address
};

}  // namespace gridflow::kernels::core
