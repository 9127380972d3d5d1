#include "mesh/device.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <utility>

#include "gridflow/config.hpp"
#include "mesh/check.hpp"

#if GRIDFLOW_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gridflow::mesh {

namespace {
constexpr std::size_t host_alignment = 128;
}  // namespace

#if GRIDFLOW_HAVE_CUDA
namespace {
cudaMemcpyKind copy_kind(MemorySpace dst, MemorySpace src) {
  if (dst == MemorySpace::device) return src == MemorySpace::device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  return src == MemorySpace::device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost;
}
}  // namespace

int gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: not an error for a CPU run
    return 0;
  }
  return n;
}
bool gpu_available() { return gpu_count() > 0; }
void select_gpu(int device) { GRIDFLOW_CUDA_CHECK(cudaSetDevice(device)); }
std::string current_gpu_description() {
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  GRIDFLOW_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
}
std::size_t free_gpu_bytes() {
  std::size_t free = 0, total = 0;
  GRIDFLOW_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

Buffer::Buffer(std::size_t bytes, MemorySpace space, bool pinned)
    : m_bytes(bytes), m_space(space), m_pinned(pinned && space == MemorySpace::host) {
  if (bytes == 0) return;
  if (space == MemorySpace::device) GRIDFLOW_CUDA_CHECK(cudaMalloc(&m_data, bytes));
  else if (m_pinned) GRIDFLOW_CUDA_CHECK(cudaMallocHost(&m_data, bytes));
  else m_data = ::operator new(bytes, std::align_val_t(host_alignment));
}
Buffer Buffer::on_stream(std::size_t bytes, StreamHandle stream) {
  Buffer b;
  b.m_bytes = bytes;
  b.m_space = MemorySpace::device;
  b.m_stream_ordered = true;
  b.m_stream = stream;
  if (bytes) GRIDFLOW_CUDA_CHECK(cudaMallocAsync(&b.m_data, bytes, stream));
  return b;
}
void Buffer::release() noexcept {
  if (!m_data) return;
  if (m_stream_ordered) cudaFreeAsync(m_data, m_stream);
  else if (m_space == MemorySpace::device) cudaFree(m_data);
  else if (m_pinned) cudaFreeHost(m_data);
  else ::operator delete(m_data, std::align_val_t(host_alignment));
  m_data = nullptr;
}

namespace {
// The blocking helpers' own stream on each device, so that not even they use the legacy default
// stream: made on first use on a device and kept for the life of the process.
StreamHandle blocking_work_stream() {
  static std::mutex mutex;
  static std::map<int, StreamHandle> streams;
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  StreamHandle& stream = streams[device];
  if (!stream) GRIDFLOW_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}
}  // namespace

void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_space == MemorySpace::host && src_space == MemorySpace::host) {  // no driver needed
    std::memcpy(dst, src, bytes);
    return;
  }
  // Our streams are non-blocking, so nothing orders this copy with their work but waiting for
  // the whole device first; waiting for the copy's own stream after it makes "blocks until done"
  // true also from pageable memory.
  GRIDFLOW_CUDA_CHECK(cudaDeviceSynchronize());
  const StreamHandle stream = blocking_work_stream();
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, copy_kind(dst_space, src_space), stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
}
void zero_device_bytes(void* dst, std::size_t bytes) {
  if (bytes == 0) return;
  const StreamHandle stream = blocking_work_stream();
  GRIDFLOW_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, stream));
  GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream));
}
void copy_bytes_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                      std::size_t bytes, StreamHandle stream) {
  if (bytes == 0) return;
  if (dst_space == MemorySpace::host && src_space == MemorySpace::host) {
    std::memcpy(dst, src, bytes);
    return;
  }
  GRIDFLOW_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, copy_kind(dst_space, src_space), stream));
}
void fill_device_bytes(void* dst, int value, std::size_t bytes, StreamHandle stream) {
  GRIDFLOW_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, stream));
}
void synchronize(StreamHandle stream) { GRIDFLOW_CUDA_CHECK(cudaStreamSynchronize(stream)); }

Stream::Stream(bool high_priority) {
  int least = 0, greatest = 0;
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  GRIDFLOW_CUDA_CHECK(cudaStreamCreateWithPriority(&m_stream, cudaStreamNonBlocking, high_priority ? greatest : least));
}
Stream::~Stream() {
  if (m_stream) cudaStreamDestroy(m_stream);
}

