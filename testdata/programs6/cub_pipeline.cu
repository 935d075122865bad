// A CUB-heavy pipeline: a templated block kernel (BlockLoad, BlockRadixSort
// of pairs, BlockScan, BlockReduce, WarpReduce, BlockStore), then
// DeviceHistogram::HistogramEven, DeviceSegmentedRadixSort, DeviceSelect::
// Flagged and Unique, DevicePartition::If.
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

struct MaxOp { template <typename T> __device__ T operator()(const T& a, const T& b) const { return a > b ? a : b; } };
struct IsOdd { __host__ __device__ bool operator()(const int& x) const { return (x & 1) != 0; } };

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_pipeline(const int* in, int* sorted, int* sortedIdx, int* scanned, int* blockSum, int* blockMax, int* warpSums) {
  typedef cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
  typedef cub::BlockRadixSort<int, BLOCK_THREADS, ITEMS_PER_THREAD, int> Sort;
  typedef cub::BlockScan<int, BLOCK_THREADS> Scan;
  typedef cub::BlockReduce<int, BLOCK_THREADS> Reduce;
  typedef cub::WarpReduce<int> WarpRed;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
  } temp;
  __shared__ typename WarpRed::TempStorage warpTemp[BLOCK_THREADS / 32];
  const int tile = BLOCK_THREADS * ITEMS_PER_THREAD;
  int off = blockIdx.x * tile;
  int keys[ITEMS_PER_THREAD], vals[ITEMS_PER_THREAD];
  Load(temp.load).Load(in + off, keys);
  __syncthreads();
  for (int i = 0; i < ITEMS_PER_THREAD; i++) vals[i] = off + threadIdx.x * ITEMS_PER_THREAD + i;
  Sort(temp.sort).SortBlockedToStriped(keys, vals);
  __syncthreads();
  for (int i = 0; i < ITEMS_PER_THREAD; i++) { sorted[off + i * BLOCK_THREADS + threadIdx.x] = keys[i]; sortedIdx[off + i * BLOCK_THREADS + threadIdx.x] = vals[i]; }
  int mine[ITEMS_PER_THREAD];
  for (int i = 0; i < ITEMS_PER_THREAD; i++) mine[i] = keys[i] & 0xff;
  int agg;
  Scan(temp.scan).ExclusiveSum(mine, mine, agg);
  __syncthreads();
  Store(temp.store).Store(scanned + off, mine);
  __syncthreads();
  int thread_max = keys[0];
  for (int i = 1; i < ITEMS_PER_THREAD; i++) thread_max = keys[i] > thread_max ? keys[i] : thread_max;
  int bmax = Reduce(temp.reduce).Reduce(thread_max, MaxOp());
  __syncthreads();
  int bsum = Reduce(temp.reduce).Sum(keys[0] & 0xfff);
  int wsum = WarpRed(warpTemp[threadIdx.x / 32]).Sum(keys[ITEMS_PER_THREAD - 1] & 0xffff);
  if (threadIdx.x % 32 == 0) warpSums[blockIdx.x * (BLOCK_THREADS / 32) + threadIdx.x / 32] = wsum;
  if (threadIdx.x == 0) { blockSum[blockIdx.x] = bsum; blockMax[blockIdx.x] = bmax; if (agg < 0) blockSum[blockIdx.x] = -1; }
}

