// A hand-written LSD radix sort of 32-bit keys with values, 4 bits a pass:
// per-block digit histograms in shared memory, a column-major exclusive scan
// of all blocks' histograms (one block, Hillis-Steele in shared memory), and
// a stable scatter that ranks keys within a block by warp ballots.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define BITS 4
#define RADIX 16
#define BLOCK 256

__global__ void histogram(const unsigned* keys, unsigned* hist, int n, int shift) {
  __shared__ unsigned h[RADIX];
  if (threadIdx.x < RADIX) h[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) atomicAdd(&h[(keys[i] >> shift) & (RADIX - 1)], 1u);
  __syncthreads();
  if (threadIdx.x < RADIX) hist[threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];
}

// exclusive scan of m values in place, one block of 1024 threads, m <= 4096
__global__ void scan_hist(unsigned* data, int m) {
  __shared__ unsigned buf[2][4096];
  int per = (m + blockDim.x - 1) / blockDim.x;
  for (int k = 0; k < per; k++) { int i = threadIdx.x * per + k; buf[0][i] = i < m ? data[i] : 0; }
  // sequential within a thread, then Hillis-Steele over thread totals
  __shared__ unsigned tot[2][1024];
  unsigned s = 0;
  for (int k = 0; k < per; k++) s += buf[0][threadIdx.x * per + k];
  tot[0][threadIdx.x] = s;
  __syncthreads();
  int pin = 0;
  for (int off = 1; off < blockDim.x; off <<= 1) {
    unsigned v = tot[pin][threadIdx.x];
    if (threadIdx.x >= off) v += tot[pin][threadIdx.x - off];
    tot[1 - pin][threadIdx.x] = v;
    pin = 1 - pin;
    __syncthreads();
  }
  unsigned run = threadIdx.x ? tot[pin][threadIdx.x - 1] : 0;
  for (int k = 0; k < per; k++) { int i = threadIdx.x * per + k; if (i < m) { unsigned v = buf[0][i]; data[i] = run; run += v; } }
}

__global__ void scatter(const unsigned* keysIn, const unsigned* valsIn, unsigned* keysOut, unsigned* valsOut, const unsigned* offsets, int n, int shift) {
  __shared__ unsigned warpCounts[BLOCK / 32][RADIX];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  bool valid = i < n;
  unsigned key = valid ? keysIn[i] : 0xffffffffu;
  unsigned digit = (key >> shift) & (RADIX - 1);
  // rank among same-digit lanes of this warp with ballots on each bit
  unsigned same = __ballot_sync(0xffffffffu, valid);
  for (int b = 0; b < BITS; b++) {
    unsigned bal = __ballot_sync(0xffffffffu, (digit >> b) & 1);
    same &= ((digit >> b) & 1) ? bal : ~bal;
  }
  unsigned lowerMask = (1u << lane) - 1;
  unsigned rankInWarp = __popc(same & lowerMask);
  if (threadIdx.x < BLOCK / 32 * RADIX) (&warpCounts[0][0])[threadIdx.x] = 0;
  __syncthreads();
  if (valid && rankInWarp == 0) warpCounts[warp][digit] = __popc(same);
  __syncthreads();
  if (valid) {
    unsigned before = 0;
    for (int w = 0; w < warp; w++) before += warpCounts[w][digit];
    unsigned dst = offsets[digit * gridDim.x + blockIdx.x] + before + rankInWarp;
    keysOut[dst] = key;
    valsOut[dst] = valsIn[i];
  }
}

static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int n = 50000;
  const int blocks = (n + BLOCK - 1) / BLOCK;
  unsigned *hk = (unsigned*)malloc(n * 4), *hv = (unsigned*)malloc(n * 4);
  unsigned s = 77u;
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; hk[i] = (i % 5 == 0) ? (s & 0xff) : s; hv[i] = i; }
  unsigned *k0, *k1, *v0, *v1, *hist;
  CHECK(cudaMalloc(&k0, n * 4)); CHECK(cudaMalloc(&k1, n * 4)); CHECK(cudaMalloc(&v0, n * 4)); CHECK(cudaMalloc(&v1, n * 4));
  CHECK(cudaMalloc(&hist, RADIX * blocks * 4));
  CHECK(cudaMemcpy(k0, hk, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(v0, hv, n * 4, cudaMemcpyHostToDevice));
  for (int shift = 0; shift < 32; shift += BITS) {
    histogram<<<blocks, BLOCK>>>(k0, hist, n, shift);
    scan_hist<<<1, 1024>>>(hist, RADIX * blocks);
    scatter<<<blocks, BLOCK>>>(k0, v0, k1, v1, hist, n, shift);
    CHECK(cudaGetLastError());
    unsigned* t = k0; k0 = k1; k1 = t; t = v0; v0 = v1; v1 = t;
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hk, k0, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hv, v0, n * 4, cudaMemcpyDeviceToHost));
  int sorted = 1, stable = 1;
  for (int i = 1; i < n; i++) { if (hk[i - 1] > hk[i]) sorted = 0; if (hk[i - 1] == hk[i] && hv[i - 1] > hv[i]) stable = 0; }
  printf("sorted %d stable %d keys %08x vals %08x first %u/%u last %u/%u mid %u/%u\n", sorted, stable, fnv(hk, n * 4), fnv(hv, n * 4), hk[0], hv[0], hk[n - 1], hv[n - 1], hk[n / 2], hv[n / 2]);
  return 0;
}
