// CUB block and warp primitives: BlockLoad/BlockStore with transposes,
// BlockReduce, BlockScan, WarpReduce, BlockRadixSort, BlockDiscontinuity.
#include <cstdio>
#include <cub/cub.cuh>

constexpr int BT = 128, IPT = 4;

struct MaxOp { __device__ int operator()(int a, int b) const { return a > b ? a : b; } };
struct MinOp { __device__ int operator()(int a, int b) const { return a < b ? a : b; } };
struct NotEqual { __device__ bool operator()(int a, int b) const { return a != b; } };

__global__ void block_prims(const int *in, int *out, int *sums, int *sorted, int *flags) {
  using Load = cub::BlockLoad<int, BT, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<int, BT, IPT, cub::BLOCK_STORE_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, BT>;
  using Scan = cub::BlockScan<int, BT>;
  using Sort = cub::BlockRadixSort<int, BT, IPT, int>;
  using Disc = cub::BlockDiscontinuity<int, BT>;
  using WReduce = cub::WarpReduce<int>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
    typename Disc::TempStorage disc;
  } tmp;
  __shared__ typename WReduce::TempStorage wtmp[BT / 32];
  int base = blockIdx.x * BT * IPT;
  int v[IPT];
  Load(tmp.load).Load(in + base, v);
  __syncthreads();
  int s = Reduce(tmp.reduce).Sum(v);
  __syncthreads();
  int mx = Reduce(tmp.reduce).Reduce(v, MaxOp());
  __syncthreads();
  int agg;
  int ex[IPT];
  Scan(tmp.scan).ExclusiveSum(v, ex, agg);
  __syncthreads();
  int inc[IPT];
  Scan(tmp.scan).InclusiveScan(v, inc, MaxOp());
  __syncthreads();
  int wsum = WReduce(wtmp[threadIdx.x / 32]).Sum(v[0]);
  int wmin = WReduce(wtmp[threadIdx.x / 32]).Reduce(v[1], MinOp());
  int partial = WReduce(wtmp[threadIdx.x / 32]).Sum(v[2], 20);
  if (threadIdx.x == 0) {
    sums[blockIdx.x * 8 + 0] = s;
    sums[blockIdx.x * 8 + 1] = mx;
    sums[blockIdx.x * 8 + 2] = agg;
  }
  if (threadIdx.x % 32 == 0) {
    sums[blockIdx.x * 8 + 3 + threadIdx.x / 32] = wsum ^ (wmin << 16) ^ (partial << 8);
  }
  int o[IPT];
  for (int i = 0; i < IPT; i++) o[i] = ex[i] * 3 + inc[i];
  Store(tmp.store).Store(out + base, o);
  __syncthreads();
  int keys[IPT], vals[IPT];
  for (int i = 0; i < IPT; i++) { keys[i] = v[i] % 1000 - 500; vals[i] = threadIdx.x * IPT + i; }
  Sort(tmp.sort).SortBlockedToStriped(keys, vals);
  for (int i = 0; i < IPT; i++) sorted[base + i * BT + threadIdx.x] = keys[i] * 1000 + vals[i] % 1000;
  __syncthreads();
  int f[IPT];
  int d[IPT];
  for (int i = 0; i < IPT; i++) d[i] = v[i] / 300;
  Disc(tmp.disc).FlagHeads(f, d, NotEqual());
  int cnt = 0;
  for (int i = 0; i < IPT; i++) cnt += f[i];
  atomicAdd(&flags[blockIdx.x], cnt);
}

int main() {
  const int B = 6, N = B * BT * IPT;
  int *h = new int[N];
  unsigned x = 12345;
  for (int i = 0; i < N; i++) { x = x * 1103515245u + 12345u; h[i] = (x >> 8) % 100000; }
  int *in, *out, *sums, *sorted, *flags;
  cudaMalloc(&in, N * 4); cudaMalloc(&out, N * 4); cudaMalloc(&sorted, N * 4);
  cudaMalloc(&sums, B * 8 * 4); cudaMalloc(&flags, B * 4);
  cudaMemset(flags, 0, B * 4);
  cudaMemcpy(in, h, N * 4, cudaMemcpyHostToDevice);
  block_prims<<<B, BT>>>(in, out, sums, sorted, flags);
  printf("kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int hs[B * 8], hf[B];
  cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, flags, sizeof hf, cudaMemcpyDeviceToHost);
  for (int b = 0; b < B; b++) {
    printf("block %d: sum %d max %d agg %d warps %08x %08x %08x %08x heads %d\n", b, hs[b * 8], hs[b * 8 + 1], hs[b * 8 + 2],
           hs[b * 8 + 3], hs[b * 8 + 4], hs[b * 8 + 5], hs[b * 8 + 6], hf[b]);
  }
  int *ho = new int[N];
  cudaMemcpy(ho, out, N * 4, cudaMemcpyDeviceToHost);
  unsigned hash = 0;
  for (int i = 0; i < N; i++) hash = hash * 31 + ho[i];
  printf("scan store hash %08x first %d %d %d last %d\n", hash, ho[0], ho[1], ho[2], ho[N - 1]);
  cudaMemcpy(ho, sorted, N * 4, cudaMemcpyDeviceToHost);
  hash = 0;
  for (int i = 0; i < N; i++) hash = hash * 31 + ho[i];
  printf("sorted hash %08x first %d %d last %d\n", hash, ho[0], ho[1], ho[N - 1]);
  return 0;
}