Event::Event() { GRIDFLOW_CUDA_CHECK(cudaEventCreate(&m_event)); }
Event::~Event() {
  if (m_event) cudaEventDestroy(m_event);
}
void Event::record(StreamHandle stream) { GRIDFLOW_CUDA_CHECK(cudaEventRecord(m_event, stream)); }
void Event::synchronize() const { GRIDFLOW_CUDA_CHECK(cudaEventSynchronize(m_event)); }
void Event::make_wait(StreamHandle stream) const { GRIDFLOW_CUDA_CHECK(cudaStreamWaitEvent(stream, m_event, 0)); }
float Event::elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0;
  GRIDFLOW_CUDA_CHECK(cudaEventElapsedTime(&ms, start.m_event,
                                           stop.m_event));
  return ms;
}

#else  // no CUDA: host memory only

namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw Error(std::string(what) + ": this gridflow was built without CUDA (configure with -DGRIDFLOW_CUDA=ON on a machine with nvcc)");
}
}  // namespace

int gpu_count() { return 0; }
bool gpu_available() { return false; }
void select_gpu(int) { no_cuda("selecting a GPU"); }
std::string current_gpu_description() { no_cuda("querying the GPU"); }
std::size_t free_gpu_bytes() { no_cuda("querying the GPU's memory"); }

Buffer::Buffer(std::size_t bytes, MemorySpace space, bool /*pinned*/) : m_bytes(bytes), m_space(space) {
  if (space == MemorySpace::device) no_cuda("allocating device memory");
  if (bytes) m_data = ::operator new(bytes, std::align_val_t(host_alignment));
}
Buffer Buffer::on_stream(std::size_t, StreamHandle) { no_cuda("allocating device memory"); }
void Buffer::release() noexcept {
  if (m_data) ::operator delete(m_data, std::align_val_t(host_alignment));
  m_data = nullptr;
}
void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes) {
  if (dst_space == MemorySpace::device || src_space == MemorySpace::device) no_cuda("copying device memory");
  if (bytes) std::memcpy(dst, src, bytes);
}
void copy_bytes_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                      std::size_t bytes, StreamHandle) {
  copy_bytes(dst, dst_space, src, src_space, bytes);
}
void fill_device_bytes(void*, int, std::size_t, StreamHandle) { no_cuda("filling device memory"); }
void zero_device_bytes(void*, std::size_t) { no_cuda("filling device memory"); }
void synchronize(StreamHandle) {}
Stream::Stream(bool) { no_cuda("creating a stream"); }
Stream::~Stream() = default;
Event::Event() { no_cuda("creating an event"); }
Event::~Event() = default;
void Event::record(StreamHandle) { no_cuda("recording an event"); }
void Event::synchronize() const {}
void Event::make_wait(StreamHandle) const { no_cuda("waiting on an event"); }
float Event::elapsed_ms(const Event&, const Event&) { no_cuda("timing events"); }

#endif

Buffer::Buffer(Buffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_bytes(std::exchange(other.m_bytes, 0)),
      m_space(other.m_space), m_pinned(other.m_pinned), m_stream_ordered(other.m_stream_ordered), m_stream(other.m_stream) {}
Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    m_data = std::exchange(other.m_data, nullptr);
    m_bytes = std::exchange(other.m_bytes, 0);
    m_space = other.m_space;
    m_pinned = other.m_pinned;
    m_stream_ordered = other.m_stream_ordered;
    m_stream = other.m_stream;
  }
  return *this;
}
Buffer::~Buffer() { release(); }

Event::Event(Event&& o) noexcept : m_event(std::exchange(o.m_event, nullptr)) {}
Event& Event::operator=(Event&& o) noexcept {
  std::swap(m_event, o.m_event);
  return *this;
}

void DeviceIntervalTimer::start(StreamHandle stream) {
  if (m_used + 2 > 512) harvest();  // bound the events kept in flight
  if (m_used + 2 > m_events.size()) {
    m_events.emplace_back();
    m_events.emplace_back();
  }
  m_events[m_used].record(stream);
}
void DeviceIntervalTimer::stop(StreamHandle stream) {
  m_events[m_used + 1].record(stream);
  m_used += 2;
}
void DeviceIntervalTimer::harvest() {
  if (m_used == 0) return;
  m_events[m_used - 1].synchronize();
  for (std::size_t i = 0; i < m_used; i += 2) m_seconds += 1e-3 * Event::elapsed_ms(m_events[i], m_events[i + 1]);
  m_used = 0;
}
double DeviceIntervalTimer::seconds() {
  harvest();
  return m_seconds;
}

}  // namespace gridflow::mesh
