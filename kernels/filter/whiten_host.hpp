#pragma once
// The CPU reference of the whitening filter (the oracle of the CUDA variant): serial loops over
// the pixels, every sum in double, the ridge system solved by Cholesky.
#include <vector>

#include "kernels/filter/whiten_frame.hpp"

namespace gridflow::kernels::filter {

/// Whitens one frame as whiten.hpp describes; host memory, blocks.
template <class T>
void whiten_frame_host(const WhitenFrame<T>& job, const WhitenParams& params);

/// Solves (A + ridge * mean(diag A) * I) x = b in place of b, A symmetric n x n (row-major, only
/// its lower triangle read). A matrix that is not positive definite even with the ridge (a zero
/// frame) gives x = 0.
void whiten_solve_ridge(std::vector<double> a, std::vector<double>& b, int n, double ridge);

}  // namespace gridflow::kernels::filter
