#pragma once
// Preconditions the multigrid kernels share: one memory space, and the points a kernel reads or
// writes inside the fields' ghosted boxes.
#include <string>

#include "mesh/check.hpp"
#include "mesh/field.hpp"

namespace gridflow::kernels::multigrid {

template <class A, class B>
void require_same_space(const mesh::Field<A, 3>& a, const mesh::Field<B, 3>& b, const char* kernel) {
  GRIDFLOW_REQUIRE(a.space() == b.space(), std::string(kernel) + ": fields '" + a.label() + "' and '" + b.label() +
                                               "' are in different memory spaces");
}

template <class T>
void require_reach(const mesh::Field<T, 3>& field, const mesh::Box<3>& touched, const char* kernel) {
  GRIDFLOW_REQUIRE(field.ghosted().contains(touched),
                   std::string(kernel) + ": the points used reach outside the ghosted box of field '" + field.label() + "'");
}

}  // namespace gridflow::kernels::multigrid
