// Host oracle of the vector operations and the dispatch to the CUDA variants.
#include <algorithm>
#include <array>
#include <string>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/reduce_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/field_checks.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/multigrid/vector_ops_cuda.hpp"
#include "kernels/multigrid/vector_ops_point.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::multigrid {

namespace {
template <class A, class B>
void require_pair(const mesh::Field<A, 3>& a, const mesh::Field<B, 3>& b, const mesh::Box<3>& box, const char* name) {
  require_same_space(a, b, name);
  require_reach(a, box, name);
  require_reach(b, box, name);
}
}  // namespace

template <class A, class B>
double dot(const mesh::Field<A, 3>& a, const mesh::Field<B, 3>& b, const mesh::Box<3>& box, StreamHandle stream) {
  require_pair(a, b, box, "multigrid::dot");
  if (box.empty()) return 0;
  return core::run_on_space(
      "multigrid::dot", a.space(), stream,
      [&] {
        const auto av = a.view();
        const auto bv = b.view();
        return core::reduce_host<core::Sum>("multigrid::dot::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          return product_point(av(i, j, k), bv(i, j, k));
        });
      },
      [&](auto) { return dot_cuda<A, B>(a.view(), b.view(), box, stream); });
}

template <class T>
void axpy(T alpha, const mesh::Field<T, 3>& x, mesh::Field<T, 3>& y, const mesh::Box<3>& box, StreamHandle stream) {
  require_pair(x, y, box, "multigrid::axpy");
  if (box.empty()) return;
  core::run_on_space(
      "multigrid::axpy", x.space(), stream,
      [&] {
        const auto xv = x.view();
        const auto yv = y.view();
        core::for_each_host("multigrid::axpy::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          yv(i, j, k) = axpy_point(alpha, xv(i, j, k), yv(i, j, k));
        });
      },
      [&](auto) { axpy_cuda<T>(alpha, x.view(), y.view(), box, stream); });
}

template <class X, class T>
void xpby(const mesh::Field<X, 3>& x, T beta, mesh::Field<T, 3>& y, const mesh::Box<3>& box, StreamHandle stream) {
  require_pair(x, y, box, "multigrid::xpby");
  if (box.empty()) return;
  core::run_on_space(
      "multigrid::xpby", x.space(), stream,
      [&] {
        const auto xv = x.view();
        const auto yv = y.view();
        core::for_each_host("multigrid::xpby::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          yv(i, j, k) = xpby_point(static_cast<T>(xv(i, j, k)), beta, yv(i, j, k));
        });
      },
      [&](auto) { xpby_cuda<X, T>(x.view(), beta, y.view(), box, stream); });
}

template <class T>
void copy(const mesh::Field<T, 3>& src, mesh::Field<T, 3>& dst, const mesh::Box<3>& box, StreamHandle stream) {
  require_pair(src, dst, box, "multigrid::copy");
  if (box.empty()) return;
  core::run_on_space(
      "multigrid::copy", src.space(), stream,
      [&] {
        const auto sv = src.view();
        const auto dv = dst.view();
        core::for_each_row_host("multigrid::copy::host", box, [&](std::int64_t j, std::int64_t k) {
          std::copy(&sv(box.lo[0], j, k), &sv(box.lo[0], j, k) + box.extent(0), &dv(box.lo[0], j, k));
        });
      },
      [&](auto) { copy_cuda<T>(src.view(), dst.view(), box, stream); });
}

namespace {
/// Two sums at once, for dot2's host oracle (reduce_host's order: along rows, then rows in order).
struct PairSum {
  struct Value {
    double a = 0, b = 0;
  };
  static Value identity() { return {}; }
  static void join(Value& into, const Value& from) {
    into.a += from.a;
    into.b += from.b;
  }
  static void merge(Value& into, const Value& from) { join(into, from); }
};
}  // namespace

template <class T>
double laplacian_and_dot(const mesh::Field<T, 3>& p, mesh::Field<T, 3>& q, const mesh::Box<3>& box,
                         const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::laplacian_and_dot";
  GRIDFLOW_REQUIRE(&p != &q, std::string(name) + ": input and output must be different fields");
  require_same_space(p, q, name);
  require_reach(p, box.grow(1), name);
  require_reach(q, box, name);
  if (box.empty()) return 0;
  return core::run_on_space(
      name, p.space(), stream,
      [&] {
        const auto pv = p.view();
        const auto qv = q.view();
        return core::reduce_host<core::Sum>(name, box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          const T v = laplacian_at(pv, i, j, k, c);
          qv(i, j, k) = v;
          return product_point(pv(i, j, k), v);
        });
      },
      [&](auto) { return laplacian_and_dot_cuda<T>(p.view(), q.view(), box, c, stream); });
}

