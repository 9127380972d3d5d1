#include "kernels/filter/whiten.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "kernels/core/space_dispatch.hpp"
#include "kernels/filter/whiten_cuda.hpp"
#include "kernels/filter/whiten_frame.hpp"
#include "kernels/filter/whiten_host.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::filter {

const char* to_string(WhitenWeights w) { return w == WhitenWeights::least_squares ? "least_squares" : "polynomial"; }

WhitenWeights parse_whiten_weights(const std::string& name) {
  if (name == "least_squares") return WhitenWeights::least_squares;
  if (name == "polynomial") return WhitenWeights::polynomial;
  throw InputError("whiten: weights '" + name + "' is not one of least_squares, polynomial");
}

namespace {

template <class V>
[[noreturn]] void reject(const char* field, const char* rule, V value) {
  std::ostringstream os;
  os << "whiten: " << field << " must be " << rule << " (got " << value << ")";
  throw InputError(os.str());
}

}  // namespace

void validate(const WhitenParams& p) {
  if (p.memory < 1 || p.memory > max_whiten_memory) reject("memory", "in 1..64", p.memory);
  if (!std::isfinite(p.ridge) || p.ridge < 0.0) reject("ridge", ">= 0 and finite", p.ridge);
  if (!std::isfinite(p.tolerance_px) || p.tolerance_px <= 0.0) reject("tolerance_px", "> 0 and finite", p.tolerance_px);
  if (p.max_refinements < 1 || p.max_refinements > 100) reject("max_refinements", "in 1..100", p.max_refinements);
  if (p.weights != WhitenWeights::least_squares && p.weights != WhitenWeights::polynomial)
    reject("weights", "least_squares or polynomial", static_cast<int>(p.weights));
  if (p.weights == WhitenWeights::polynomial && (p.degree < 0 || p.degree > max_whiten_degree))
    reject("degree", "in 0..4", p.degree);
}

template <class T>
struct Whitener<T>::State {
  // Host: vectors. Device: the same roles in device buffers (work holds the weights, pair
  // shifts, anchor, products and the CUDA variant's sums; counters its block counters).
  std::vector<T> host_ring, host_registered, host_reference;
  std::vector<double> host_history, host_products;
  std::vector<int> host_refinements;
  std::vector<double> host_weights, host_pair_shift, host_anchor;
  mesh::Buffer ring, registered, reference, history, refinements, work, counters;
  long long capacity = 0;  // frames the history holds
  int last_m = 0;          // predecessors of the last frame
};

template <class T>
Whitener<T>::Whitener(int ny, int nx, const WhitenParams& params, mesh::MemorySpace space, WhitenTunables tunables)
    : m_ny(ny), m_nx(nx), m_params(params), m_tunables(tunables), m_space(space), m_state(std::make_unique<State>()) {
  validate(params);
  if (ny < 3 || nx < 3) {
    std::ostringstream os;
    os << "whiten: frames must be at least 3 x 3 pixels (got " << ny << " x " << nx << ")";
    throw InputError(os.str());
  }
  if (!tunables.valid()) {
    std::ostringstream os;
    os << "whiten: invalid tunables " << tunables
       << " (threads a multiple of 32 in 32..1024, blocks_per_sm 1..32, rows 4, 8 or 16)";
    throw Error(os.str());
  }
  const std::size_t frame_elems = static_cast<std::size_t>(ny) * nx;
  const std::size_t ring_elems = frame_elems * (params.memory + 1);
  auto& s = *m_state;
  const std::size_t slots = params.memory + 1;
  if (space == mesh::MemorySpace::host) {
    s.host_ring.assign(ring_elems, T(0));
    s.host_registered.assign(ring_elems, T(0));
    s.host_reference.assign(frame_elems, T(0));
    s.host_products.assign(slots * slots, 0.0);
    s.host_weights.assign(params.memory, 0.0);
    s.host_pair_shift.assign(2 * params.memory, 0.0);
    s.host_anchor.assign(3, 0.0);
    return;
  }
  if constexpr (!core::cuda_built) {
    core::throw_without_cuda("filter::whiten");
  } else {
    s.ring = mesh::Buffer(ring_elems * sizeof(T), space);
    s.registered = mesh::Buffer(ring_elems * sizeof(T), space);
    s.reference = mesh::Buffer(frame_elems * sizeof(T), space);
    s.work = mesh::Buffer(whiten_cuda_work_doubles(params.memory) * sizeof(double), space);
    s.counters = mesh::Buffer(whiten_cuda_counters * sizeof(unsigned), space);
    mesh::zero_device_bytes(s.work.data(), s.work.bytes());
    mesh::zero_device_bytes(s.counters.data(), s.counters.bytes());
  }
}

