#include "app/filter/array_filter_run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>

#include "app/filter/chunk_progress.hpp"
#include "app/deck/filters_deck.hpp"
#include "autotune/filter_tuning.hpp"
#include "kernels/filter/correlate.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

namespace {

namespace kf = kernels::filter;
using mesh::Index;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr double host_budget_bytes = 1.0 * (1u << 30);  // per rank, without --buffer-mb
constexpr double device_budget_share = 0.5;             // of the GPU's free memory, without --buffer-mb

/// The dataset as a field of Dim axes: dataset axis a is field axis rank - 1 - a, so dataset axis 0
/// (the one split over ranks and chunks) is field axis `split`.
template <int Dim>
struct Layout {
  int rank = 0;
  int split = 0;
  std::array<Index, Dim> n{};  ///< field extents; 1 on axes the dataset lacks
  Index rows() const { return n[split]; }

  explicit Layout(const io::ArrayShape& s) : rank(s.rank()), split(s.rank() - 1) {
    for (int d = 0; d < Dim; ++d) n[d] = d < rank ? static_cast<Index>(s.extent[rank - 1 - d]) : 1;
  }
  /// The owned box of field rows c0..c1 along the split axis.
  mesh::Box<Dim> rows_box(Index c0, Index c1) const {
    mesh::Box<Dim> b;
    for (int d = 0; d < Dim; ++d) b.lo[d] = 0, b.hi[d] = n[d] - 1;
    b.lo[split] = c0;
    b.hi[split] = c1;
    return b;
  }
};

/// The first point of field row `row` (the other axes at their first owned index).
template <class T, int Dim>
T* row_start(mesh::Field<T, Dim>& f, int split, Index row) {
  std::array<Index, Dim> i{};
  i[split] = row;
  if constexpr (Dim == 2) return &f(i[0], i[1]);
  else return &f(i[0], i[1], i[2]);
}

/// `count` rows from dataset row `file_row` on, in the field's memory.
template <class T, int Dim>
io::ArrayBlock rows_block(const mesh::Field<T, Dim>& f, const Layout<Dim>& l, Index file_row, Index count) {
  io::ArrayBlock b;
  for (int a = 0; a < l.rank; ++a) {
    const int d = l.rank - 1 - a;
    b.start.push_back(static_cast<hsize_t>(a == 0 ? file_row : 0));
    b.count.push_back(static_cast<hsize_t>(a == 0 ? std::max<Index>(count, 0) : l.n[d]));
    b.pitch.push_back(static_cast<hsize_t>(f.stride(d)));
  }
  return b;
}

/// An empty block of the dataset's rank, for a rank with nothing to move in a collective step.
io::ArrayBlock empty_block(int rank) {
  return {std::vector<hsize_t>(rank, 0), std::vector<hsize_t>(rank, 0), std::vector<hsize_t>(rank, 1)};
}

/// Field rows field_row.. read from dataset rows file_row.. (count of them, maybe 0).
struct RowRun {
  Index field_row = 0, file_row = 0, count = 0;
};

/// The rows a..b a chunk reads, as dataset rows: in place, or for `wrap` (whose global box is
/// widened by the reach) rows below 0 and above N - 1 taken from the far end. Always three runs,
/// so every rank makes the same number of collective reads.
std::array<RowRun, 3> runs_for(Index a, Index b, Index rows, bool wrap) {
  auto run = [](Index lo, Index hi, Index shift) { return hi < lo ? RowRun{} : RowRun{lo, lo + shift, hi - lo + 1}; };
  if (!wrap) return {RowRun{}, run(a, b, 0), RowRun{}};
  return {run(a, std::min<Index>(b, -1), rows), run(std::max<Index>(a, 0), std::min(b, rows - 1), 0),
          run(std::max(a, rows), b, -rows)};
}

template <class T, int Dim>
FilterRunReport run_typed(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer, mesh::MemorySpace space,
                          MPI_Comm comm) {
  const auto start = Clock::now();
  int rank = 0, ranks = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  const Layout<Dim> l(reader.shape());
  const kf::FilterWeights<Dim> weights = field_weights<Dim>(request);
  const int reach = std::max(weights.lo_reach(l.split), weights.hi_reach(l.split));
  const bool wrap = request.boundary.mode == kf::BoundaryMode::wrap && reach > 0;
  // wrap on the split axis: the rows beyond each end are read from the far end as ghost values,
  // and the filter's global box takes them in, so no rank needs the others' rows.
  mesh::Box<Dim> global = l.rows_box(0, l.rows() - 1);
  if (wrap) global = global.grow(l.split, reach);
  kf::FilterPlan<T, Dim> plan(weights, request.boundary, global);
  const bool device = space == mesh::MemorySpace::device;
  double device_share = 0;  // of the GPU's free memory, per rank
  if (device) {
    // Ranks of a node may share its GPU (the filter allows it): each takes its share of what is free.
    MPI_Comm node;
    GRIDFLOW_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    int node_ranks = 1;
    GRIDFLOW_MPI_CHECK(MPI_Comm_size(node, &node_ranks));
    GRIDFLOW_MPI_CHECK(MPI_Comm_free(&node));
    device_share = device_budget_share * static_cast<double>(mesh::current_gpu_memory().free_bytes) / node_ranks;
  }
  // Chunk rows from the memory budget for a ghost width: in, out and the plan's two scratch
  // fields where it runs, in and out on the host beside a device run. The same on every rank.
  auto chunk_rows_for = [&](int ghost) {
    double row_bytes = sizeof(T);
    for (int d = 0; d < Dim; ++d)
      if (d != l.split) row_bytes *= static_cast<double>(l.n[d] + 2 * ghost + (d == 0 ? 128 / sizeof(T) : 0));
    const double given = request.arguments.buffer_mb * (1 << 20);
    auto rows_within = [&](double budget, int fields) {
      return std::max<Index>(1, static_cast<Index>(budget / (fields * row_bytes)) - 2 * ghost);
    };
    Index rows = rows_within(given > 0 ? given : host_budget_bytes, device ? 2 : 4);
    if (device) rows = std::min(rows, rows_within(given > 0 ? given : device_share, 4));
    long long chunk_rows = std::min<Index>(rows, std::max<Index>(1, (l.rows() + ranks - 1) / ranks));
    GRIDFLOW_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &chunk_rows, 1, MPI_LONG_LONG, MPI_MIN, comm));
    return static_cast<Index>(chunk_rows);
  };
  // The tuner times every rank on the first chunk's shape; the variant it chooses (the FFT one
  // reads whole tiles) sets the ghost rows each chunk reads, and so the chunk.
  const Index first_chunk = chunk_rows_for(reach);
  std::optional<mesh::Stream> stream;
  if (device) stream.emplace();
  const auto tuning = autotune::choose_filter_tunables(plan, l.rows_box(0, std::min(first_chunk, l.rows()) - 1), space,
                                                       device ? stream->get() : nullptr, decomposed_method(request.method, request.boundary.mode),
                                                       request.tuning, comm);
  FilterRunReport report;
  report.tuning = autotune::describe(tuning, space);
  plan.set_tunables(tuning.chosen);
  const int ghost = plan.reach();
  const Index chunk = ghost == reach ? first_chunk : chunk_rows_for(ghost);

  const Index lo = l.rows() * rank / ranks, hi = l.rows() * (rank + 1) / ranks - 1;
  long long steps = (hi - lo + 1 + chunk - 1) / chunk;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_LONG_LONG, MPI_MAX, comm));

  report.chunks = steps;
  report.chunk_rows = chunk;
  ChunkProgress progress(steps, rank == 0);
  T idle{};  // what a rank with nothing to move hands to a collective transfer
  for (long long step = 0; step < steps; ++step) {
    const Index c0 = lo + step * chunk, c1 = std::min(hi, c0 + chunk - 1);
    auto t = Clock::now();
    if (c1 < c0) {
      for (int k = 0; k < 3; ++k) reader.read(empty_block(l.rank), &idle);
      report.read += seconds_since(t);
      t = Clock::now();
      writer.write(empty_block(l.rank), &idle);
      report.write += seconds_since(t);
    } else {
      const mesh::Box<Dim> owned = l.rows_box(c0, c1);
      mesh::Field<T, Dim> in(owned, ghost, mesh::MemorySpace::host, "filter_in"), out(owned, 0, mesh::MemorySpace::host, "filter_out");
      t = Clock::now();  // the allocation counts in the total only
      const mesh::Box<Dim> reads = plan.read_box(owned);
      for (const RowRun& r : runs_for(reads.lo[l.split], reads.hi[l.split], l.rows(), wrap))
        reader.read(rows_block(in, l, r.file_row, r.count), r.count ? row_start(in, l.split, r.field_row) : &idle);
      report.read += seconds_since(t);
      if (device) {
        t = Clock::now();
        mesh::Field<T, Dim> device_in(owned, ghost, space, "filter_in"), device_out(owned, 0, space, "filter_out");
        device_in.copy_from(in);
        report.copy += seconds_since(t);
        t = Clock::now();
        plan.apply(device_in, device_out, owned, stream->get());
        mesh::synchronize(stream->get());
        report.filter += seconds_since(t);
        t = Clock::now();
        out.copy_from(device_out);
        report.copy += seconds_since(t);
      } else {
        t = Clock::now();
        plan.apply(in, out, owned, nullptr);
        report.filter += seconds_since(t);
      }
      t = Clock::now();
      writer.write(rows_block(out, l, c0, c1 - c0 + 1), row_start(out, l.split, c0));
      report.write += seconds_since(t);
    }
    progress.done(step + 1);
  }
  report.kernel_path = plan.path();
  report.total = seconds_since(start);
  return report;
}

}  // namespace

FilterRunReport run_array_filter(const FilterRequest& request, const io::ArrayReader& reader, io::ArrayWriter& writer,
                                 mesh::MemorySpace space, MPI_Comm comm) {
  const bool single = request.output_type() == io::ElementType::float32;
  if (reader.shape().rank() == 3)
    return single ? run_typed<float, 3>(request, reader, writer, space, comm) : run_typed<double, 3>(request, reader, writer, space, comm);
  return single ? run_typed<float, 2>(request, reader, writer, space, comm) : run_typed<double, 2>(request, reader, writer, space, comm);
}

}  // namespace gridflow::app
