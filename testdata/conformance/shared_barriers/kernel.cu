// Shared memory (static arrays, dynamic extern, sub-word and 64-bit accesses,
// conflict-free and conflicting strides) and barriers with
// __syncthreads_count/and/or.
#include "wcuda.h"

extern __shared__ int dyn[];

extern "C" __global__ void reverse_static(const int *in, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = WCUDA_TID_X;
  s[t] = i < n ? in[i] : -1;
  __syncthreads();
  if (i < n) out[i] = s[blockDim.x - 1 - t];
}

// Tree reduction in dynamic shared memory; one sum per block.
extern "C" __global__ void reduce_dynamic(const int *in, int *sums, int n) {
  int t = threadIdx.x;
  int i = WCUDA_TID_X;
  dyn[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < (int)s) dyn[t] += dyn[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = dyn[0];
}

// A 32x32 tile transpose through shared memory, with and without padding
// (the unpadded one has 32-way bank conflicts); also strided reads.
extern "C" __global__ void transpose_tiles(const int *in, int *out, int *out_padded, int *strided, int n) {
  __shared__ int tile[32][32];
  __shared__ int padded[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int base = blockIdx.x * 1024;
  int v = in[(base + ty * 32 + tx) % n];
  tile[ty][tx] = v;
  padded[ty][tx] = v;
  __syncthreads();
  out[base + ty * 32 + tx] = tile[tx][ty];
  out_padded[base + ty * 32 + tx] = padded[tx][ty] ^ tile[(tx * 7) & 31][(ty * 3 + tx) & 31];
  int flat = ty * 32 + tx;
  strided[base + flat] = ((int *)tile)[(flat * 33) & 1023] + ((int *)tile)[(flat * 2) & 1023];
}

// Sub-word and 64-bit shared accesses aliasing one buffer.
extern "C" __global__ void subword(const int *in, unsigned *out, int n) {
  __shared__ unsigned long long w[64];
  unsigned char *b = (unsigned char *)w;
  unsigned short *h = (unsigned short *)w;
  int t = threadIdx.x;
  int i = WCUDA_TID_X;
  w[t] = 0;
  __syncthreads();
  int v = i < n ? in[i] : 0;
  b[t * 8 + (v & 7)] = (unsigned char)v;
  h[t * 4 + ((v >> 3) & 3)] ^= (unsigned short)(v >> 8);
  __syncthreads();
  unsigned long long x = w[(t * 5) & 63];
  if (i < n) {
    out[2 * i] = (unsigned)x;
    out[2 * i + 1] = (unsigned)(x >> 32) + b[(t * 13) & 511] + h[(t * 7) & 255];
  }
}

// Barrier reductions over predicates.
extern "C" __global__ void sync_preds(const int *in, int *out, int n) {
  int i = WCUDA_TID_X;
  int v = i < n ? in[i] : 0;
  int c = __syncthreads_count(v > 0);
  int a = __syncthreads_and(v != 0);
  int o = __syncthreads_or(v > 1000000000);
  int c2 = __syncthreads_count((v & 3) == 1);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 4 + 0] = c;
    out[blockIdx.x * 4 + 1] = a;
    out[blockIdx.x * 4 + 2] = o;
    out[blockIdx.x * 4 + 3] = c2;
  }
}

// Two-phase exchange with several barriers: each warp writes, the block
// rotates, warps read other warps' data; some threads exit early.
extern "C" __global__ void barrier_phases(const int *in, int *out, int n) {
  __shared__ int s[2][128];
  int t = threadIdx.x;
  int i = WCUDA_TID_X;
  int v = i < n ? in[i] : 0;
  s[0][t] = v;
  __syncthreads();
  for (int round = 0; round < 4; round++) {
    int src = s[round & 1][(t + 32 * (round + 1) + round) & 127];
    s[(round + 1) & 1][t] = src * 3 + round;
    __syncthreads();
  }
  if (i < n) out[i] = s[0][t];
}
