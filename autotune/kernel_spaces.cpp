#include "autotune/kernel_spaces.hpp"

#include <vector>

namespace gridflow::autotune {

namespace {
constexpr int max_threads_per_block = 1024;
constexpr std::size_t max_static_shared_bytes = 48 * 1024;

bool threads_fit(const autotune::Configuration& c) {
  return c.at("block_x") * c.at("block_y") <= max_threads_per_block;
}
}  // namespace

autotune::SearchSpace heat_cuda_space(std::size_t value_bytes, int max_fused_steps, bool streaming) {
  const kernels::stencil::HeatCudaParams d;
  constexpr int one_step = 1;  // the default: legal everywhere (any ghost width)
  std::vector<int> fused;
  for (const int k : {1, 2, 4, 8, 16})
    if (k <= max_fused_steps) fused.push_back(k);
  autotune::SearchSpace space;
  space.add(autotune::Parameter::integers("block_x", {32, 64, 128, 256}, d.block_x))
      .add(autotune::Parameter::integers("block_y", {1, 2, 4, 8, 16}, d.block_y))
      .add(autotune::Parameter::integers("cells_per_thread", {1, 2, 4, 8}, d.cells_per_thread))
      .add(autotune::Parameter::integers("fused_steps", fused, one_step).variant())
      .require("block_x*block_y <= 1024", threads_fit)
      .require("fused steps within the tile's shared memory or the streaming kernel's depth",
               [value_bytes](const autotune::Configuration& c) {
                 const auto p = heat_cuda_params(c);
                 return p.valid() && p.fits_shared_memory(c.at("fused_steps"), value_bytes);
               });
  if (!streaming) return space;
  const auto streams = [](const autotune::Configuration& c) { return c.at("stream_cells_x") > 0; };
  space.add(autotune::Parameter::integers("stream_cells_x", {0, 2, 4, 8}, d.stream_cells_x).variant())
      .add(autotune::Parameter::integers("segment_rows", {64, 128, 256, 512}, d.segment_rows))
      .require("the streaming kernel only for fused steps, with the default block shape for single ones",
               [d, streams](const autotune::Configuration& c) {
                 return !streams(c) || (c.at("fused_steps") > 1 && c.at("block_x") == d.block_x &&
                                        c.at("block_y") == d.block_y && c.at("cells_per_thread") == d.cells_per_thread);
               })
      .require("segment_rows only for the streaming kernel",
               [d, streams](const autotune::Configuration& c) { return streams(c) || c.at("segment_rows") == d.segment_rows; });
  return space;
}

autotune::SearchSpace jacobi_cuda_space(std::size_t value_bytes, int max_fused_sweeps) {
  const kernels::stencil::JacobiCudaParams d;
  const bool fuses = max_fused_sweeps > 1;
  std::vector<int> block_y{1, 2, 4, 8};
  if (fuses) {  // tall fused tiles; 32: a row a thread (the rows kernel's best float shape at 3 sweeps)
    block_y.push_back(16);
    block_y.push_back(32);
  }
  autotune::SearchSpace space;
  space.add(autotune::Parameter::integers("block_x", {32, 64, 128, 256}, d.block_x))
      .add(autotune::Parameter::integers("block_y", block_y, d.block_y))
      .add(autotune::Parameter::integers("cells_z", {1, 2, 4, 8, 16}, d.cells_z))
      .add(autotune::Parameter::boolean("shared_tile", d.shared_tile).variant())
      .add(autotune::Parameter::integers("cells_x", {1, 2, 4}, d.cells_x))
      .require("block_x*block_y <= 1024", threads_fit)
      .require("shared_tile needs cells_x = 1",
               [](const autotune::Configuration& c) { return c.at("shared_tile") == 0 || c.at("cells_x") == 1; })
      .require("shared_tile: (block_x+2)*(block_y+2) values <= 48 KiB", [value_bytes](const autotune::Configuration& c) {
        const auto tile = static_cast<std::size_t>((c.at("block_x") + 2) * (c.at("block_y") + 2));
        return c.at("shared_tile") == 0 || tile * value_bytes <= max_static_shared_bytes;
      });
  if (!fuses) return space;
  std::vector<int> sweeps;
  for (const int k : {1, 2, 3, 4, 8})
    if (k <= max_fused_sweeps) sweeps.push_back(k);
  constexpr int one_sweep = 1;  // the default: legal at every ghost width
  space.add(autotune::Parameter::integers("fused_steps", sweeps, one_sweep).variant())
      .add(autotune::Parameter::integers("cells_y", {1, 2, 4}, d.cells_y))
      .add(autotune::Parameter::integers("chunk_z", {32, 64, 128, 256}, d.chunk_z))
      // Each variant leaves the other's parameters at their defaults, which it ignores.
      .require("one sweep per launch ignores cells_y and chunk_z",
               [d](const autotune::Configuration& c) {
                 return c.at("fused_steps") > 1 || (c.at("cells_y") == d.cells_y && c.at("chunk_z") == d.chunk_z);
               })
      .require("fused sweeps ignore cells_z, shared_tile and cells_x",
               [d](const autotune::Configuration& c) {
                 return c.at("fused_steps") == 1 ||
                        (c.at("cells_z") == d.cells_z && c.at("shared_tile") == 0 && c.at("cells_x") == d.cells_x);
               })
      .require("fused tile wider and taller than its rims, within the fused shared memory",
               [value_bytes](const autotune::Configuration& c) {
                 return jacobi_cuda_params(c).fits_sweeps(c.at("fused_steps"), value_bytes);
               });
  return space;
}

kernels::stencil::HeatCudaParams heat_cuda_params(const autotune::Configuration& c) {
  kernels::stencil::HeatCudaParams p;
  p.block_x = c.at("block_x");
  p.block_y = c.at("block_y");
  p.cells_per_thread = c.at("cells_per_thread");
  if (c.has("stream_cells_x")) p.stream_cells_x = c.at("stream_cells_x");
  if (c.has("segment_rows")) p.segment_rows = c.at("segment_rows");
  return p;
}

void set_heat_cuda_params(autotune::Configuration& c, const kernels::stencil::HeatCudaParams& p) {
  c.set("block_x", p.block_x);
  c.set("block_y", p.block_y);
  c.set("cells_per_thread", p.cells_per_thread);
  c.set("stream_cells_x", p.stream_cells_x);
  c.set("segment_rows", p.segment_rows);
}

kernels::stencil::JacobiCudaParams jacobi_cuda_params(const autotune::Configuration& c) {
  kernels::stencil::JacobiCudaParams p;
  p.block_x = c.at("block_x");
  p.block_y = c.at("block_y");
  p.cells_z = c.at("cells_z");
  p.shared_tile = c.at("shared_tile") != 0;
  p.cells_x = c.at("cells_x");
  if (c.has("cells_y")) p.cells_y = c.at("cells_y");
  if (c.has("chunk_z")) p.chunk_z = c.at("chunk_z");
  return p;
}

void set_jacobi_cuda_params(autotune::Configuration& c, const kernels::stencil::JacobiCudaParams& p) {
  c.set("block_x", p.block_x);
  c.set("block_y", p.block_y);
  c.set("cells_z", p.cells_z);
  c.set("shared_tile", p.shared_tile ? 1 : 0);
  c.set("cells_x", p.cells_x);
  if (c.has("cells_y")) c.set("cells_y", p.cells_y);
  if (c.has("chunk_z")) c.set("chunk_z", p.chunk_z);
}

}  // namespace gridflow::autotune
