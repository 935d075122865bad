// cluster_launch.cu: what the driver answers about cluster launches: the
// error of each launch that cannot run (cluster above 8 without the
// non-portable attribute, grid not a multiple of the cluster, a cluster
// that does not fit, a cluster that contradicts __cluster_dims__),
// cudaOccupancyMaxActiveClusters over cluster sizes x block sizes x
// dynamic shared memory, and cudaOccupancyMaxPotentialClusterSize.
#include <cooperative_groups.h>
#include "check.h"

__global__ void k_empty(int *p) {
  if (p && threadIdx.x == 0) p[blockIdx.x] = blockIdx.x;
}
__global__ void __cluster_dims__(2, 1, 1) k_dims2(int *p) {
  if (p && threadIdx.x == 0) p[blockIdx.x] = blockIdx.x;
}

static void report(const char *what, cudaError_t e) {
  cudaError_t s = cudaDeviceSynchronize();
  cudaError_t last = cudaGetLastError();
  printf("%-60s -> %s (%s); sync %s; last %s\n", what, cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(s),
         cudaGetErrorName(last));
}

static cudaError_t launch(const void *f, dim3 grid, dim3 block, size_t smem, dim3 cluster, bool attr, int *p) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = cluster.x;
  a[0].val.clusterDim.y = cluster.y;
  a[0].val.clusterDim.z = cluster.z;
  cfg.attrs = a;
  cfg.numAttrs = attr ? 1 : 0;
  void *args[] = {&p};
  return cudaLaunchKernelExC(&cfg, f, args);
}

static void occ(const char *title, const void *f, dim3 cluster, bool attr, int block, size_t smem) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(cluster.x * 16, cluster.y, cluster.z);
  cfg.blockDim = dim3(block, 1, 1);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = cluster.x;
  a[0].val.clusterDim.y = cluster.y;
  a[0].val.clusterDim.z = cluster.z;
  cfg.attrs = a;
  cfg.numAttrs = attr ? 1 : 0;
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, f, &cfg);
  printf("%s cluster %ux%ux%u block %d smem %zu: ", title, cluster.x, cluster.y, cluster.z, block, smem);
  if (e != cudaSuccess)
    printf("%s\n", cudaGetErrorName(e)), cudaGetLastError();
  else
    printf("%d\n", n);
}

static void potential(const char *title, const void *f, int block, size_t smem) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64, 1, 1);
  cfg.blockDim = dim3(block, 1, 1);
  cfg.dynamicSmemBytes = smem;
  int n = -1;
  cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, f, &cfg);
  printf("%s block %d smem %zu: ", title, block, smem);
  if (e != cudaSuccess)
    printf("%s\n", cudaGetErrorName(e)), cudaGetLastError();
  else
    printf("%d\n", n);
}

