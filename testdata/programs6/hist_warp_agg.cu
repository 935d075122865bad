// Histograms with warp aggregation: shared-memory atomicAdd privatized per
// block, lanes with the same bin found by __match_any_sync (the leader,
// lowest lane, adds __popc of its group), __activemask in a divergent
// branch; the same through cooperative_groups::labeled_partition and
// cg::reduce, and a coalesced_threads() atomic aggregation.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define BINS 64

__global__ void hist_match(const unsigned char* data, int n, unsigned* hist, unsigned* leaderCount) {
  __shared__ unsigned sh[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned bin = data[i] % BINS;
    if (bin & 1) {  // divergent: only odd bins aggregate here
      unsigned active = __activemask();
      unsigned peers = __match_any_sync(active, bin);
      int leader = __ffs(peers) - 1;
      if ((threadIdx.x & 31) == leader) { atomicAdd(&sh[bin], __popc(peers)); atomicAdd(leaderCount, 1u); }
    } else {
      atomicAdd(&sh[bin], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) atomicAdd(&hist[i], sh[i]);
}

__global__ void hist_labeled(const unsigned char* data, int n, unsigned* hist, unsigned* groupSizes, int* weighted) {
  __shared__ unsigned sh[BINS];
  for (int i = threadIdx.x; i < BINS; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned bin = i < n ? data[i] % BINS : BINS;  // out-of-range lanes form their own group
  cg::coalesced_group g = cg::labeled_partition(warp, bin);
  int weight = i < n ? (int)data[i] - 128 : 0;
  int gsum = cg::reduce(g, weight, cg::plus<int>());
  int gmax = cg::reduce(g, weight, cg::greater<int>());
  if (g.thread_rank() == 0 && bin < BINS) {
    atomicAdd(&sh[bin], g.size());
    atomicAdd(&groupSizes[g.size()], 1u);
    atomicAdd(&weighted[bin], gsum);
    atomicMax(&weighted[BINS + bin], gmax);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < BINS; k += blockDim.x) atomicAdd(&hist[k], sh[k]);
}

// warp-aggregated atomic increment of a global counter (filter compaction)
__global__ void compact_positive(const int* in, int n, int* out, int* counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base;
    if (g.thread_rank() == 0) base = atomicAdd(counter, g.size());
    base = g.shfl(base, 0);
    out[base + g.thread_rank()] = in[i];
  }
}

static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int n = 100000;
  unsigned char* h = (unsigned char*)malloc(n);
  unsigned s = 5u;
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; h[i] = (i % 3 == 0) ? 7 : (unsigned char)(s >> 24) % (8 + (i / 1000) % 120); }
  unsigned char* d; unsigned *hist, *lc, *gs; int* wt;
  CHECK(cudaMalloc(&d, n)); CHECK(cudaMalloc(&hist, BINS * 4)); CHECK(cudaMalloc(&lc, 4)); CHECK(cudaMalloc(&gs, 33 * 4)); CHECK(cudaMalloc(&wt, 2 * BINS * 4));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(hist, 0, BINS * 4)); CHECK(cudaMemset(lc, 0, 4));
  hist_match<<<40, 256>>>(d, n, hist, lc);
  unsigned hh[BINS], hlc, hgs[33]; int hw[2 * BINS];
  CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&hlc, lc, 4, cudaMemcpyDeviceToHost));
  unsigned ref[BINS] = {0};
  for (int i = 0; i < n; i++) ref[h[i] % BINS]++;
  int ok = 1; for (int b = 0; b < BINS; b++) if (ref[b] != hh[b]) ok = 0;
  printf("match: ok %d leaders %u fnv %08x bins 7:%u 8:%u 63:%u\n", ok, hlc, fnv(hh, sizeof hh), hh[7], hh[8], hh[63]);
  CHECK(cudaMemset(hist, 0, BINS * 4)); CHECK(cudaMemset(gs, 0, 33 * 4)); CHECK(cudaMemset(wt, 0, BINS * 4));
  int minus[BINS]; for (int b = 0; b < BINS; b++) minus[b] = -1000;
  CHECK(cudaMemcpy(wt + BINS, minus, sizeof minus, cudaMemcpyHostToDevice));
  hist_labeled<<<(n + 127) / 128, 128>>>(d, n, hist, gs, wt);
  CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hgs, gs, sizeof hgs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hw, wt, sizeof hw, cudaMemcpyDeviceToHost));
  ok = 1; for (int b = 0; b < BINS; b++) if (ref[b] != hh[b]) ok = 0;
  printf("labeled: ok %d fnv %08x sizes", ok, fnv(hh, sizeof hh));
  for (int k = 1; k <= 32; k++) if (hgs[k]) printf(" %d:%u", k, hgs[k]);
  printf("\nweighted fnv %08x sum7 %d max7 %d sum0 %d max63 %d\n", fnv(hw, sizeof hw), hw[7], hw[BINS + 7], hw[0], hw[BINS + 63]);
  int* hi = (int*)malloc(n * 4);
  for (int i = 0; i < n; i++) hi[i] = (int)h[i] - 60;
  int *din, *dout, *cnt;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&cnt, 4));
  CHECK(cudaMemcpy(din, hi, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemset(cnt, 0, 4));
  compact_positive<<<(n + 255) / 256, 256>>>(din, n, dout, cnt);
  int hc;
  CHECK(cudaMemcpy(&hc, cnt, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hi, dout, hc * 4, cudaMemcpyDeviceToHost));
  long long sum = 0; for (int i = 0; i < hc; i++) sum += hi[i];
  printf("compacted %d sum %lld\n", hc, sum);
  return 0;
}
