#include "app/output/insitu_whiten.hpp"

#include <vector>

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T>
InsituWhiten<T>::InsituWhiten(const mesh::Decomposition<2>& decomposition, FilterBlock<2> block, StreamHandle stream)
    : m_decomposition(decomposition), m_block(std::move(block)), m_stream(stream) {}

template <class T>
InsituWhiten<T>::~InsituWhiten() = default;

template <class T>
void InsituWhiten<T>::plan(mesh::MemorySpace space) {
  const auto& d = m_decomposition;
  const mesh::Box<2> whole = d.grid().points();
  std::vector<mesh::Box<2>> parts, gathered;
  mesh::Box<2> none;
  none.lo = {0, 0};
  none.hi = {-1, -1};
  for (int r = 0; r < d.size(); ++r) {
    parts.push_back(d.owned_by(r));
    gathered.push_back(r == 0 ? whole : none);
  }
  const StreamHandle stream = space == mesh::MemorySpace::device ? m_stream : nullptr;
  m_gather = std::make_unique<halo::BoxRedistribution<T, 2>>(d.comm(), parts, gathered, space, stream);
  m_scatter = std::make_unique<halo::BoxRedistribution<T, 2>>(d.comm(), gathered, parts, space, stream);
  if (d.rank() == 0) {
    m_frame = std::make_unique<mesh::Field<T, 2>>(whole, 0, space, m_block.name + "_frame");
    m_whitened = std::make_unique<mesh::Field<T, 2>>(whole, 0, space, m_block.name + "_whitened");
    m_whitener = std::make_unique<kernels::filter::Whitener<T>>(static_cast<int>(whole.extent(1)), static_cast<int>(whole.extent(0)),
                                                                m_block.whiten, space);
  }
  m_output = std::make_unique<mesh::Field<T, 2>>(d.owned(), 0, space, m_block.name);
  m_space = space;
  m_planned = true;
}

template <class T>
const mesh::Field<T, 2>& InsituWhiten<T>::apply(const mesh::Field<T, 2>& source) {
  GRIDFLOW_REQUIRE(source.owned() == m_decomposition.owned(),
                   "filter '" + m_block.name + "': field '" + m_block.field + "' is not on this rank's box");
  if (!m_planned) plan(source.space());
  const mesh::Field<T, 2>* frame_part = &source;
  if (source.space() != m_space) {  // step 0 held in host memory while a tuning chose the device, or back
    if (!m_staged || !m_staged->same_layout(source))
      m_staged = std::make_unique<mesh::Field<T, 2>>(source.owned(), source.ghost_width(), m_space, m_block.name + "_staged");
    m_staged->copy_from(source);
    frame_part = m_staged.get();
  }
  const StreamHandle stream = m_space == mesh::MemorySpace::device ? m_stream : nullptr;
  m_gather->apply(frame_part, m_frame.get());
  if (m_whitener) m_whitener->push(*m_frame, *m_whitened, stream);
  else ++m_frames;
  m_scatter->apply(m_whitened.get(), m_output.get());
  if (m_space == mesh::MemorySpace::host) return *m_output;
  if (!m_host_result) m_host_result = std::make_unique<mesh::Field<T, 2>>(m_output->owned(), 0, mesh::MemorySpace::host, m_block.name + "_host");
  m_host_result->copy_from(*m_output);  // waits for the work queued on the device
  return *m_host_result;
}

template class InsituWhiten<float>;
template class InsituWhiten<double>;

}  // namespace gridflow::app
