// __constant__ memory with initializers and set from the launch file,
// module-scope __device__ variables, 3D grids and blocks (every special
// register of every thread), and grid-stride loops.
#include "wcuda.h"

__constant__ float coeffs[8] = {1.0f, -0.5f, 0.25f, 3.0f, -2.0f, 0.125f, 7.5f, 1e-3f};
__constant__ int table[16];
__constant__ double dcoef[2] = {0.1, -3.75};
__device__ int gcounter = 1000;
__device__ unsigned long long gmix[4] = {1ull, 0xffffffffffffffffull, 0x8000000000000000ull, 42ull};

extern "C" __global__ void ids3d(unsigned *out) {
  unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  unsigned block = (bz * gridDim.y + by) * gridDim.x + bx;
  unsigned thread = (tz * blockDim.y + ty) * blockDim.x + tx;
  unsigned g = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  unsigned lane, warp;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  unsigned *o = out + g * 14;
  o[0] = tx; o[1] = ty; o[2] = tz;
  o[3] = bx; o[4] = by; o[5] = bz;
  o[6] = blockDim.x; o[7] = blockDim.y; o[8] = blockDim.z;
  o[9] = gridDim.x; o[10] = gridDim.y; o[11] = gridDim.z;
  o[12] = lane;
  o[13] = thread / 32;  // %warpid is not deterministic; the warp index within the block is
  (void)warp;
}

extern "C" __global__ void grid_stride(const float *in, float *out, int *counts, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i] * coeffs[i & 7] + (float)table[i & 15] + (float)(dcoef[i & 1] * (double)in[i]);
    atomicAdd(&counts[blockIdx.x], 1);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    counts[gridDim.x] = gcounter;
    gcounter += 1;
    counts[gridDim.x + 1] = (int)(gmix[1] >> 40) ^ (int)gmix[2] ^ (int)gmix[3];
  }
}

extern "C" __global__ void read_globals(int *out) {
  int t = threadIdx.x;
  if (t < 16) out[t] = table[t];
  if (t == 16) out[t] = gcounter;
  if (t >= 17 && t < 25) out[t] = __float_as_int(coeffs[t - 17]);
}
