// Cooperative groups as CUDA 12 offers them: thread_group, dynamic and
// static tiles (of tiles), tile shuffles of a struct, match, meta groups,
// coalesced groups, binary_partition, labeled_partition, cg::reduce over a
// coalesced group, inclusive and exclusive scans, memcpy_async, tiles of 64
// threads, block_tile_memory and invoke_one. Prints one line per check.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

struct Pair { int a; float b; short c; };

__device__ int rank_in(const cg::thread_group &g) { return (int)g.thread_rank(); }

__global__ void groups(int *out) {
  __shared__ cg::block_tile_memory<128> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  int t = block.thread_rank();
  int *o = out + t * 32;
  // Dynamic tiles of a thread_group and of a tile.
  cg::thread_group tile32 = cg::tiled_partition(block, 32);
  cg::thread_group tile4 = cg::tiled_partition(tile32, 4);
  o[0] = (int)tile32.size();
  o[1] = rank_in(tile4);
  o[2] = (int)tile4.size();
  tile4.sync();
  // Static tiles of a tile, and their meta groups.
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
  o[3] = t16.meta_group_rank();
  o[4] = t16.meta_group_size();
  o[5] = t4.meta_group_rank();
  o[6] = t4.meta_group_size();
  // Shuffles of a struct in a tile.
  Pair p = {t, t * 0.5f, (short)(t * 3)};
  Pair q = t16.shfl_xor(p, 5);
  Pair r = t16.shfl_down(p, 3);
  Pair s = t16.shfl_up(p, 2);
  Pair u = t16.shfl(p, 7);
  o[7] = q.a + (int)(q.b * 2) + q.c;
  o[8] = r.a * 1000 + s.a * 10 + u.c;
  // Votes and matches.
  o[9] = (int)t16.ballot(t % 3 == 0);
  o[10] = t16.any(t == 5) + 2 * t16.all(t < 1000);
  o[11] = (int)t16.match_any(t % 4);
  int pred = 0;
  o[12] = (int)t4.match_all(t / 4, pred);
  o[13] = pred;
  // Coalesced groups, binary and labeled partitions.
  if (t % 3 != 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[14] = active.size();
    o[15] = active.thread_rank();
    o[16] = active.shfl(t, 2);
    o[17] = active.shfl_down(t, 1);
    o[18] = active.shfl_up(t, 1);
    o[19] = (int)active.ballot(t & 1);
    o[20] = cg::reduce(active, t, cg::plus<int>());
    o[21] = cg::inclusive_scan(active, 1);
    cg::coalesced_group odd = cg::binary_partition(active, t & 1);
    o[22] = odd.size() * 100 + odd.thread_rank();
    cg::coalesced_group same = cg::labeled_partition(active, t % 5);
    o[23] = same.size() * 100 + same.thread_rank();
    o[24] = cg::reduce(same, t, cg::greater<int>());
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  o[25] = cg::inclusive_scan(warp, t);
  o[26] = cg::exclusive_scan(warp, t % 7, cg::plus<int>());
  o[27] = cg::reduce(warp, t, cg::less<int>()) + cg::reduce(warp, t, cg::bit_xor<int>());
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(warp);
  o[28] = cg::reduce(t8, t, cg::plus<int>());
  // A tile of 64 threads: sync and ranks.
  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  __shared__ int stage[128];
  stage[t] = t * t;
  t64.sync();
  o[29] = stage[(t64.meta_group_rank() * 64) + (63 - t64.thread_rank())] + t64.meta_group_rank() * 100000;
  // memcpy_async into shared memory, then wait.
  __shared__ int copy[128];
  cg::memcpy_async(block, copy, out + 128 * 32, sizeof(int) * 128);
  cg::wait(block);
  o[30] = copy[127 - t];
  int one = cg::invoke_one_broadcast(warp, [&] { return 40 + (int)warp.meta_group_rank(); });
  o[31] = one;
}

int main() {
  const int threads = 128, n = threads * 32 + 128;
  int *d, h[n];
  for (int i = 0; i < 128; i++) h[threads * 32 + i] = 7 * i;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemset(d, 0, sizeof h));
  CHECK(cudaMemcpy(d + threads * 32, h + threads * 32, 128 * sizeof(int), cudaMemcpyHostToDevice));
  groups<<<1, threads>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; t++) {
    printf("t%3d:", t);
    for (int k = 0; k < 32; k++) printf(" %d", h[t * 32 + k]);
    printf("\n");
  }
  printf("Test PASSED\n");
  return 0;
}