template <class T>
Whitener<T>::Whitener(Whitener&&) noexcept = default;
template <class T>
Whitener<T>& Whitener<T>::operator=(Whitener&&) noexcept = default;
template <class T>
Whitener<T>::~Whitener() = default;

template <class T>
void Whitener<T>::push(const T* frame, std::ptrdiff_t frame_pitch, T* out, std::ptrdiff_t out_pitch, StreamHandle stream) {
  if (frame == nullptr || out == nullptr) throw Error("whiten: push needs a frame and an output (got a null pointer)");
  if (frame_pitch < m_nx || out_pitch < m_nx) {
    std::ostringstream os;
    os << "whiten: row pitches must be at least nx = " << m_nx << " (got frame " << frame_pitch << ", out " << out_pitch << ")";
    throw Error(os.str());
  }
  auto& s = *m_state;
  const int slots = m_params.memory + 1;
  const std::size_t frame_elems = static_cast<std::size_t>(m_ny) * m_nx;
  const long long t = m_frames;
  WhitenFrame<T> job;
  job.ny = m_ny;
  job.nx = m_nx;
  job.frame = frame;
  job.frame_pitch = frame_pitch;
  job.out = out;
  job.out_pitch = out_pitch;
  job.t = t;
  job.m = static_cast<int>(std::min<long long>(t, m_params.memory));
  const bool host = m_space == mesh::MemorySpace::host;
  T* ring = host ? s.host_ring.data() : static_cast<T*>(s.ring.data());
  T* registered = host ? s.host_registered.data() : static_cast<T*>(s.registered.data());
  job.ring = slots;
  job.slot = static_cast<int>(t % slots);
  job.store = ring + frame_elems * static_cast<std::size_t>(job.slot);
  job.registered_store = registered + frame_elems * static_cast<std::size_t>(job.slot);
  job.reference = host ? s.host_reference.data() : static_cast<T*>(s.reference.data());
  for (int k = 0; k < job.m; ++k) {
    job.slots[k] = static_cast<int>((t - 1 - k) % slots);
    job.remembered[k] = ring + frame_elems * static_cast<std::size_t>(job.slots[k]);
    job.registered[k] = registered + frame_elems * static_cast<std::size_t>(job.slots[k]);
  }

  core::run_on_space(
      "filter::whiten", m_space, stream,
      [&] {
        s.host_history.resize(2 * (t + 1));
        s.host_refinements.resize(t + 1);
        job.history = s.host_history.data();
        job.refinements = s.host_refinements.data();
        job.weights = s.host_weights.data();
        job.pair_shift = s.host_pair_shift.data();
        job.products = s.host_products.data();
        job.anchor = s.host_anchor.data();
        whiten_frame_host(job, m_params);
      },
      [&](auto) {
        if (t + 1 > s.capacity) {  // grow the history, keeping what it holds (rare: doubling)
          const long long capacity = std::max<long long>(1024, 2 * s.capacity);
          mesh::Buffer history(2 * capacity * sizeof(double), mesh::MemorySpace::device);
          mesh::Buffer refinements(capacity * sizeof(int), mesh::MemorySpace::device);
          if (s.capacity > 0) {
            mesh::copy_bytes_async(history.data(), mesh::MemorySpace::device, s.history.data(), mesh::MemorySpace::device,
                                   2 * s.capacity * sizeof(double), stream);
            mesh::copy_bytes_async(refinements.data(), mesh::MemorySpace::device, s.refinements.data(),
                                   mesh::MemorySpace::device, s.capacity * sizeof(int), stream);
            mesh::synchronize(stream);
          }
          s.history = std::move(history);
          s.refinements = std::move(refinements);
          s.capacity = capacity;
        }
        job.history = static_cast<double*>(s.history.data());
        job.refinements = static_cast<int*>(s.refinements.data());
        launch_whiten_frame_cuda(job, m_params, m_tunables, static_cast<double*>(s.work.data()),
                                 static_cast<unsigned*>(s.counters.data()), stream);
      });
  s.last_m = job.m;
  ++m_frames;
}

