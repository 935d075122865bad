// grid.sync() in a kernel launched with <<<>>> (not cooperatively): what
// the GPU does with it, and is_valid() there.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *out) {
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x == 0) out[blockIdx.x] = g.is_valid() ? 1 : 0;
  g.sync();
  if (threadIdx.x == 0) out[blockIdx.x] += 10;
}

int main() {
  int *out;
  CHECK(cudaMalloc(&out, 2 * sizeof(int)));
  CHECK(cudaMemset(out, 0, 2 * sizeof(int)));
  k<<<2, 64>>>(out);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %d %s\n", (int)e, cudaGetErrorName(e));
  int h[2] = {-1, -1};
  e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("copy: %s, out %d %d\n", cudaGetErrorName(e), h[0], h[1]);
  return 0;
}
