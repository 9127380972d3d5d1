// The cufft backend of FftPlan: one cuFFT advanced-layout plan per layout, on the plan's stream.
// Layouts within int sizes go through cufftMakePlanMany, larger ones through the 64-bit API.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "kernels/fft/fft_plan.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

std::string cufft_result_name(cufftResult rc) {
  switch (rc) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of device memory)";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult " + std::to_string(static_cast<int>(rc));
  }
}

// cuFFT is called from this file only, so its check lives here rather than in mesh/check.hpp.
void check_cufft(cufftResult rc, const char* call, const std::string& context, const char* file, int line) {
  if (rc != CUFFT_SUCCESS)
    detail::throw_call_failure("cuFFT", call, cufft_result_name(rc) + context, file, line);
}
#define GRIDFLOW_CUFFT_CHECK(call, context) check_cufft((call), #call, (context), __FILE__, __LINE__)

std::string describe(const FftLayout& l) {
  const char* kind = l.kind == FftKind::c2c ? "c2c" : l.kind == FftKind::r2c ? "r2c" : "c2r";
  return std::string(" planning ") + kind + " n=" + std::to_string(l.n) + " batch=" + std::to_string(l.batch) +
         " stride=" + std::to_string(l.stride) + " distances=" + std::to_string(l.resolved_in_distance()) + "," +
         std::to_string(l.resolved_out_distance());
}

template <class T>
cufftType cufft_type(FftKind kind) {
  constexpr bool is_double = std::is_same_v<T, double>;
  switch (kind) {
    case FftKind::c2c: return is_double ? CUFFT_Z2Z : CUFFT_C2C;
    case FftKind::r2c: return is_double ? CUFFT_D2Z : CUFFT_R2C;
    case FftKind::c2r: return is_double ? CUFFT_Z2D : CUFFT_C2R;
  }
  return CUFFT_C2C;
}

bool fits_int(const FftLayout& l) {
  constexpr std::int64_t int_max = std::numeric_limits<int>::max();
  return l.n <= int_max && l.batch <= int_max && l.stride <= int_max && l.resolved_in_distance() <= int_max &&
         l.resolved_out_distance() <= int_max && l.in_elements() <= int_max && l.out_elements() <= int_max;
}

template <class T>
class CufftPlan final : public FftPlan<T> {
  using CufftComplex = std::conditional_t<std::is_same_v<T, double>, cufftDoubleComplex, cufftComplex>;

 public:
  CufftPlan(const FftLayout& l, StreamHandle stream, const FftTunables& tunables) : FftPlan<T>(l, tunables) {
    GRIDFLOW_REQUIRE(tunables.variant.empty(), "FFT backend cufft has no variants, got '" + tunables.variant + "'");
    const auto context = describe(l);
    GRIDFLOW_CUFFT_CHECK(cufftCreate(&m_plan), context);
    m_created = true;
    const auto type = cufft_type<T>(l.kind);
    std::size_t work_bytes = 0;
    // Non-null embeds make cuFFT honour the strides and distances; for rank 1 their value is not read.
    if (fits_int(l)) {
      int n = static_cast<int>(l.n), in_embed = static_cast<int>(l.in_line_elements()),
          out_embed = static_cast<int>(l.out_line_elements());
      const int stride = static_cast<int>(l.stride);
      GRIDFLOW_CUFFT_CHECK(cufftMakePlanMany(m_plan, 1, &n, &in_embed, stride, static_cast<int>(l.resolved_in_distance()),
                                             &out_embed, stride, static_cast<int>(l.resolved_out_distance()), type,
                                             static_cast<int>(l.batch), &work_bytes),
                           context);
    } else {
      long long n = l.n, in_embed = l.in_line_elements(), out_embed = l.out_line_elements();
      GRIDFLOW_CUFFT_CHECK(cufftMakePlanMany64(m_plan, 1, &n, &in_embed, l.stride, l.resolved_in_distance(), &out_embed,
                                               l.stride, l.resolved_out_distance(), type, l.batch, &work_bytes),
                           context);
    }
    GRIDFLOW_CUFFT_CHECK(cufftSetStream(m_plan, stream), context);
  }
  ~CufftPlan() override {
    if (m_created) cufftDestroy(m_plan);
  }
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;

  using FftPlan<T>::execute;
  void execute(const void* in, void* out) override {
    const auto& l = this->layout();
    GRIDFLOW_REQUIRE(in != nullptr && out != nullptr, "cuFFT execution on a null buffer");
    GRIDFLOW_REQUIRE(in != out || (l.kind == FftKind::c2c && l.resolved_in_distance() == l.resolved_out_distance()),
                     "in-place FFT execution needs a c2c plan with equal input and output line distances");
    // cuFFT takes non-const input; c2r may overwrite it (the interface allows it).
    void* from = const_cast<void*>(in);
    const int sign = l.direction == FftDirection::forward ? CUFFT_FORWARD : CUFFT_INVERSE;
    const std::string context = " executing";
    if constexpr (std::is_same_v<T, double>) {
      switch (l.kind) {
        case FftKind::c2c:
          GRIDFLOW_CUFFT_CHECK(cufftExecZ2Z(m_plan, static_cast<CufftComplex*>(from), static_cast<CufftComplex*>(out), sign),
                               context);
          break;
        case FftKind::r2c:
          GRIDFLOW_CUFFT_CHECK(cufftExecD2Z(m_plan, static_cast<T*>(from), static_cast<CufftComplex*>(out)), context);
          break;
        case FftKind::c2r:
          GRIDFLOW_CUFFT_CHECK(cufftExecZ2D(m_plan, static_cast<CufftComplex*>(from), static_cast<T*>(out)), context);
          break;
      }
    } else {
      switch (l.kind) {
        case FftKind::c2c:
          GRIDFLOW_CUFFT_CHECK(cufftExecC2C(m_plan, static_cast<CufftComplex*>(from), static_cast<CufftComplex*>(out), sign),
                               context);
          break;
        case FftKind::r2c:
          GRIDFLOW_CUFFT_CHECK(cufftExecR2C(m_plan, static_cast<T*>(from), static_cast<CufftComplex*>(out)), context);
          break;
        case FftKind::c2r:
          GRIDFLOW_CUFFT_CHECK(cufftExecC2R(m_plan, static_cast<CufftComplex*>(from), static_cast<T*>(out)), context);
          break;
      }
    }
  }

 private:
  cufftHandle m_plan{};
  bool m_created = false;
};

}  // namespace

template <class T>
std::unique_ptr<FftPlan<T>> make_cufft_plan(const FftLayout& layout, StreamHandle stream, const FftTunables& tunables) {
  static_assert(sizeof(Complex<T>) == 2 * sizeof(T), "Complex<T> must match cuFFT's layout");
  return std::make_unique<CufftPlan<T>>(layout, stream, tunables);
}

template std::unique_ptr<FftPlan<float>> make_cufft_plan<float>(const FftLayout&, StreamHandle, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_cufft_plan<double>(const FftLayout&, StreamHandle, const FftTunables&);

}  // namespace gridflow::kernels::fft
