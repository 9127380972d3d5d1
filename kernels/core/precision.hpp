#pragma once
// Precision: the floating-point type a run's fields hold, chosen in the deck, and the one place
// that turns it into a C++ type: dispatch(p, f) calls f(float{}) or f(double{}).
#include <string>
#include <type_traits>
#include <utility>

namespace gridflow::kernels::core {

enum class Precision { float32, float64 };

/// "float" or "double": the deck's spelling, also used in cache keys and file metadata.
inline const char* to_string(Precision p) { return p == Precision::float32 ? "float" : "double"; }

/// Bytes of one value.
inline int value_bytes(Precision p) { return p == Precision::float32 ? 4 : 8; }

template <class T>
constexpr Precision precision_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "fields hold float or double");
  return std::is_same_v<T, float> ? Precision::float32 : Precision::float64;
}

/// Calls f with a value of the precision's type (0 of it), so the caller's generic lambda is
/// instantiated for both types and runs the one asked for.
template <class F>
decltype(auto) dispatch(Precision p, F&& f) {
  if (p == Precision::float32) return std::forward<F>(f)(float{});
  return std::forward<F>(f)(double{});
}

}  // namespace gridflow::kernels::core
