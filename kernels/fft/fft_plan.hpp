#pragma once
// FftPlan<T>: one planned batch of 1D discrete Fourier transforms of one length, the interface of
// the FFT family. Every backend sits behind it and the backend is a tunable:
//
//   host    fftw               FFTW (FFTW_ESTIMATE, deterministic): the CPU reference
//           host_flow_graph    the seed's algorithm: butterfly index and twiddle tables per stage
//                              driving a plain loop (flow_graph.hpp), a test oracle
//   device  cufft              cuFFT
//           flow_graph         gridflow's CUDA kernels: whole transforms in shared memory /
//                              registers for on-chip lengths, a four-step decomposition beyond
//                              (flow_graph_cuda.hpp, FlowGraphTunables)
//
// Conventions (those of FFTW and numpy.fft): forward X_k = sum_j x_j exp(-2 pi i j k / n),
// inverse x_j = sum_k X_k exp(+2 pi i j k / n), both unnormalised (inverse(forward(x)) = n x).
// r2c is a forward transform of n real values giving n/2 + 1 complex ones; c2r the inverse,
// reading n/2 + 1 complex values (the imaginary parts of bins 0 and n/2 ignored) and writing n
// real ones.
//
// Layout: line b's element j is at in[b * in_distance + j * stride] (input) and
// out[b * out_distance + j * stride] (output), counted in elements of that buffer's type
// (T for real buffers, Complex<T> for complex ones). Distances of 0 mean lines one after the
// other: n for complex lines, n for real ones, n/2 + 1 for half spectra. In-place execution
// (in == out) is allowed for c2c with equal distances; r2c / c2r are out of place.
#include <cstdint>
#include <memory>
#include <string>

#include "kernels/fft/complex.hpp"
#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::kernels::fft {

enum class FftKind { c2c, r2c, c2r };
enum class FftDirection { forward, inverse };

struct FftLayout {
  std::int64_t n = 0;      ///< transform length (of the real signal for r2c / c2r); >= 1
  std::int64_t batch = 1;  ///< transforms per execution; >= 1
  FftKind kind = FftKind::c2c;
  FftDirection direction = FftDirection::forward;  ///< c2c only: r2c is forward, c2r inverse
  std::int64_t stride = 1;        ///< between a line's elements, input and output alike
  std::int64_t in_distance = 0;   ///< between lines of the input; 0: contiguous (see above)
  std::int64_t out_distance = 0;  ///< between lines of the output; 0: contiguous

  /// Elements of one input / output line when contiguous: n or n/2 + 1.
  std::int64_t in_line_elements() const { return kind == FftKind::c2r ? n / 2 + 1 : n; }
  std::int64_t out_line_elements() const { return kind == FftKind::r2c ? n / 2 + 1 : n; }
  /// The distances with 0 resolved.
  std::int64_t resolved_in_distance() const { return in_distance ? in_distance : in_line_elements() * stride; }
  std::int64_t resolved_out_distance() const { return out_distance ? out_distance : out_line_elements() * stride; }
  /// Elements the input / output buffers must hold: the last element of the last line, plus one.
  std::int64_t in_elements() const { return (batch - 1) * resolved_in_distance() + (in_line_elements() - 1) * stride + 1; }
  std::int64_t out_elements() const { return (batch - 1) * resolved_out_distance() + (out_line_elements() - 1) * stride + 1; }
};

enum class FftBackend { fftw, host_flow_graph, cufft, flow_graph };

/// "fftw", "host_flow_graph", "cufft", "flow_graph"; parse_fft_backend throws Error naming the
/// accepted names for anything else.
std::string to_string(FftBackend backend);
FftBackend parse_fft_backend(const std::string& name);
/// Whether the backend runs on fields of `space` (fftw / host_flow_graph: host; the others: device).
bool runs_in(FftBackend backend, mesh::MemorySpace space);
/// Whether the backend can plan this layout: host_flow_graph and flow_graph take powers of two
/// (up to 2^24 on the device); fftw any layout within FFTW's int sizes; cufft any layout (the
/// 64-bit API beyond int sizes; cuFFT may still refuse one at planning, with an Error naming why).
bool supports(FftBackend backend, const FftLayout& layout);

/// The backend and the variant of it: the FFT family's tunables. `variant` names a flow_graph
/// CUDA variant (FlowGraphTunables::parse); empty takes that backend's default.
struct FftTunables {
  FftBackend backend = FftBackend::fftw;
  std::string variant;
};

/// The default backend for a space: fftw on the host, cufft on the device (the tuner measures
/// the others against it).
FftTunables default_fft_tunables(mesh::MemorySpace space);

template <class T>
class FftPlan {
 public:
  virtual ~FftPlan() = default;
  const FftLayout& layout() const { return m_layout; }
  const FftTunables& tunables() const { return m_tunables; }

  /// Runs the batch. c2c: Complex<T> in and out; r2c: T in, Complex<T> out; c2r: Complex<T> in,
  /// T out (the typed overloads below check the kind). Buffers in the plan's memory space,
  /// holding layout().in_elements() / out_elements(). c2r may overwrite its input (FFTW and cuFFT
  /// do). Host: blocks. Device: asynchronous on the plan's stream.
  virtual void execute(const void* in, void* out) = 0;

  void execute(const Complex<T>* in, Complex<T>* out);  ///< c2c
  void execute(const T* in, Complex<T>* out);           ///< r2c
  void execute(const Complex<T>* in, T* out);           ///< c2r

 protected:
  FftPlan(const FftLayout& layout, const FftTunables& tunables) : m_layout(layout), m_tunables(tunables) {}

 private:
  FftLayout m_layout;
  FftTunables m_tunables;
};

/// Plans `layout` with `tunables` for buffers in `space`; device plans execute on `stream`
/// (required, not null). Throws Error naming the reason for an invalid layout, a backend that
/// does not run in `space` or cannot plan the layout, or device memory without CUDA.
template <class T>
std::unique_ptr<FftPlan<T>> make_fft_plan(const FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
                                          const FftTunables& tunables);

// One factory per backend (each in its own file; the device ones exist in CUDA builds only and are
// reached through make_fft_plan).
//
// Threads: FFTW's planner is not thread safe. fftw plans are made and destroyed under one lock,
// which orders them against each other but not against other code of the process that calls
// FFTW's planner directly; executing plans (one buffer pair per thread) needs no lock.
template <class T>
std::unique_ptr<FftPlan<T>> make_fftw_plan(const FftLayout& layout, const FftTunables& tunables);
template <class T>
std::unique_ptr<FftPlan<T>> make_host_flow_graph_plan(const FftLayout& layout, const FftTunables& tunables);
template <class T>
std::unique_ptr<FftPlan<T>> make_cufft_plan(const FftLayout& layout, StreamHandle stream, const FftTunables& tunables);
template <class T>
std::unique_ptr<FftPlan<T>> make_flow_graph_plan(const FftLayout& layout, StreamHandle stream,
                                                 const FftTunables& tunables);

}  // namespace gridflow::kernels::fft
