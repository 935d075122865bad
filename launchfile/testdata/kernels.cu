// Kernels for the launchfile and `warpsim run` tests (a copy of
// cmd/warpsim/testdata/run/kernels.cu). kernels.ptx is generated from this
// file by cmd/warpsim/testdata/run/gen.sh (clang-22 with warpsim's CUDA headers).
#include <cuda_runtime.h>
#include <cstdio>

extern "C" __global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// A C++ kernel: its PTX name is mangled (_Z5scalePffi).
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

extern "C" __global__ void hello(int base) {
  printf("hello from thread %d of block %d: %5.2f %s\n", threadIdx.x, blockIdx.x, base + threadIdx.x * 0.5, "ok");
}

__constant__ float coeff[2];
__device__ int *target;

// poly applies coeff[0] + coeff[1]*x and stores its count through a pointer global.
extern "C" __global__ void poly(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = coeff[0] + coeff[1] * x[i];
  if (i == 0) *target = n;
}

// oob writes far past the end of its buffer.
extern "C" __global__ void oob(int *p) { p[threadIdx.x + (1 << 24)] = 1; }

// spin never ends while *flag is 0.
extern "C" __global__ void spin(volatile int *flag) {
  while (*flag == 0) {
  }
}
