#pragma once
// FieldAccess<T, Dim>: the run's fields at the current step, read-only, for observers: as they
// are (in the run's memory space), as a host copy, and their range over all ranks. A copy or a
// range is made on its first request and kept until the fields change (the loop's next advance),
// so observers acting at one step share it: one device-to-host copy and one reduction per step
// however many observers read them. The host buffers are kept from step to step.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T, int Dim>
struct NamedField {
  std::string name;
  const mesh::Field<T, Dim>* field;  ///< owned box = this rank's; the run's memory space
};

/// Over the owned points (boundary included) of every rank.
struct GlobalRange {
  double min = 0, max = 0;
  bool finite = true;  ///< false when any value is NaN or infinite
};

template <class T, int Dim>
class FieldAccess {
 public:
  explicit FieldAccess(const mesh::Decomposition<Dim>& decomposition) : m_decomposition(decomposition) {}

  /// The fields as they now stand, and the stream their work is queued on. Drops the copies and
  /// ranges made so far (the values may have changed), keeps the host buffers.
  void point_to(std::vector<NamedField<T, Dim>> fields, StreamHandle stream);

  const std::vector<NamedField<T, Dim>>& all() const { return m_fields; }
  /// The stream the fields' work is queued on (null for host fields).
  StreamHandle stream() const { return m_stream; }
  /// In the run's memory space; its ghosts may be stale. Throws Error for an unknown name.
  const mesh::Field<T, Dim>& field(const std::string& name) const;
  /// In host memory: the field itself for host fields, else a copy made on the first call at this
  /// step (it waits for the work queued on the stream). Not collective.
  const mesh::Field<T, Dim>& host(const std::string& name) const;
  /// Allocates the host buffers of the device fields now, without copying, so that the first
  /// host() at a step (an output) does not pay for the allocation.
  void allocate_host_buffers() const;
  /// Min, max and finiteness over every rank's owned points. Collective over the decomposition's
  /// communicator on the first call at this step (every rank must ask at the same step).
  GlobalRange range(const std::string& name) const;

 private:
  /// What is made from a field at a step.
  struct Derived {
    std::unique_ptr<mesh::Field<T, Dim>> host_buffer;
    bool host_current = false;
    std::optional<GlobalRange> range;
  };

  const mesh::Decomposition<Dim>& m_decomposition;
  std::vector<NamedField<T, Dim>> m_fields;
  StreamHandle m_stream = nullptr;
  mutable std::map<std::string, Derived> m_derived;  // by field name
};

extern template class FieldAccess<float, 2>;
extern template class FieldAccess<double, 2>;
extern template class FieldAccess<float, 3>;
extern template class FieldAccess<double, 3>;

}  // namespace gridflow::app