namespace {
/// cg_update, and where `rounded` is given, r rounded to C there too.
template <class T, class C>
double cg_update_rounding(T alpha, const mesh::Field<T, 3>& p, const mesh::Field<T, 3>& q, mesh::Field<T, 3>& u,
                          mesh::Field<T, 3>& r, mesh::Field<C, 3>* rounded, const mesh::Box<3>& box, StreamHandle stream) {
  constexpr const char* name = "multigrid::cg_update";
  require_pair(p, u, box, name);
  require_pair(q, r, box, name);
  require_same_space(p, q, name);
  if (rounded) require_pair(r, *rounded, box, name);
  if (box.empty()) return 0;
  const auto rounded_view = rounded ? rounded->view() : mesh::FieldView<C, 3>{};
  return core::run_on_space(
      name, p.space(), stream,
      [&] {
        const auto pv = p.view(), qv = q.view();
        const auto uv = u.view(), rv = r.view();
        return core::reduce_host<core::Sum>(name, box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          uv(i, j, k) = axpy_point(alpha, pv(i, j, k), uv(i, j, k));
          const T v = axpy_point(-alpha, qv(i, j, k), rv(i, j, k));
          rv(i, j, k) = v;
          if (rounded_view.data) rounded_view(i, j, k) = static_cast<C>(v);
          return product_point(v, v);
        });
      },
      [&](auto) { return cg_update_cuda<T, C>(alpha, p.view(), q.view(), u.view(), r.view(), rounded_view, box, stream); });
}
}  // namespace

template <class T>
double cg_update(T alpha, const mesh::Field<T, 3>& p, const mesh::Field<T, 3>& q, mesh::Field<T, 3>& u, mesh::Field<T, 3>& r,
                 const mesh::Box<3>& box, StreamHandle stream) {
  return cg_update_rounding<T, T>(alpha, p, q, u, r, nullptr, box, stream);
}

template <class T, class C>
double cg_update(T alpha, const mesh::Field<T, 3>& p, const mesh::Field<T, 3>& q, mesh::Field<T, 3>& u, mesh::Field<T, 3>& r,
                 mesh::Field<C, 3>& rounded, const mesh::Box<3>& box, StreamHandle stream) {
  return cg_update_rounding<T, C>(alpha, p, q, u, r, &rounded, box, stream);
}

template <class T, class Z>
std::array<double, 2> dot2(const mesh::Field<T, 3>& r, const mesh::Field<Z, 3>& z, const mesh::Field<T, 3>& q,
                           const mesh::Box<3>& box, StreamHandle stream) {
  constexpr const char* name = "multigrid::dot2";
  require_pair(r, z, box, name);
  require_pair(z, q, box, name);
  if (box.empty()) return {0, 0};
  return core::run_on_space(
      name, r.space(), stream,
      [&] {
        const auto rv = r.view(), zv = z.view(), qv = q.view();
        const auto sums = core::reduce_host<PairSum>(name, box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          return PairSum::Value{product_point(rv(i, j, k), zv(i, j, k)), product_point(zv(i, j, k), qv(i, j, k))};
        });
        return std::array<double, 2>{sums.a, sums.b};
      },
      [&](auto) { return dot2_cuda<T, Z>(r.view(), z.view(), q.view(), box, stream); });
}

template <class T>
void fill_zero(mesh::Field<T, 3>& field, StreamHandle stream) {
  core::run_on_space(
      "multigrid::fill_zero", field.space(), stream,
      [&] { std::fill(field.allocation(), field.allocation() + field.allocated_elements(), T(0)); },
      [&](auto) { mesh::fill_device_bytes(field.allocation(), 0, field.allocated_bytes(), stream); });
}

#define GRIDFLOW_INSTANTIATE_VECTOR_OPS(T)                                                                             \
  template void axpy<T>(T, const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle);            \
  template void copy<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle);               \
  template void fill_zero<T>(mesh::Field<T, 3>&, StreamHandle);                                                       \
  template double laplacian_and_dot<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&,               \
                                       const PoissonCoefficients<T>&, StreamHandle);                                    \
  template double cg_update<T>(T, const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<T, 3>&,             \
                               mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle);
#define GRIDFLOW_INSTANTIATE_VECTOR_OPS_OF(T, Z)                                                                        \
  template double dot<T, Z>(const mesh::Field<T, 3>&, const mesh::Field<Z, 3>&, const mesh::Box<3>&, StreamHandle);     \
  template void xpby<Z, T>(const mesh::Field<Z, 3>&, T, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle);         \
  template std::array<double, 2> dot2<T, Z>(const mesh::Field<T, 3>&, const mesh::Field<Z, 3>&, const mesh::Field<T, 3>&, \
                                            const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_VECTOR_OPS(float)
GRIDFLOW_INSTANTIATE_VECTOR_OPS(double)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_OF(float, float)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_OF(double, double)
GRIDFLOW_INSTANTIATE_VECTOR_OPS_OF(double, float)
#define GRIDFLOW_INSTANTIATE_CG_UPDATE_ROUNDING(T)                                                                    \
  template double cg_update<T, float>(T, const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<T, 3>&,       \
                                      mesh::Field<T, 3>&, mesh::Field<float, 3>&, const mesh::Box<3>&, StreamHandle);
GRIDFLOW_INSTANTIATE_CG_UPDATE_ROUNDING(float)
GRIDFLOW_INSTANTIATE_CG_UPDATE_ROUNDING(double)
#undef GRIDFLOW_INSTANTIATE_CG_UPDATE_ROUNDING
#undef GRIDFLOW_INSTANTIATE_VECTOR_OPS_OF
#undef GRIDFLOW_INSTANTIATE_VECTOR_OPS

}  // namespace gridflow::kernels::multigrid
