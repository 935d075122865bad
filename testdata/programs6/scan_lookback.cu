// A single-pass inclusive prefix sum over 1M 64-bit integers with
// decoupled look-back: dynamic tile ids from atomicAdd, per-tile status
// words (flag in the top bits, value below) published with __threadfence
// and volatile stores, predecessors polled with volatile loads; a block scan
// of warp scans inside each tile.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS)
#define FLAG_NONE 0ull
#define FLAG_AGG 1ull
#define FLAG_PREFIX 2ull
#define VAL_MASK ((1ull << 62) - 1)

__device__ unsigned int tileCounter;

__device__ unsigned long long warpInclusive(unsigned long long v) {
  int lane = threadIdx.x & 31;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    unsigned long long t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  return v;
}

__global__ void scan_lookback(const unsigned* __restrict__ in, unsigned long long* __restrict__ out, volatile unsigned long long* status, int n) {
  __shared__ unsigned tileId;
  __shared__ unsigned long long warpTotals[THREADS / 32];
  __shared__ unsigned long long exclusivePrefix;
  if (threadIdx.x == 0) tileId = atomicAdd(&tileCounter, 1u);
  __syncthreads();
  unsigned tile = tileId;
  size_t base = (size_t)tile * TILE + threadIdx.x * ITEMS;
  unsigned long long items[ITEMS], run = 0;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) { items[i] = base + i < (size_t)n ? in[base + i] : 0; run += items[i]; items[i] = run; }
  unsigned long long wincl = warpInclusive(run);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 31) warpTotals[warp] = wincl;
  __syncthreads();
  if (warp == 0) {
    unsigned long long t = lane < THREADS / 32 ? warpTotals[lane] : 0;
    t = warpInclusive(t);
    if (lane < THREADS / 32) warpTotals[lane] = t;
  }
  __syncthreads();
  unsigned long long tileTotal = warpTotals[THREADS / 32 - 1];
  if (threadIdx.x == 0) {
    if (tile == 0) {
      status[0] = (FLAG_PREFIX << 62) | tileTotal;
      exclusivePrefix = 0;
    } else {
      status[tile] = (FLAG_AGG << 62) | tileTotal;
      __threadfence();
      unsigned long long excl = 0;
      int pred = tile - 1;
      while (true) {
        unsigned long long s;
        do { s = status[pred]; } while ((s >> 62) == FLAG_NONE);
        excl += s & VAL_MASK;
        if ((s >> 62) == FLAG_PREFIX) break;
        pred--;
      }
      exclusivePrefix = excl;
      __threadfence();
      status[tile] = (FLAG_PREFIX << 62) | (excl + tileTotal);
    }
  }
  __syncthreads();
  unsigned long long offset = exclusivePrefix + (warp > 0 ? warpTotals[warp - 1] : 0) + (wincl - run);
#pragma unroll
  for (int i = 0; i < ITEMS; i++) if (base + i < (size_t)n) out[base + i] = items[i] + offset;
}

int main() {
  const int n = (1 << 20) + 12345;
  unsigned* h = (unsigned*)malloc(n * 4);
  unsigned s = 424242u;
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; h[i] = s >> 8; }
  int tiles = (n + TILE - 1) / TILE;
  unsigned* in; unsigned long long *out, *status;
  CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&out, (size_t)n * 8)); CHECK(cudaMalloc(&status, tiles * 8));
  CHECK(cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice));
  unsigned long long* ho = (unsigned long long*)malloc((size_t)n * 8);
  for (int rep = 0; rep < 2; rep++) {
    unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(tileCounter, &zero, 4));
    CHECK(cudaMemset(status, 0, tiles * 8));
    CHECK(cudaMemset(out, 0, (size_t)n * 8));
    scan_lookback<<<tiles, THREADS>>>(in, out, status, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ho, out, (size_t)n * 8, cudaMemcpyDeviceToHost));
    unsigned long long ref = 0; int bad = 0, firstBad = -1;
    for (int i = 0; i < n; i++) { ref += h[i]; if (ho[i] != ref) { if (firstBad < 0) firstBad = i; bad++; } }
    unsigned counter;
    CHECK(cudaMemcpyFromSymbol(&counter, tileCounter, 4));
    printf("rep %d tiles %d counter %u mismatches %d first %d last %llu out[1000] %llu out[2048] %llu\n", rep, tiles, counter, bad, firstBad, ho[n - 1], ho[1000], ho[2048]);
  }
  return 0;
}
