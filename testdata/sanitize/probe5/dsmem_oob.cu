// memcheck: clusters of 2 blocks exchange halos through distributed shared
// memory; each block writes its last 4 values into the other block's
// 64-int buffer at 62..65 (the halo should be 60..63): 2 writes per block
// land past the remote block's shared memory.
#include <cooperative_groups.h>
#include "common.h"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) halo(const int *in, int *out) {
  __shared__ int buf[64];
  cg::cluster_group cluster = cg::this_cluster();
  int t = threadIdx.x, rank = cluster.block_rank();
  buf[t] = in[blockIdx.x * 64 + t];
  cluster.sync();
  int *remote = cluster.map_shared_rank(buf, rank ^ 1);
  if (t >= 60)
    remote[t + 2] = buf[t];  // bug: should be remote[t]
  cluster.sync();
  out[blockIdx.x * 64 + t] = buf[t];
}

int main() {
  int h[128], *in, *out;
  for (int i = 0; i < 128; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  halo<<<2, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
