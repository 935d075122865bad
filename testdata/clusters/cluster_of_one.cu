// cluster_of_one.cu: barrier.cluster (cooperative_groups::this_cluster().sync()) in a launch without
// clusters: each block is a cluster of one, and the barrier waits for all of the block's threads. Warp 3
// writes shared memory after a long loop; every thread reads it after the barrier. Prints how many read 0.
// (Recorded on the H100 by ../timing/clusters/run2.sh: zeros 0, exit 0, nothing on stderr.)
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  __shared__ int s[128];
  // warp 3 writes late (after a long loop), everyone reads after the cluster barrier
  if (threadIdx.x >= 96) { int v = threadIdx.x; for (int i = 0; i < 1000; i++) v = v * 3 + 1; s[threadIdx.x - 96] = v | 1; }
  cg::this_cluster().sync();
  out[threadIdx.x] = s[threadIdx.x % 32];
}
int main() {
  int *d, h[128];
  cudaMalloc(&d, sizeof h);
  k<<<1, 128>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int zero = 0;
  for (int i = 0; i < 128; i++) zero += h[i] == 0;
  printf("zeros %d (0 expected)\n", zero);
}
