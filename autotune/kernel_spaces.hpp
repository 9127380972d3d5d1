#pragma once
// The search spaces of the CUDA stencil kernels' tunables, and the conversions between a point of
// such a space (autotune::Configuration) and the kernel's parameter struct. The spaces' defaults
// are the parameter structs' defaults, so an untuned run and a tuned run start alike.
#include <cstddef>

#include "autotune/configuration.hpp"
#include "autotune/search_space.hpp"
#include "kernels/stencil/heat_params.hpp"
#include "kernels/stencil/jacobi_params.hpp"

namespace gridflow::autotune {

/// block_x {32,64,128,256} x block_y {1,2,4,8,16} x cells_per_thread {1,2,4,8} x fused_steps
/// {1,2,4,8,16} up to `max_fused_steps` (default 1: the steps one launch takes, which heat_steps
/// takes as an argument, not from HeatCudaParams) x stream_cells_x {0 (tile kernel), 2, 4, 8} x
/// segment_rows {64,128,256,512}; block_x*block_y <= 1024; the streaming kernel only for fused
/// steps and with the default block shape (which only single steps use), segment_rows only with it;
/// and fused steps that the launch takes with values of `value_bytes` (fits_shared_memory).
/// `streaming` false: the tile kernel's space alone, without stream_cells_x and segment_rows.
autotune::SearchSpace heat_cuda_space(std::size_t value_bytes, int max_fused_steps = 16, bool streaming = true);
/// block_x {32,64,128,256} x block_y {1,2,4,8} x cells_z {1,2,4,8,16} x shared_tile {0,1} x
/// cells_x {1,2,4}; block_x*block_y <= 1024, the shared tile only with cells_x = 1, and, with the shared tile, (block_x+2)(block_y+2) values of
/// `value_bytes` each within 48 KiB (the static shared-memory limit of a launch). With
/// `max_fused_sweeps` > 1 also the variant fused_steps {1,2,3,4,8} up to it (sweeps per launch,
/// default 1), block_y 16, and the fused tile's cells_y {1,2,4} and chunk_z {32,64,128,256};
/// each variant keeps the parameters it ignores at their defaults, and a fused configuration
/// satisfies JacobiCudaParams::fits_sweeps.
autotune::SearchSpace jacobi_cuda_space(std::size_t value_bytes, int max_fused_sweeps = 1);

/// Reads the launch shape of heat_cuda_space() from `c` (others, fused_steps among them, are
/// ignored; stream_cells_x and segment_rows keep their defaults where `c` lacks them); throws
/// gridflow::Error when another one is missing.
kernels::stencil::HeatCudaParams heat_cuda_params(const autotune::Configuration& c);
/// Writes the launch shape into `c` (not fused_steps), the streaming kernel's parameters included.
void set_heat_cuda_params(autotune::Configuration& c, const kernels::stencil::HeatCudaParams& p);

/// Reads the launch shape of jacobi_cuda_space() from `c` (cells_y and chunk_z where `c` has them;
/// fused_steps is the solver's); throws gridflow::Error when another is missing.
kernels::stencil::JacobiCudaParams jacobi_cuda_params(const autotune::Configuration& c);
/// Writes the launch shape into `c` (cells_y and chunk_z only where `c` has them).
void set_jacobi_cuda_params(autotune::Configuration& c, const kernels::stencil::JacobiCudaParams& p);

}  // namespace gridflow::autotune