template <class T>
void Whitener<T>::push(const mesh::Field<T, 2>& frame, mesh::Field<T, 2>& out, StreamHandle stream) {
  for (const auto* f : {&frame, static_cast<const mesh::Field<T, 2>*>(&out)}) {
    if (f->owned().extent(0) != m_nx || f->owned().extent(1) != m_ny || f->space() != m_space) {
      std::ostringstream os;
      os << "whiten: field '" << f->label() << "' owns " << f->owned().extent(1) << " x " << f->owned().extent(0) << " in "
         << mesh::to_string(f->space()) << " memory, the filter takes " << m_ny << " x " << m_nx << " frames in "
         << mesh::to_string(m_space) << " memory";
      throw Error(os.str());
    }
  }
  const auto lo = frame.owned().lo;
  const T* in = &frame.view()(lo[0], lo[1]);
  const auto olo = out.owned().lo;
  T* o = &out.view()(olo[0], olo[1]);
  push(in, frame.stride(1), o, out.stride(1), stream);
}

template <class T>
std::vector<WhitenShift> Whitener<T>::shifts() const {
  std::vector<double> raw(2 * m_frames);
  if (m_space == mesh::MemorySpace::host) raw = m_state->host_history;
  else if (m_frames > 0)
    mesh::copy_bytes(raw.data(), mesh::MemorySpace::host, m_state->history.data(), mesh::MemorySpace::device, raw.size() * sizeof(double));
  std::vector<WhitenShift> out(m_frames);
  for (long long t = 0; t < m_frames; ++t) out[t] = {raw[2 * t], raw[2 * t + 1]};
  return out;
}

template <class T>
std::vector<int> Whitener<T>::refinements() const {
  if (m_space == mesh::MemorySpace::host) return m_state->host_refinements;
  std::vector<int> out(m_frames);
  if (m_frames > 0)
    mesh::copy_bytes(out.data(), mesh::MemorySpace::host, m_state->refinements.data(), mesh::MemorySpace::device, out.size() * sizeof(int));
  return out;
}

template <class T>
long long Whitener<T>::anchor_moves() const {
  if (m_space == mesh::MemorySpace::host) return static_cast<long long>(m_state->host_anchor[2]);
  double anchor[3];
  mesh::copy_bytes(anchor, mesh::MemorySpace::host, whiten_cuda_anchor(static_cast<const double*>(m_state->work.data()), m_params.memory),
                   mesh::MemorySpace::device, sizeof anchor);
  return static_cast<long long>(anchor[2]);
}

template <class T>
std::vector<double> Whitener<T>::last_weights() const {
  const int m = m_state->last_m;
  std::vector<double> out(m);
  if (m == 0) return out;
  if (m_space == mesh::MemorySpace::host) return std::vector<double>(m_state->host_weights.begin(), m_state->host_weights.begin() + m);
  mesh::copy_bytes(out.data(), mesh::MemorySpace::host, whiten_cuda_weights(static_cast<const double*>(m_state->work.data()), m_params.memory),
                   mesh::MemorySpace::device, m * sizeof(double));
  return out;
}

template class Whitener<float>;
template class Whitener<double>;

}  // namespace gridflow::kernels::filter
