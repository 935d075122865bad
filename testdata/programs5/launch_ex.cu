// cudaLaunchKernelEx with launch attributes: thread block clusters
// (cluster dims as an attribute and __cluster_dims__), the cluster occupancy
// query, distributed shared memory, programmatic stream serialization.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cluster_info(int *out, float scale) {
  cg::cluster_group cl = cg::this_cluster();
  __shared__ int sm[64];
  sm[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
  cl.sync();
  unsigned r = cl.block_rank();
  unsigned peer = (r + 1) % cl.num_blocks();
  int *remote = cl.map_shared_rank(sm, peer);
  int v = remote[(threadIdx.x + 1) % blockDim.x];
  cl.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v * (int)scale + (int)r * 100000 + (int)cl.num_blocks() * 10000000;
}

__global__ void __cluster_dims__(2, 1, 1) fixed_cluster(int *out) {
  cg::cluster_group cl = cg::this_cluster();
  if (threadIdx.x == 0) out[blockIdx.x] = cl.block_rank() * 1000 + cl.dim_blocks().x * 10 + cl.block_index().x;
}

__global__ void simple(int *out, int v) { out[threadIdx.x] += v; }

int main() {
  const int blocks = 16, threads = 64;
  int *d;
  cudaMalloc(&d, blocks * threads * sizeof(int));
  int cs[] = {1, 2, 4, 8, 16};
  for (int c : cs) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = c;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int nc = -1;
    cudaError_t oe = cudaOccupancyMaxActiveClusters(&nc, cluster_info, &cfg);
    cudaError_t e = cudaLaunchKernelEx(&cfg, cluster_info, d, 2.0f);
    cudaError_t s = cudaDeviceSynchronize();
    int h[blocks * threads];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < blocks * threads; i++) sum += h[i];
    printf("cluster %2d: occupancy %s launch %s sync %s sum %lld h[0] %d h[last] %d\n", c, cudaGetErrorName(oe),
           cudaGetErrorName(e), cudaGetErrorName(s), sum, h[0], h[blocks * threads - 1]);
    cudaGetLastError();
  }
  {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 3;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, cluster_info, d, 1.0f);
    printf("grid 16 with cluster 3: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
  }
  fixed_cluster<<<8, 32>>>(d);
  printf("__cluster_dims__ launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int h[8];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf(" %d", h[i]);
  printf("\n");
  fixed_cluster<<<7, 32>>>(d);
  printf("__cluster_dims__(2) with 7 blocks: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaDeviceSynchronize();
  // Programmatic stream serialization: results must equal plain ordering.
  cudaMemset(d, 0, threads * sizeof(int));
  cudaStream_t st;
  cudaStreamCreate(&st);
  for (int i = 1; i <= 5; i++) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(threads);
    cfg.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 0;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, simple, d, i * i);
  }
  cudaStreamSynchronize(st);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("serialized: %d %d (%s)\n", h[0], h[7], cudaGetErrorName(cudaGetLastError()));
  return 0;
}
