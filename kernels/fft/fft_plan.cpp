#include "kernels/fft/fft_plan.hpp"

#include <string>

#include "kernels/core/space_dispatch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

std::string to_string(FftBackend backend) {
  switch (backend) {
    case FftBackend::fftw: return "fftw";
    case FftBackend::host_flow_graph: return "host_flow_graph";
    case FftBackend::cufft: return "cufft";
    case FftBackend::flow_graph: return "flow_graph";
  }
  return "?";
}

FftBackend parse_fft_backend(const std::string& name) {
  for (auto b : {FftBackend::fftw, FftBackend::host_flow_graph, FftBackend::cufft, FftBackend::flow_graph})
    if (name == to_string(b)) return b;
  throw Error("unknown FFT backend '" + name + "': expected fftw, host_flow_graph, cufft or flow_graph");
}

bool runs_in(FftBackend backend, mesh::MemorySpace space) {
  const bool host_backend = backend == FftBackend::fftw || backend == FftBackend::host_flow_graph;
  return host_backend == (space == mesh::MemorySpace::host);
}

namespace {

bool power_of_two(std::int64_t n) { return n >= 1 && (n & (n - 1)) == 0; }

}  // namespace

bool supports(FftBackend backend, const FftLayout& layout) {
  constexpr std::int64_t int_max = 2147483647;
  switch (backend) {
    case FftBackend::host_flow_graph: return power_of_two(layout.n);
    case FftBackend::flow_graph: return power_of_two(layout.n) && layout.n <= (std::int64_t(1) << 24);
    case FftBackend::fftw: return layout.in_elements() <= int_max && layout.out_elements() <= int_max;
    case FftBackend::cufft: return true;  // beyond int sizes through cuFFT's 64-bit API
  }
  return false;
}

FftTunables default_fft_tunables(mesh::MemorySpace space) {
  return {space == mesh::MemorySpace::device ? FftBackend::cufft : FftBackend::fftw, ""};
}

namespace {

void check_layout(const FftLayout& l) {
  GRIDFLOW_REQUIRE(l.n >= 1, "FFT length " + std::to_string(l.n) + " is not positive");
  GRIDFLOW_REQUIRE(l.batch >= 1, "FFT batch " + std::to_string(l.batch) + " is not positive");
  GRIDFLOW_REQUIRE(l.stride >= 1, "FFT stride " + std::to_string(l.stride) + " is not positive");
  GRIDFLOW_REQUIRE(l.in_distance >= 0 && l.out_distance >= 0, "FFT line distances must not be negative");
  GRIDFLOW_REQUIRE(l.kind == FftKind::c2c || l.direction == (l.kind == FftKind::r2c ? FftDirection::forward
                                                                                    : FftDirection::inverse),
                   "an r2c FFT is forward and a c2r FFT inverse");
  // Two lines writing one output element would race on the device and give order-dependent
  // results on the host. The two layouts accepted cover lines one after the other (padded or
  // not) and lines interleaved element by element.
  const std::int64_t distance = l.resolved_out_distance(), line_span = (l.out_line_elements() - 1) * l.stride + 1;
  GRIDFLOW_REQUIRE(l.batch == 1 || distance >= line_span || (distance >= 1 && l.stride > (l.batch - 1) * distance),
                   "FFT output lines overlap: " + std::to_string(l.batch) + " lines of " +
                       std::to_string(l.out_line_elements()) + " elements at stride " + std::to_string(l.stride) +
                       " and line distance " + std::to_string(distance));
}

const char* kind_name(FftKind k) { return k == FftKind::c2c ? "c2c" : k == FftKind::r2c ? "r2c" : "c2r"; }

}  // namespace

template <class T>
void FftPlan<T>::execute(const Complex<T>* in, Complex<T>* out) {
  GRIDFLOW_REQUIRE(m_layout.kind == FftKind::c2c, std::string("complex-to-complex execution of a ") +
                                                       kind_name(m_layout.kind) + " plan");
  execute(static_cast<const void*>(in), static_cast<void*>(out));
}

template <class T>
void FftPlan<T>::execute(const T* in, Complex<T>* out) {
  GRIDFLOW_REQUIRE(m_layout.kind == FftKind::r2c, std::string("real-to-complex execution of a ") +
                                                       kind_name(m_layout.kind) + " plan");
  execute(static_cast<const void*>(in), static_cast<void*>(out));
}

template <class T>
void FftPlan<T>::execute(const Complex<T>* in, T* out) {
  GRIDFLOW_REQUIRE(m_layout.kind == FftKind::c2r, std::string("complex-to-real execution of a ") +
                                                       kind_name(m_layout.kind) + " plan");
  execute(static_cast<const void*>(in), static_cast<void*>(out));
}

template <class T>
std::unique_ptr<FftPlan<T>> make_fft_plan(const FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
                                          const FftTunables& tunables) {
  check_layout(layout);
  const auto backend = tunables.backend;
  GRIDFLOW_REQUIRE(runs_in(backend, space), "FFT backend " + to_string(backend) + " does not run on " +
                                                mesh::to_string(space) + " memory");
  GRIDFLOW_REQUIRE(supports(backend, layout), "FFT backend " + to_string(backend) + " cannot plan length " +
                                                  std::to_string(layout.n) + " (batch " +
                                                  std::to_string(layout.batch) + ")");
  GRIDFLOW_REQUIRE(space == mesh::MemorySpace::host || stream != nullptr,
                   "a device FFT plan needs a stream to execute on, got a null one");
  if (backend == FftBackend::fftw) return make_fftw_plan<T>(layout, tunables);
  if (backend == FftBackend::host_flow_graph) return make_host_flow_graph_plan<T>(layout, tunables);
  return core::run_on_space(
      "fft::make_fft_plan", space, stream, []() -> std::unique_ptr<FftPlan<T>> { return nullptr; },
      [&](auto) -> std::unique_ptr<FftPlan<T>> {
        if (backend == FftBackend::cufft) return make_cufft_plan<T>(layout, stream, tunables);
        return make_flow_graph_plan<T>(layout, stream, tunables);
      });
}

template class FftPlan<float>;
template class FftPlan<double>;
template std::unique_ptr<FftPlan<float>> make_fft_plan<float>(const FftLayout&, mesh::MemorySpace, StreamHandle,
                                                              const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_fft_plan<double>(const FftLayout&, mesh::MemorySpace, StreamHandle,
                                                                const FftTunables&);

}  // namespace gridflow::kernels::fft
