#pragma once
// BENCH_CUFFT_CHECK(call): the benchmark drivers' check of a cuFFT call; a failure throws
// gridflow::Error naming the call and its cufftResult.
#include <cufft.h>

#include <string>

#include "mesh/check.hpp"

#define BENCH_CUFFT_CHECK(call)                                                                             \
  do {                                                                                                      \
    const cufftResult rc_ = (call);                                                                         \
    if (rc_ != CUFFT_SUCCESS) throw ::gridflow::Error(std::string(#call) + " failed: cufftResult " + std::to_string(rc_)); \
  } while (0)
