// memcheck and plain: block 0 of each 2-block cluster writes a value into
// block 1's shared memory, with no cluster.sync() after it; block 1 does not
// wait for it and exits at once.
#include <cooperative_groups.h>
#include "common.h"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) give(int *out) {
  __shared__ int box[32];
  cg::cluster_group cluster = cg::this_cluster();
  int t = threadIdx.x;
  box[t] = 0;
  cluster.sync();
  if (cluster.block_rank() == 0) {
    long long start = clock64();
    while (clock64() - start < 200000) {
    }
    int *remote = cluster.map_shared_rank(box, 1);
    remote[t] = t + 1;  // bug: block 1 may have exited
  }
  // bug: no cluster.sync() here
  out[blockIdx.x * 32 + t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  give<<<2, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
