#pragma once
// Launchers of the DST-I fold and unfold on the device; no CUDA syntax, so plain C++ can call them.
#include <cstdint>

#include "kernels/fft/complex.hpp"
#include "kernels/fft/dst1_lines.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft {

/// real = fold of lines first_line .. first_line + count - 1 of `field` (batch lines 0..count-1);
/// sines[j] = sin(pi j / N). Asynchronous on `stream`.
template <class T>
void launch_dst1_fold_cuda(const Dst1Lines& lines, const T* field, const T* sines, T* real, std::int64_t first_line,
                           std::int64_t count, StreamHandle stream);

/// Lines first_line .. first_line + count - 1 of `field` = unfold of the spectrum's batch lines
/// 0..count-1. Asynchronous on `stream`.
template <class T>
void launch_dst1_unfold_cuda(const Dst1Lines& lines, const Complex<T>* spectrum, T* field, std::int64_t first_line,
                             std::int64_t count, StreamHandle stream);

}  // namespace gridflow::kernels::fft
