// cluster_exited.cu: block rank 1 of each cluster returns at once; rank 0
// waits a while, then reads rank 1's shared memory through
// map_shared_rank. The programming guide forbids it (a block must not
// exit while others of its cluster may access its shared memory); this is
// what the H100 does.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) exited(unsigned *out) {
  __shared__ unsigned buf[32];
  cg::cluster_group cluster = cg::this_cluster();
  buf[threadIdx.x] = 100 + threadIdx.x;
  cluster.sync();
  if (cluster.block_rank() == 1) return;
  long long t0 = clock64();
  while (clock64() - t0 < 20000000) {
  }
  out[threadIdx.x] = *cluster.map_shared_rank(&buf[threadIdx.x], 1);
}

int main() {
  unsigned *d, h[32];
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemset(d, 0, sizeof h));
  exited<<<2, 32>>>(d);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("memcpy: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess) printf("out[0] %u out[31] %u\n", h[0], h[31]);
  return 0;
}