static unsigned lcg_state = 555u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int BT = 128, IPT = 8, tile = BT * IPT, nblocks = 6, n = tile * nblocks;
  int* h = (int*)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = (int)(lcg() >> 4) - (1 << 27);
  int *in, *sorted, *sidx, *scanned, *bsum, *bmax, *wsum;
  CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&sorted, n * 4)); CHECK(cudaMalloc(&sidx, n * 4)); CHECK(cudaMalloc(&scanned, n * 4));
  CHECK(cudaMalloc(&bsum, nblocks * 4)); CHECK(cudaMalloc(&bmax, nblocks * 4)); CHECK(cudaMalloc(&wsum, nblocks * 4 * 4));
  CHECK(cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice));
  block_pipeline<BT, IPT><<<nblocks, BT>>>(in, sorted, sidx, scanned, bsum, bmax, wsum);
  CHECK(cudaDeviceSynchronize());
  int *hs = (int*)malloc(n * 4), *hi = (int*)malloc(n * 4), *hc = (int*)malloc(n * 4), hb[6], hm[6], hw[24];
  CHECK(cudaMemcpy(hs, sorted, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hi, sidx, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc, scanned, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hb, bsum, 24, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hm, bmax, 24, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hw, wsum, 96, cudaMemcpyDeviceToHost));
  printf("block: sorted %08x idx %08x scan %08x\n", fnv(hs, n * 4), fnv(hi, n * 4), fnv(hc, n * 4));
  for (int b = 0; b < nblocks; b++) printf("  block %d sum %d max %d first %d last %d warps %d %d %d %d\n", b, hb[b], hm[b], hs[b * tile], hs[b * tile + tile - 1], hw[4 * b], hw[4 * b + 1], hw[4 * b + 2], hw[4 * b + 3]);

  // DeviceHistogram over floats in [0, 1)
  const int ns = 5000, bins = 16;
  float* hf = (float*)malloc(ns * 4);
  for (int i = 0; i < ns; i++) hf[i] = (float)(lcg() >> 8) * (1.0f / (1 << 24));
  hf[0] = 1.0f; hf[1] = -0.5f; // outside the range: not counted
  float* samples; int* hist;
  CHECK(cudaMalloc(&samples, ns * 4)); CHECK(cudaMalloc(&hist, bins * 4));
  CHECK(cudaMemcpy(samples, hf, ns * 4, cudaMemcpyHostToDevice));
  void* temp = NULL; size_t tempBytes = 0;
  CHECK(cub::DeviceHistogram::HistogramEven(temp, tempBytes, samples, hist, bins + 1, 0.0f, 1.0f, ns));
  CHECK(cudaMalloc(&temp, tempBytes));
  CHECK(cub::DeviceHistogram::HistogramEven(temp, tempBytes, samples, hist, bins + 1, 0.0f, 1.0f, ns));
  CHECK(cudaFree(temp));
  int hh[16];
  CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
  printf("histogram:"); for (int i = 0; i < bins; i++) printf(" %d", hh[i]); printf("\n");

  // DeviceSegmentedRadixSort: 5 segments of uneven length, one empty
  const int nseg = 5; int hoff[nseg + 1] = {0, 100, 100, 1000, 1500, 2048};
  int *keysIn, *keysOut, *valsIn, *valsOut, *offs;
  CHECK(cudaMalloc(&keysIn, 2048 * 4)); CHECK(cudaMalloc(&keysOut, 2048 * 4)); CHECK(cudaMalloc(&valsIn, 2048 * 4)); CHECK(cudaMalloc(&valsOut, 2048 * 4));
  CHECK(cudaMalloc(&offs, (nseg + 1) * 4));
  int hk[2048], hv[2048];
  for (int i = 0; i < 2048; i++) { hk[i] = (int)(lcg() % 1000) - 500; hv[i] = i; }
  CHECK(cudaMemcpy(keysIn, hk, sizeof hk, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(valsIn, hv, sizeof hv, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(offs, hoff, sizeof hoff, cudaMemcpyHostToDevice));
  temp = NULL; tempBytes = 0;
  CHECK(cub::DeviceSegmentedRadixSort::SortPairs(temp, tempBytes, keysIn, keysOut, valsIn, valsOut, 2048, nseg, offs, offs + 1));
  CHECK(cudaMalloc(&temp, tempBytes));
  CHECK(cub::DeviceSegmentedRadixSort::SortPairs(temp, tempBytes, keysIn, keysOut, valsIn, valsOut, 2048, nseg, offs, offs + 1));
  CHECK(cudaFree(temp));
  CHECK(cudaMemcpy(hk, keysOut, sizeof hk, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hv, valsOut, sizeof hv, cudaMemcpyDeviceToHost));
  printf("segsort keys %08x vals %08x:", fnv(hk, sizeof hk), fnv(hv, sizeof hv));
  for (int s = 0; s < nseg; s++) if (hoff[s + 1] > hoff[s]) printf(" [%d..%d] %d/%d..%d/%d", hoff[s], hoff[s + 1], hk[hoff[s]], hv[hoff[s]], hk[hoff[s + 1] - 1], hv[hoff[s + 1] - 1]);
  printf("\n");

  // DeviceSelect::Flagged, Unique; DevicePartition::If
  const int m = 3000;
  int *d_in, *d_out, *d_num; char* d_flags;
  int hin[3000]; char hflags[3000];
  for (int i = 0; i < m; i++) { hin[i] = (int)(lcg() % 64) / 8 + i / 100; hflags[i] = (lcg() >> 20) & 1; }
  CHECK(cudaMalloc(&d_in, m * 4)); CHECK(cudaMalloc(&d_out, m * 4)); CHECK(cudaMalloc(&d_num, 4)); CHECK(cudaMalloc(&d_flags, m));
  CHECK(cudaMemcpy(d_in, hin, sizeof hin, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_flags, hflags, sizeof hflags, cudaMemcpyHostToDevice));
  int num, hout[3000];
  temp = NULL; tempBytes = 0;
  CHECK(cub::DeviceSelect::Flagged(temp, tempBytes, d_in, d_flags, d_out, d_num, m));
  CHECK(cudaMalloc(&temp, tempBytes));
  CHECK(cub::DeviceSelect::Flagged(temp, tempBytes, d_in, d_flags, d_out, d_num, m));
  CHECK(cudaFree(temp));
  CHECK(cudaMemcpy(&num, d_num, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hout, d_out, num * 4, cudaMemcpyDeviceToHost));
  printf("flagged %d fnv %08x\n", num, fnv(hout, num * 4));
  temp = NULL; tempBytes = 0;
  CHECK(cub::DeviceSelect::Unique(temp, tempBytes, d_in, d_out, d_num, m));
  CHECK(cudaMalloc(&temp, tempBytes));
  CHECK(cub::DeviceSelect::Unique(temp, tempBytes, d_in, d_out, d_num, m));
  CHECK(cudaFree(temp));
  CHECK(cudaMemcpy(&num, d_num, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hout, d_out, num * 4, cudaMemcpyDeviceToHost));
  printf("unique %d fnv %08x first %d %d %d last %d\n", num, fnv(hout, num * 4), hout[0], hout[1], hout[2], hout[num - 1]);
  temp = NULL; tempBytes = 0;
  CHECK(cub::DevicePartition::If(temp, tempBytes, d_in, d_out, d_num, m, IsOdd()));
  CHECK(cudaMalloc(&temp, tempBytes));
  CHECK(cub::DevicePartition::If(temp, tempBytes, d_in, d_out, d_num, m, IsOdd()));
  CHECK(cudaFree(temp));
  CHECK(cudaMemcpy(&num, d_num, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hout, d_out, m * 4, cudaMemcpyDeviceToHost));
  printf("partition %d fnv %08x head %d %d tail %d %d\n", num, fnv(hout, m * 4), hout[0], hout[1], hout[m - 2], hout[m - 1]);
  return 0;
}
