#pragma once
// GRIDFLOW_HOST_DEVICE marks point functions compiled for both the host oracle and CUDA kernels.
#if defined(__CUDACC__)
#define GRIDFLOW_HOST_DEVICE __host__ __device__
#else
#define GRIDFLOW_HOST_DEVICE
#endif

// The type of a cudaStream_t, without including CUDA headers: host code can hold and pass
// streams in a build without CUDA. nullptr is the legacy default stream.
struct CUstream_st;
struct CUevent_st;
namespace gridflow {
using StreamHandle = CUstream_st*;
}
