#pragma once
// OutputSnapshot<T, Dim>: the copy of the run's fields that an asynchronous output writes while
// the run steps on. One set of buffers, made once and reused by every output (bounded memory):
// per field one host copy in page-locked memory, and for a device field one device copy.
//
//   host field:   take() copies it (a plain copy) and returns.
//   device field: take() queues a device-to-device copy on the run's stream (the steps queued
//                 after it wait only for that copy: about 1 ms per GB on an H100, where a
//                 device-to-host copy takes tens), then, on a stream of its own, the copy of
//                 that into the page-locked host buffer, and returns without waiting.
//                 wait_until_copied() waits for the host copy. When the device lacks the room
//                 for the device copy (checked at allocation), the device-to-host copy is queued
//                 on the run's stream itself and the next steps wait behind it instead.
//
// The buffers of one take() must be done with (written) before the next take(): the caller keeps
// at most one output in flight.
#include <memory>
#include <optional>
#include <vector>

#include "app/loop/field_access.hpp"
#include "io/output_series.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T, int Dim>
class OutputSnapshot {
 public:
  OutputSnapshot();
  ~OutputSnapshot();
  OutputSnapshot(const OutputSnapshot&) = delete;
  OutputSnapshot& operator=(const OutputSnapshot&) = delete;

  /// Makes the buffers for the fields of `fields` now (take() makes them when missing), so an
  /// output does not pay for page-locking gigabytes. Blocks.
  void allocate(const FieldAccess<T, Dim>& fields);
  /// Queues the copies of every field of `fields` (after the work queued on fields.stream()).
  /// The host fields returned (owned box = this rank's) hold the values once
  /// wait_until_copied() has returned, and until the next take().
  std::vector<io::NamedField<T, Dim>> take(const FieldAccess<T, Dim>& fields);
  /// Blocks until the host copies of the last take() are complete. Callable from any thread.
  void wait_until_copied() const;

 private:
  struct Copy;  // one field's buffers
  Copy& copy_for(const std::string& name, const mesh::Field<T, Dim>& field);

  std::vector<std::unique_ptr<Copy>> m_copies;
  std::optional<mesh::Stream> m_copy_stream;  // the device-to-host copies
  std::optional<mesh::Event> m_staged, m_copied;
  bool m_pending_device_copy = false;  // the last take() queued device work
  int m_device = 0;  // the run's GPU, current on the thread that waits
};

extern template class OutputSnapshot<float, 2>;
extern template class OutputSnapshot<double, 2>;
extern template class OutputSnapshot<float, 3>;
extern template class OutputSnapshot<double, 3>;

}  // namespace gridflow::app
