// Clusters launched at run time with cudaLaunchKernelEx and
// cudaLaunchAttributeClusterDimension: blocks of a cluster pass a value
// around a ring through distributed shared memory (ld.shared::cluster via
// map_shared_rank), using barrier.cluster arrive/wait split phases. Asks the
// runtime how many clusters fit (cudaOccupancyMaxActiveClusters) and for an
// oversized cluster (16 without the non-portable opt-in), which must fail.
#include <cstdio>
#include <utility>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void ring(int* out, int rounds) {
  __shared__ int mailbox[2][32];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned r = cluster.block_rank(), nb = cluster.num_blocks();
  unsigned next = (r + 1) % nb;
  int val = (int)(blockIdx.x * 1000 + threadIdx.x);
  mailbox[0][threadIdx.x] = val;
  cluster.sync();
  for (int i = 0; i < rounds; i++) {
    int* remote = cluster.map_shared_rank(&mailbox[i & 1][0], next);
    int got = remote[threadIdx.x];            // read the next block's mailbox
    val = got * 3 + (int)r - i;
    mailbox[(i + 1) & 1][threadIdx.x] = val;  // write our own other mailbox
    auto token = cluster.barrier_arrive();  // split arrive/wait
    cluster.barrier_wait(std::move(token));
  }
  out[blockIdx.x * 32 + threadIdx.x] = val;
  cluster.sync();
}

int main() {
  const int csize = 4, nblocks = 16, rounds = 5;
  int* d;
  CHECK(cudaMalloc(&d, 2 * nblocks * 32 * sizeof(int)));  // room for the 32-block launch
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(nblocks);
  cfg.blockDim = dim3(32);
  cfg.dynamicSmemBytes = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = csize;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int maxc = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&maxc, (void*)ring, &cfg));
  printf("max active clusters of %d x 32 threads: %d\n", csize, maxc);
  CHECK(cudaLaunchKernelEx(&cfg, ring, d, rounds));
  CHECK(cudaDeviceSynchronize());
  int h[nblocks * 32];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  unsigned long long s = 0;
  for (int i = 0; i < nblocks * 32; i++) s = s * 7 + h[i];
  printf("ring: out[0]=%d out[33]=%d out[511]=%d hash %llu\n", h[0], h[33], h[511], s);
  // an 8-block cluster is portable; 16 needs the opt-in
  attr[0].val.clusterDim.x = 16;
  cfg.gridDim = dim3(32);
  cudaError_t e = cudaLaunchKernelEx(&cfg, ring, d, rounds);
  printf("cluster of 16 without opt-in: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(ring, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  int maxc16 = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&maxc16, (void*)ring, &cfg));
  printf("max active clusters of 16 after opt-in: %d\n", maxc16);
  CHECK(cudaLaunchKernelEx(&cfg, ring, d, rounds));
  CHECK(cudaDeviceSynchronize());
  int h2[32 * 32];
  CHECK(cudaMemcpy(h2, d, sizeof h2, cudaMemcpyDeviceToHost));
  s = 0;
  for (int i = 0; i < 32 * 32; i++) s = s * 7 + h2[i];
  printf("ring16: out[0]=%d out[1023]=%d hash %llu\n", h2[0], h2[1023], s);
  return 0;
}
