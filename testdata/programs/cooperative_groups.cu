// Cooperative groups: a block reduction with tiles of 32 and 8 threads,
// cg::reduce, tile votes and a coalesced group.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void sum(const int *in, int *out, int *votes) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[8];
  int v = in[blockIdx.x * block.size() + block.thread_rank()];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int w = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = w;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int x = block.thread_rank() < 8 ? partial[block.thread_rank()] : 0;
    for (int d = 4; d > 0; d /= 2) x += tile.shfl_down(x, d);
    if (block.thread_rank() == 0) out[blockIdx.x] = x;
    if (block.thread_rank() < 8) votes[blockIdx.x * 4] = tile.ballot(x > 0);
  }
  if (block.thread_rank() % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (block.thread_rank() == 0) votes[blockIdx.x * 4 + 1] = active.size();
    if (block.thread_rank() == 3) votes[blockIdx.x * 4 + 2] = active.thread_rank();
  }
}
int main() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  int h[n], out[blocks], votes[blocks * 4];
  for (int i = 0; i < n; i++) h[i] = i % 17;
  int *din, *dout, *dv;
  CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, sizeof out)); CHECK(cudaMalloc(&dv, sizeof votes));
  CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dv, 0, sizeof votes));
  sum<<<blocks, threads>>>(din, dout, dv);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(votes, dv, sizeof votes, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < blocks; b++) {
    int ref = 0;
    for (int i = 0; i < threads; i++) ref += h[b * threads + i];
    printf("block %d sum %d ballot %x coalesced size %d rank %d\n", b, out[b], votes[b * 4], votes[b * 4 + 1], votes[b * 4 + 2]);
    ok &= out[b] == ref && votes[b * 4] == 0xff && votes[b * 4 + 1] == 11 && votes[b * 4 + 2] == 1;
  }
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
