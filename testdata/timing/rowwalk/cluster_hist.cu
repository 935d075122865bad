// Distributed shared memory, as in the CUDA Programming Guide's cluster
// histogram: each block of a cluster owns a slice of the bins in its shared
// memory; every thread increments the owning block's bins through
// cluster.map_shared_rank() with atomicAdd. Clusters of 4 from
// __cluster_dims__; then a cluster-wide sum reduction where rank 0 reads
// each block's partial sums over DSMEM.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

constexpr int NBINS = 512, CSIZE = 4, BPB = NBINS / CSIZE;

__global__ void __cluster_dims__(CSIZE, 1, 1) clusterHist(int* bins, const int* input, size_t n) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  for (int i = threadIdx.x; i < BPB; i += blockDim.x) smem[i] = 0;
  cluster.sync();
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = input[i];
    int b = min(max(v, 0), NBINS - 1);
    int dst = b / BPB, off = b % BPB;
    int* dsm = cluster.map_shared_rank(smem, dst);
    atomicAdd(dsm + off, 1);
  }
  cluster.sync();
  int* lbins = bins + (blockIdx.x / CSIZE) * NBINS + rank * BPB;
  for (int i = threadIdx.x; i < BPB; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
  (void)rank;
}

__global__ void __cluster_dims__(2, 2, 1) clusterSum(const float* in, float* out) {
  __shared__ float partial[64];
  auto cluster = cg::this_cluster();
  auto block = cg::this_thread_block();
  int gid = (blockIdx.y * gridDim.x + blockIdx.x) * 64 + threadIdx.x;
  partial[threadIdx.x] = in[gid] * in[gid];
  block.sync();
  for (int s = 32; s; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    block.sync();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x < cluster.num_blocks()) {
    float* remote = cluster.map_shared_rank(partial, threadIdx.x);
    float v = remote[0];
    float tot = v;
    for (int o = 1; o < 4; o <<= 1) tot += __shfl_xor_sync(0xf, tot, o);
    dim3 ci = cluster.block_index();
    if (threadIdx.x == 0) {
      int c = (blockIdx.y / 2) * (gridDim.x / 2) + blockIdx.x / 2;
      out[c * 2] = tot;
      out[c * 2 + 1] = (float)(ci.x + 10 * ci.y + 100 * cluster.dim_blocks().x);
    }
  }
  cluster.sync();  // keep shared memory alive until rank 0 has read it
}

int main() {
  const size_t n = 1 << 16;
  int* h = new int[n];
  unsigned s = 7;
  for (size_t i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (int)((s >> 16) % 600) - 40; }
  int *din, *dbins;
  const int clusters = 3;
  CHECK(cudaMalloc(&din, n * 4)); CHECK(cudaMalloc(&dbins, clusters * NBINS * 4));
  CHECK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, clusters * NBINS * 4));
  clusterHist<<<clusters * CSIZE, 256, BPB * sizeof(int)>>>(dbins, din, n);
  CHECK(cudaGetLastError());
  int hb[clusters * NBINS];
  CHECK(cudaMemcpy(hb, dbins, sizeof hb, cudaMemcpyDeviceToHost));
  int ref[NBINS] = {};
  for (size_t i = 0; i < n; i++) ref[h[i] < 0 ? 0 : (h[i] >= NBINS ? NBINS - 1 : h[i])]++;
  int bad = 0; long long tot = 0;
  for (int b = 0; b < NBINS; b++) {
    int sum = hb[b] + hb[NBINS + b] + hb[2 * NBINS + b];
    tot += sum;
    if (sum != ref[b]) bad++;
  }
  printf("histogram: total %lld, %d bins differ; bin0=%d bin1=%d bin511=%d; cluster1 bin100=%d\n", tot, bad,
         hb[0] + hb[NBINS] + hb[2 * NBINS], hb[1] + hb[NBINS + 1] + hb[2 * NBINS + 1],
         hb[511] + hb[NBINS + 511] + hb[2 * NBINS + 511], hb[NBINS + 100]);
  float hin[8 * 4 * 64], hout[8 * 2];
  for (int i = 0; i < 8 * 4 * 64; i++) hin[i] = (float)(i % 37) * 0.0625f - 1.0f;
  float *dfi, *dfo;
  CHECK(cudaMalloc(&dfi, sizeof hin)); CHECK(cudaMalloc(&dfo, sizeof hout));
  CHECK(cudaMemcpy(dfi, hin, sizeof hin, cudaMemcpyHostToDevice));
  clusterSum<<<dim3(8, 4), 64>>>(dfi, dfo);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dfo, sizeof hout, cudaMemcpyDeviceToHost));
  for (int c = 0; c < 8; c++) printf("cluster %d: sum of squares %a tag %g\n", c, hout[2 * c], hout[2 * c + 1]);
  delete[] h;
  return bad ? 1 : 0;
}
