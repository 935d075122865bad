// cg::reduce over tiles of 256 threads (larger than a warp): the sums of
// ranks 0..255 and 256..511 are 32640 and 98176, the maxima of rank/2 127.5
// and 255.5 (TestCCBigTileReduce).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int *out, double *dout) {
  __shared__ cg::block_tile_memory<512> mem;
  cg::thread_block b = cg::this_thread_block(mem);
  auto t = cg::tiled_partition<256>(b);
  int r = cg::reduce(t, (int)b.thread_rank(), cg::plus<int>());
  double m = cg::reduce(t, b.thread_rank() * 0.5, cg::greater<double>());
  out[b.thread_rank()] = r;
  dout[b.thread_rank()] = m;
}
int main() { int *o; double *d; cudaMalloc(&o, 512 * 4); cudaMalloc(&d, 512 * 8); k<<<1, 512>>>(o, d); int h[512]; double hd[512];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost); cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  printf("%d %d %d %.1f %.1f %s\n", h[0], h[255], h[256], hd[0], hd[511], cudaGetErrorString(cudaGetLastError())); }
