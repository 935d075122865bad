// A cooperative grid in which block 1 returns before grid.sync(): the other
// blocks wait for it forever. A GPU hangs (record.sh stops it after a few
// seconds); warpsim reports a barrier deadlock and the launch fails with
// cudaErrorLaunchTimeout, as for its watchdog.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *out) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

int main() {
  int *out;
  CHECK(cudaMalloc(&out, 4 * sizeof(int)));
  void *args[] = {&out};
  printf("launch: %s\n", cudaGetErrorName(cudaLaunchCooperativeKernel((void *)k, dim3(4), dim3(64), args, 0, 0)));
  fflush(stdout);
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %d %s\n", (int)e, cudaGetErrorName(e));
  return 0;
}
