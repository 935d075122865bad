// mini.h: the few CUDA declarations the test programs need, for clang
// without a CUDA installation (-nocudainc). Not a CUDA header replacement.
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))

typedef unsigned long size_t;

#define TID_X __nvvm_read_ptx_sreg_tid_x()
#define TID_Y __nvvm_read_ptx_sreg_tid_y()
#define NTID_X __nvvm_read_ptx_sreg_ntid_x()
#define CTAID_X __nvvm_read_ptx_sreg_ctaid_x()
#define LANE __nvvm_read_ptx_sreg_laneid()

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, void *);

static __device__ inline void syncthreads() { __syncthreads(); }

struct dim3 {
	unsigned x, y, z;
	__host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;
extern "C" __host__ __device__ int cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t s = 0);
extern "C" __device__ void *cudaGetParameterBuffer(size_t align, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *func, void *params, dim3 grid, dim3 block, unsigned shmem, cudaStream_t s);
