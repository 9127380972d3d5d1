#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/fft/flow_graph.hpp"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "kernels/fft/flow_graph_point.hpp"
#include "kernels/fft/flow_graph_radix2_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

template <class V>
mesh::Buffer upload(const std::vector<V>& values) {
  mesh::Buffer b(std::max<std::size_t>(1, values.size()) * sizeof(V), mesh::MemorySpace::device);
  if (!values.empty())
    mesh::copy_bytes(b.data(), mesh::MemorySpace::device, values.data(), mesh::MemorySpace::host,
                     values.size() * sizeof(V));
  return b;
}

constexpr int max_threads = 1024;

// Several template instantiations share this dynamic shared-memory array; each views it as its T.
extern __shared__ __align__(16) unsigned char radix2_shared[];

template <class T>
__global__ void radix2_table_kernel(const Complex<T>* in, Complex<T>* out, OnChipShape shape,
                                    const std::int32_t* __restrict__ pairs,
                                    const std::int32_t* __restrict__ exponents,
                                    const std::int32_t* __restrict__ order, const Complex<T>* __restrict__ w,
                                    int stages) {
  Complex<T>* work = reinterpret_cast<Complex<T>*>(radix2_shared);
  const long long n = shape.n, half = n / 2;
  for (long long line = blockIdx.x; line < shape.batch; line += gridDim.x) {
    const OnChipShape::Line where = shape.line(line);
    const long long i = where.inner;
    const Complex<T>* x = in + where.in;
    Complex<T>* y = out + where.out;
    // Coalesced reads of the line, scattered into bit-reversed positions: the input order is its
    // own inverse, so work[order[j]] = x[j] is the table's work[p] = x[order[p]].
    for (long long j = threadIdx.x; j < n; j += blockDim.x) work[order[j]] = x[j * shape.in_stride];
    for (int s = 0; s < stages; ++s) {
      __syncthreads();
      const std::int32_t* stage_pairs = pairs + s * n;
      const std::int32_t* stage_exponents = exponents + s * half;
      for (long long t = threadIdx.x; t < half; t += blockDim.x)
        flow_graph_butterfly(work[stage_pairs[2 * t]], work[stage_pairs[2 * t + 1]], w[stage_exponents[t]]);
    }
    __syncthreads();
    for (long long k = threadIdx.x; k < n; k += blockDim.x) {
      Complex<T> v = work[k];
      if (shape.twiddle_length > 0)
        v = complex_mul(v, radix2_four_step_twiddle<T>(i * k, shape.twiddle_length, shape.sign));
      y[k * shape.out_stride] = v;
    }
    __syncthreads();  // the next line's loads overwrite work
  }
}

}  // namespace

template <class T>
Radix2DeviceTables<T>::Radix2DeviceTables(std::int64_t n) : m_n(n) {
  GRIDFLOW_REQUIRE(n >= 1 && n <= radix2_table_max_length,
                   "radix2_table FFT length " + std::to_string(n) + " is not in 1.." +
                       std::to_string(radix2_table_max_length));
  const FlowGraph g = make_flow_graph(n);
  m_stages = g.stages;
  m_pairs = upload(g.pairs);
  m_exponents = upload(g.twiddles);
  m_order = upload(g.input_order);
  m_forward = upload(flow_graph_twiddle_values<T>(n, -1));
  m_inverse = upload(flow_graph_twiddle_values<T>(n, +1));
}

template <class T>
void launch_radix2_table_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                             const Radix2DeviceTables<T>& tables, StreamHandle stream) {
  GRIDFLOW_REQUIRE(shape.n == tables.n(), "radix2_table launch of length " + std::to_string(shape.n) +
                                              " with the tables of length " + std::to_string(tables.n()));
  GRIDFLOW_REQUIRE(shape.inner_lines >= 1 && shape.mid_lines >= 1 && shape.batch % (shape.inner_lines * shape.mid_lines) == 0,
                   "radix2_table launch: batch " + std::to_string(shape.batch) + " is not a multiple of " +
                       std::to_string(shape.inner_lines) + " inner x " + std::to_string(shape.mid_lines) + " middle lines");
  GRIDFLOW_REQUIRE(shape.sign == -1 || shape.sign == 1, "radix2_table launch: sign must be -1 or +1");
  if (shape.batch == 0) return;
  // One butterfly per thread and stage (two for the longest lines, above 1024 threads).
  const int threads = static_cast<int>(std::clamp<std::int64_t>(shape.n / 2, 1, max_threads));
  const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>(shape.batch, 2147483647));
  const std::size_t shared = shape.n * sizeof(Complex<T>);
  onchip::allow_shared_bytes(reinterpret_cast<const void*>(radix2_table_kernel<T>), shared);  // above 48 KB
  radix2_table_kernel<T><<<blocks, threads, shared, stream>>>(in, out, shape, tables.pairs(),
                                                              tables.twiddle_exponents(), tables.input_order(),
                                                              tables.twiddle_values(shape.sign), tables.stages());
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template class Radix2DeviceTables<float>;
template class Radix2DeviceTables<double>;
template void launch_radix2_table_fft<float>(const Complex<float>*, Complex<float>*, const OnChipShape&,
                                             const Radix2DeviceTables<float>&, StreamHandle);
template void launch_radix2_table_fft<double>(const Complex<double>*, Complex<double>*, const OnChipShape&,
                                              const Radix2DeviceTables<double>&, StreamHandle);

}  // namespace gridflow::kernels::fft
