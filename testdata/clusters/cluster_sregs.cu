// cluster_sregs.cu: every cluster special register and what
// cooperative_groups::this_cluster() says, per block, for a 2D grid with
// 2x2 clusters (__cluster_dims__), an ordinary launch, and launches made
// with cudaLaunchKernelEx and cudaLaunchAttributeClusterDimension.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

#define NREG 30
#define SREG(i, name) asm volatile("mov.u32 %0, %%" name ";" : "=r"(r[i]))

__device__ void dump(unsigned *out) {
  if (threadIdx.x != 0) return;
  unsigned r[NREG];
  SREG(0, "ctaid.x"); SREG(1, "ctaid.y"); SREG(2, "ctaid.z");
  SREG(3, "nctaid.x"); SREG(4, "nctaid.y"); SREG(5, "nctaid.z");
  SREG(6, "clusterid.x"); SREG(7, "clusterid.y"); SREG(8, "clusterid.z");
  SREG(9, "nclusterid.x"); SREG(10, "nclusterid.y"); SREG(11, "nclusterid.z");
  SREG(12, "cluster_ctaid.x"); SREG(13, "cluster_ctaid.y"); SREG(14, "cluster_ctaid.z");
  SREG(15, "cluster_nctaid.x"); SREG(16, "cluster_nctaid.y"); SREG(17, "cluster_nctaid.z");
  SREG(18, "cluster_ctarank"); SREG(19, "cluster_nctarank");
  asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(r[20]));
  cg::cluster_group c = cg::this_cluster();
  r[21] = c.block_rank();
  r[22] = c.num_blocks();
  dim3 bi = c.block_index(), db = c.dim_blocks();
  r[23] = bi.x; r[24] = bi.y; r[25] = bi.z;
  r[26] = db.x; r[27] = db.y; r[28] = db.z;
  r[29] = c.num_threads();
  unsigned linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  for (int i = 0; i < NREG; i++) out[linear * NREG + i] = r[i];
}

__global__ void __cluster_dims__(2, 2, 1) k_static(unsigned *out) { dump(out); }
__global__ void k_plain(unsigned *out) { dump(out); }

static void show(const char *title, dim3 grid, unsigned *d) {
  int n = grid.x * grid.y * grid.z;
  unsigned *h = (unsigned *)malloc(n * NREG * sizeof(unsigned));
  CHECK(cudaMemcpy(h, d, n * NREG * sizeof(unsigned), cudaMemcpyDeviceToHost));
  printf("== %s: grid %ux%ux%u\n", title, grid.x, grid.y, grid.z);
  for (int b = 0; b < n; b++) {
    unsigned *r = h + b * NREG;
    printf("ctaid=(%u,%u,%u)/(%u,%u,%u) clusterid=(%u,%u,%u)/(%u,%u,%u) cluster_ctaid=(%u,%u,%u)/(%u,%u,%u) rank=%u/%u explicit=%u"
           " | cg rank=%u/%u index=(%u,%u,%u) dim=(%u,%u,%u) threads=%u\n",
           r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17],
           r[18], r[19], r[20], r[21], r[22], r[23], r[24], r[25], r[26], r[27], r[28], r[29]);
  }
  free(h);
}

static void launchEx(const char *title, dim3 grid, dim3 block, dim3 cluster, unsigned *d, bool attr) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = cluster.x;
  a[0].val.clusterDim.y = cluster.y;
  a[0].val.clusterDim.z = cluster.z;
  cfg.attrs = a;
  cfg.numAttrs = attr ? 1 : 0;
  CHECK(cudaMemset(d, 0xff, 4096 * sizeof(unsigned)));
  CHECK(cudaLaunchKernelEx(&cfg, k_plain, d));
  CHECK(cudaDeviceSynchronize());
  show(title, grid, d);
}

int main() {
  unsigned *d;
  CHECK(cudaMalloc(&d, 4096 * sizeof(unsigned)));
  dim3 g(6, 4, 1);
  CHECK(cudaMemset(d, 0xff, 4096 * sizeof(unsigned)));
  k_static<<<g, 64>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  show("k_static __cluster_dims__(2,2,1)", g, d);
  dim3 g2(3, 2, 1);
  CHECK(cudaMemset(d, 0xff, 4096 * sizeof(unsigned)));
  k_plain<<<g2, 32>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  show("k_plain <<<>>>", g2, d);
  launchEx("k_plain cudaLaunchKernelEx cluster (2,1,2)", dim3(4, 2, 2), dim3(32, 2, 1), dim3(2, 1, 2), d, true);
  launchEx("k_plain cudaLaunchKernelEx cluster (1,1,1)", dim3(2, 1, 1), dim3(32, 1, 1), dim3(1, 1, 1), d, true);
  launchEx("k_plain cudaLaunchKernelEx cluster (3,1,1)", dim3(6, 1, 1), dim3(96, 1, 1), dim3(3, 1, 1), d, true);
  launchEx("k_plain cudaLaunchKernelEx no attribute", dim3(2, 2, 1), dim3(32, 1, 1), dim3(1, 1, 1), d, false);
  CHECK(cudaFree(d));
  return 0;
}