int main() {
  int dev = 0, v = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  printf("cudaDevAttrClusterLaunch %d, SMs %d\n", v, sms);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, k_empty));
  printf("k_empty: regs %d static smem %zu maxThreads %d clusterDimMustBeSet %d required %dx%dx%d nonPortable %d\n", fa.numRegs,
         fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight,
         fa.requiredClusterDepth, fa.nonPortableClusterSizeAllowed);
  CHECK(cudaFuncGetAttributes(&fa, k_dims2));
  printf("k_dims2: regs %d static smem %zu maxThreads %d clusterDimMustBeSet %d required %dx%dx%d nonPortable %d\n", fa.numRegs,
         fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.requiredClusterHeight,
         fa.requiredClusterDepth, fa.nonPortableClusterSizeAllowed);
  int *p;
  CHECK(cudaMalloc(&p, 4096 * sizeof(int)));
  const void *ke = (const void *)k_empty, *k2 = (const void *)k_dims2;
  CHECK(cudaFuncSetAttribute(ke, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448));

  printf("== launches\n");
  report("cluster 2 grid 4", launch(ke, dim3(4), dim3(32), 0, dim3(2, 1, 1), true, p));
  report("cluster 8 grid 16", launch(ke, dim3(16), dim3(32), 0, dim3(8, 1, 1), true, p));
  report("cluster 9 grid 18 (no non-portable attribute)", launch(ke, dim3(18), dim3(32), 0, dim3(9, 1, 1), true, p));
  report("cluster 16 grid 32 (no non-portable attribute)", launch(ke, dim3(32), dim3(32), 0, dim3(16, 1, 1), true, p));
  report("cluster 2x2x2 grid 4x4x2", launch(ke, dim3(4, 4, 2), dim3(32), 0, dim3(2, 2, 2), true, p));
  report("cluster 2 grid 3", launch(ke, dim3(3), dim3(32), 0, dim3(2, 1, 1), true, p));
  report("cluster 1x2x1 grid 4x3x1", launch(ke, dim3(4, 3, 1), dim3(32), 0, dim3(1, 2, 1), true, p));
  report("cluster 0x1x1 grid 4", launch(ke, dim3(4), dim3(32), 0, dim3(0, 1, 1), true, p));
  report("cluster 3 grid 6", launch(ke, dim3(6), dim3(32), 0, dim3(3, 1, 1), true, p));
  report("cluster 8 grid 8 block 1024 smem 232448", launch(ke, dim3(8), dim3(1024), 232448, dim3(8, 1, 1), true, p));
  CHECK(cudaFuncSetAttribute(ke, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  report("non-portable: cluster 16 grid 32", launch(ke, dim3(32), dim3(32), 0, dim3(16, 1, 1), true, p));
  report("non-portable: cluster 4x4x1 grid 8x4x1", launch(ke, dim3(8, 4, 1), dim3(32), 0, dim3(4, 4, 1), true, p));
  report("non-portable: cluster 17 grid 34", launch(ke, dim3(34), dim3(32), 0, dim3(17, 1, 1), true, p));
  report("non-portable: cluster 32 grid 32", launch(ke, dim3(32), dim3(32), 0, dim3(32, 1, 1), true, p));
  report("non-portable: cluster 16 grid 16 block 1024 smem 232448", launch(ke, dim3(16), dim3(1024), 232448, dim3(16, 1, 1), true, p));
  report("non-portable: cluster 16 grid 16 block 1024 smem 100000", launch(ke, dim3(16), dim3(1024), 100000, dim3(16, 1, 1), true, p));
  report("non-portable: cluster 16 grid 16 block 128 smem 200000", launch(ke, dim3(16), dim3(128), 200000, dim3(16, 1, 1), true, p));
  k_dims2<<<4, 32>>>(p);
  report("__cluster_dims__(2,1,1) <<<4>>>", cudaGetLastError());
  k_dims2<<<3, 32>>>(p);
  report("__cluster_dims__(2,1,1) <<<3>>>", cudaGetLastError());
  report("__cluster_dims__(2,1,1) Ex no attribute grid 4", launch(k2, dim3(4), dim3(32), 0, dim3(1, 1, 1), false, p));
  report("__cluster_dims__(2,1,1) Ex cluster 2 grid 4", launch(k2, dim3(4), dim3(32), 0, dim3(2, 1, 1), true, p));
  report("__cluster_dims__(2,1,1) Ex cluster 4 grid 8", launch(k2, dim3(8), dim3(32), 0, dim3(4, 1, 1), true, p));
  report("__cluster_dims__(2,1,1) Ex cluster 1 grid 4", launch(k2, dim3(4), dim3(32), 0, dim3(1, 1, 1), true, p));

  printf("== cudaOccupancyMaxActiveClusters\n");
  occ("k_dims2 (no attribute)", k2, dim3(2, 1, 1), false, 128, 0);
  occ("k_dims2", k2, dim3(2, 1, 1), true, 128, 0);
  occ("k_empty (no attribute)", ke, dim3(1, 1, 1), false, 128, 0);
  occ("k_empty", ke, dim3(2, 2, 1), true, 256, 0);
  occ("k_empty", ke, dim3(2, 2, 2), true, 256, 0);
  occ("k_empty", ke, dim3(17, 1, 1), true, 256, 0);
  occ("k_empty", ke, dim3(8, 1, 1), true, 2048, 0);
  occ("k_empty", ke, dim3(8, 1, 1), true, 256, 240000);
  const int cs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16};
  const int bs[] = {32, 64, 128, 256, 512, 768, 1024};
  const size_t sm[] = {0, 1024, 16384, 49152, 100000, 116736, 200000, 232448};
  for (int c : cs)
    for (int b : bs)
      for (size_t s : sm) occ("k_empty", ke, dim3(c, 1, 1), true, b, s);

  printf("== cudaOccupancyMaxPotentialClusterSize\n");
  for (int b : bs)
    for (size_t s : sm) potential("k_empty non-portable", ke, b, s);
  CHECK(cudaFuncSetAttribute(ke, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
  for (int b : bs)
    for (size_t s : sm) potential("k_empty portable", ke, b, s);
  potential("k_dims2", k2, 128, 0);
  return 0;
}
