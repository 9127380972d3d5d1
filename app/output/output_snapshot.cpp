#include "app/output/output_snapshot.hpp"

#include "gridflow/config.hpp"
#include "mesh/check.hpp"

#if GRIDFLOW_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gridflow::app {

namespace {

/// Device memory left free beside a device copy: the run's own allocations come and go (scratch
/// of reductions, halo buffers) and other ranks may share the GPU.
constexpr std::size_t device_copy_margin_bytes = std::size_t(512) << 20;

/// Page-locks host memory for its lifetime, so device-to-host copies into it run asynchronously
/// at full speed. Where the system refuses (a locked-memory limit), the memory stays pageable:
/// the copies are then slower, not wrong.
class PageLock {
 public:
  PageLock(void* data, std::size_t bytes) {
#if GRIDFLOW_HAVE_CUDA
    if (cudaHostRegister(data, bytes, cudaHostRegisterDefault) == cudaSuccess) m_data = data;
    else cudaGetLastError();  // clear it: later checks must not see this refusal
#else
    (void)data, (void)bytes;
#endif
  }
  ~PageLock() {
#if GRIDFLOW_HAVE_CUDA
    if (m_data) cudaHostUnregister(m_data);
#endif
  }
  PageLock(const PageLock&) = delete;
  PageLock& operator=(const PageLock&) = delete;

 private:
  void* m_data = nullptr;
};

}  // namespace

template <class T, int Dim>
struct OutputSnapshot<T, Dim>::Copy {
  std::string name;
  mesh::MemorySpace from;  // the space of the field copied
  mesh::Field<T, Dim> host;
  std::optional<PageLock> lock;                 // device fields only
  std::optional<mesh::Field<T, Dim>> on_device;  // the device copy, where there is room
};

template <class T, int Dim>
OutputSnapshot<T, Dim>::OutputSnapshot() = default;
template <class T, int Dim>
OutputSnapshot<T, Dim>::~OutputSnapshot() = default;

template <class T, int Dim>
typename OutputSnapshot<T, Dim>::Copy& OutputSnapshot<T, Dim>::copy_for(const std::string& name,
                                                                      const mesh::Field<T, Dim>& field) {
  for (auto& c : m_copies)
    if (c->name == name && c->from == field.space() && c->host.same_layout(field)) return *c;
  auto copy = std::make_unique<Copy>();
  copy->name = name;
  copy->from = field.space();
  copy->host = mesh::Field<T, Dim>(field.owned(), field.ghost_width(), mesh::MemorySpace::host, name + "_output");
  if (field.space() == mesh::MemorySpace::device) {
    copy->lock.emplace(copy->host.allocation(), copy->host.allocated_bytes());
    const mesh::GpuMemory memory = mesh::current_gpu_memory();
    m_device = memory.device;
    if (memory.free_bytes >= field.allocated_bytes() + device_copy_margin_bytes)
      copy->on_device.emplace(field.owned(), field.ghost_width(), mesh::MemorySpace::device, name + "_output");
    if (!m_copy_stream) {
      m_copy_stream.emplace();
      m_staged.emplace();
      m_copied.emplace();
    }
  }
  for (auto& c : m_copies)  // a field of the same name in another layout or space: replaced
    if (c->name == name) {
      c = std::move(copy);
      return *c;
    }
  m_copies.push_back(std::move(copy));
  return *m_copies.back();
}

template <class T, int Dim>
void OutputSnapshot<T, Dim>::allocate(const FieldAccess<T, Dim>& fields) {
  for (const auto& f : fields.all()) copy_for(f.name, *f.field);
}

template <class T, int Dim>
std::vector<io::NamedField<T, Dim>> OutputSnapshot<T, Dim>::take(const FieldAccess<T, Dim>& fields) {
  const StreamHandle run_stream = fields.stream();
  std::vector<io::NamedField<T, Dim>> out;
  std::vector<std::pair<Copy*, const mesh::Field<T, Dim>*>> from_device;
  for (const auto& f : fields.all()) {
    Copy& c = copy_for(f.name, *f.field);
    out.push_back({f.name, &c.host});
    if (f.field->space() == mesh::MemorySpace::host) c.host.copy_from(*f.field);
    else from_device.emplace_back(&c, f.field);
  }
  m_pending_device_copy = !from_device.empty();
  if (from_device.empty()) return out;
  // On the run's stream: the device copies (and the host copies of fields without one); then,
  // on the copy stream once those are done, the host copies of the device copies.
  for (auto& [c, field] : from_device) {
    if (c->on_device)
      mesh::copy_bytes_async(c->on_device->allocation(), mesh::MemorySpace::device, field->allocation(),
                             mesh::MemorySpace::device, field->allocated_bytes(), run_stream);
    else
      mesh::copy_bytes_async(c->host.allocation(), mesh::MemorySpace::host, field->allocation(), mesh::MemorySpace::device,
                             field->allocated_bytes(), run_stream);
  }
  m_staged->record(run_stream);
  m_staged->make_wait(m_copy_stream->get());
  for (auto& [c, field] : from_device)
    if (c->on_device)
      mesh::copy_bytes_async(c->host.allocation(), mesh::MemorySpace::host, c->on_device->allocation(),
                             mesh::MemorySpace::device, field->allocated_bytes(), m_copy_stream->get());
  m_copied->record(m_copy_stream->get());
  return out;
}

template <class T, int Dim>
void OutputSnapshot<T, Dim>::wait_until_copied() const {
  if (!m_pending_device_copy) return;
  mesh::select_gpu(m_device);  // the calling thread's current device
  m_copied->synchronize();
}

template class OutputSnapshot<float, 2>;
template class OutputSnapshot<double, 2>;
template class OutputSnapshot<float, 3>;
template class OutputSnapshot<double, 3>;

}  // namespace gridflow::app
