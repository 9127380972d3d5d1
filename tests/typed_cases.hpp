#pragma once
// The typed-test cases every kernel, halo and pack suite runs over (float and double, 2D and 3D),
// point access by an index array, and bitwise equality for the oracle comparisons.
#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "mesh/box.hpp"

namespace gridflow::testing {

template <class T, int D>
struct Case {
  using value_type = T;
  static constexpr int dim = D;
};

using PrecisionDimCases = ::testing::Types<Case<float, 2>, Case<double, 2>, Case<float, 3>, Case<double, 3>>;

/// The value of a view or field at point `p`.
template <class V, int Dim>
auto& at(const V& v, const std::array<mesh::Index, Dim>& p) {
  if constexpr (Dim == 2) return v(p[0], p[1]);
  else return v(p[0], p[1], p[2]);
}

/// Bit-for-bit equality (tells -0 from +0 and NaN payloads apart, unlike ==).
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace gridflow::testing
