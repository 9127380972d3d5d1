// The fftw backend of FftPlan: one FFTW advanced-interface plan per layout, made on scratch arrays
// and run with FFTW's new-array execute functions, so one plan serves any buffers execute() gets.
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "kernels/fft/fft_plan.hpp"
#include "kernels/fft/fftw_traits.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

// FFTW's planner (making and destroying plans) is not thread safe; executing plans is. This
// backend plans and destroys under one lock, which protects gridflow's plans from each other but
// not from other code in the process calling FFTW's planner directly.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// FFTW_ESTIMATE: no timing runs, so every rank and run gets the same plan and the same bits.
// FFTW_UNALIGNED: the plan assumes nothing about the scratch arrays' SIMD alignment, so execute()
// takes buffers at any address, and the bits do not depend on where a buffer starts.
constexpr unsigned planner_flags = FFTW_ESTIMATE | FFTW_UNALIGNED;

int to_fftw_int(std::int64_t value, const char* what) {
  GRIDFLOW_REQUIRE(value <= std::numeric_limits<int>::max(),
                   std::string("FFTW cannot plan an FFT whose ") + what + " (" + std::to_string(value) +
                       ") exceeds its int sizes");
  return static_cast<int>(value);
}

// An fftw_malloc'ed array alive while planning only (FFTW_ESTIMATE does not touch its contents).
template <class T>
class ScratchArray {
 public:
  explicit ScratchArray(std::int64_t bytes) : m_data(FftwTraits<T>::allocate(static_cast<std::size_t>(bytes))) {
    GRIDFLOW_REQUIRE(m_data != nullptr, "FFTW could not allocate " + std::to_string(bytes) +
                                            " bytes of planning scratch");
  }
  ~ScratchArray() { FftwTraits<T>::release(m_data); }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;
  template <class U>
  U* as() const {
    return static_cast<U*>(m_data);
  }

 private:
  void* m_data;
};

template <class T>
class FftwPlan final : public FftPlan<T> {
  using Fftw = FftwTraits<T>;
  using FftwComplex = typename Fftw::Complex;
  struct Destroy {
    void operator()(typename Fftw::Plan p) const {
      std::lock_guard<std::mutex> lock(planner_mutex());
      Fftw::destroy(p);
    }
  };
  using PlanHandle = std::unique_ptr<std::remove_pointer_t<typename Fftw::Plan>, Destroy>;

 public:
  FftwPlan(const FftLayout& l, const FftTunables& tunables) : FftPlan<T>(l, tunables) {
    GRIDFLOW_REQUIRE(tunables.variant.empty(), "FFT backend fftw has no variants, got '" + tunables.variant + "'");
    const int n = to_fftw_int(l.n, "length");
    const int batch = to_fftw_int(l.batch, "batch");
    const int stride = to_fftw_int(l.stride, "stride");
    const int in_distance = to_fftw_int(l.resolved_in_distance(), "input line distance");
    const int out_distance = to_fftw_int(l.resolved_out_distance(), "output line distance");
    // FFTW indexes whole buffers with int too.
    to_fftw_int(l.in_elements(), "input size");
    to_fftw_int(l.out_elements(), "output size");

    // Full-size scratch for the planner, freed on return: planning briefly needs as much memory
    // again as the buffers the plan will run on.
    const ScratchArray<T> in(l.in_elements() * element_bytes(l.kind != FftKind::r2c));
    const ScratchArray<T> out(l.out_elements() * element_bytes(l.kind != FftKind::c2r));
    std::lock_guard<std::mutex> lock(planner_mutex());
    const auto plan_on = [&](void* from, void* to) -> typename Fftw::Plan {
      switch (l.kind) {
        case FftKind::c2c:
          return Fftw::plan_many_c2c(1, &n, batch, static_cast<FftwComplex*>(from), nullptr, stride, in_distance,
                                     static_cast<FftwComplex*>(to), nullptr, stride, out_distance,
                                     l.direction == FftDirection::forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                     planner_flags);
        case FftKind::r2c:
          return Fftw::plan_many_r2c(1, &n, batch, static_cast<T*>(from), nullptr, stride, in_distance,
                                     static_cast<FftwComplex*>(to), nullptr, stride, out_distance, planner_flags);
        case FftKind::c2r:
          return Fftw::plan_many_c2r(1, &n, batch, static_cast<FftwComplex*>(from), nullptr, stride, in_distance,
                                     static_cast<T*>(to), nullptr, stride, out_distance, planner_flags);
      }
      return nullptr;
    };
    m_out_of_place.reset(plan_on(in.template as<void>(), out.template as<void>()));
    GRIDFLOW_REQUIRE(m_out_of_place != nullptr, "FFTW could not plan " + std::to_string(batch) +
                                                    " transforms of length " + std::to_string(n));
    // FFTW distinguishes in-place plans from out-of-place ones, and the interface allows in == out
    // for c2c with equal distances, so that case gets its own plan.
    if (l.kind == FftKind::c2c && in_distance == out_distance) {
      m_in_place.reset(plan_on(in.template as<void>(), in.template as<void>()));
      GRIDFLOW_REQUIRE(m_in_place != nullptr, "FFTW could not plan " + std::to_string(batch) +
                                                  " in-place transforms of length " + std::to_string(n));
    }
  }

  using FftPlan<T>::execute;
  void execute(const void* in, void* out) override {
    GRIDFLOW_REQUIRE(in != nullptr && out != nullptr, "FFTW execution on a null buffer");
    const bool in_place = in == out;
    GRIDFLOW_REQUIRE(!in_place || m_in_place != nullptr,
                     "in-place FFT execution needs a c2c plan with equal input and output line distances");
    const auto plan = in_place ? m_in_place.get() : m_out_of_place.get();
    // FFTW's execute functions take non-const input; c2r may overwrite it (the interface allows it).
    void* from = const_cast<void*>(in);
    switch (this->layout().kind) {
      case FftKind::c2c:
        Fftw::execute_c2c(plan, static_cast<FftwComplex*>(from), static_cast<FftwComplex*>(out));
        break;
      case FftKind::r2c: Fftw::execute_r2c(plan, static_cast<T*>(from), static_cast<FftwComplex*>(out)); break;
      case FftKind::c2r: Fftw::execute_c2r(plan, static_cast<FftwComplex*>(from), static_cast<T*>(out)); break;
    }
  }

 private:
  static std::int64_t element_bytes(bool complex) { return complex ? sizeof(Complex<T>) : sizeof(T); }

  PlanHandle m_out_of_place;
  PlanHandle m_in_place;  ///< c2c with equal distances only
};

}  // namespace

template <class T>
std::unique_ptr<FftPlan<T>> make_fftw_plan(const FftLayout& layout, const FftTunables& tunables) {
  static_assert(sizeof(Complex<T>) == sizeof(typename FftwTraits<T>::Complex), "Complex<T> must match FFTW's layout");
  return std::make_unique<FftwPlan<T>>(layout, tunables);
}

template std::unique_ptr<FftPlan<float>> make_fftw_plan<float>(const FftLayout&, const FftTunables&);
template std::unique_ptr<FftPlan<double>> make_fftw_plan<double>(const FftLayout&, const FftTunables&);

}  // namespace gridflow::kernels::fft
