// Warp-level primitives of sm_80+: __reduce_add_sync / min / max (signed and
// unsigned) / and / or / xor over full and partial masks, __match_any_sync
// and __match_all_sync grouping lanes by key (as in a warp-aggregated
// histogram), with divergence, __activemask and cooperative-groups
// reduce() on a tile.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void reduces(const int* in, unsigned* out) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int v = in[threadIdx.x];
  unsigned* o = out + w * 16;
  o[0] = __reduce_add_sync(0xffffffffu, (unsigned)v);
  o[1] = (unsigned)__reduce_min_sync(0xffffffffu, v);
  o[2] = (unsigned)__reduce_max_sync(0xffffffffu, v);
  o[3] = __reduce_min_sync(0xffffffffu, (unsigned)v);
  o[4] = __reduce_max_sync(0xffffffffu, (unsigned)v);
  o[5] = __reduce_and_sync(0xffffffffu, (unsigned)v | 0x10u);
  o[6] = __reduce_or_sync(0xffffffffu, (unsigned)v & 0xf0f0u);
  o[7] = __reduce_xor_sync(0xffffffffu, (unsigned)v);
  if (lane % 3 == 0) {  // divergent subset
    unsigned m = __activemask();
    o[8] = m;
    o[9] = __reduce_add_sync(m, (unsigned)v);
    o[10] = (unsigned)__reduce_max_sync(m, -v);
  }
  unsigned key = (unsigned)v % 5;
  unsigned peers = __match_any_sync(0xffffffffu, key);
  int pred;
  unsigned all = __match_all_sync(0xffffffffu, key < 5 ? 1u : 0u, &pred);
  // warp-aggregated count: the leader of each key group adds the group size
  if (lane == __ffs(peers) - 1) atomicAdd(&out[64 + key], __popc(peers));
  if (lane == 0) { o[11] = all; o[12] = pred; }
  if (lane == 5) o[13] = peers;
  unsigned long long k64 = (unsigned long long)(v & 3) << 40;
  unsigned p64 = __match_any_sync(0xffffffffu, k64);
  if (lane == 31) o[14] = p64;
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int s = cg::reduce(tile, v, cg::plus<int>());
  int mx = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) atomicXor(&o[15], (unsigned)s * 2654435761u + (unsigned)mx);
}

int main() {
  int h[128];
  for (int i = 0; i < 128; i++) h[i] = (int)((i * 2654435761u) >> 7) % 2000 - 1000 + (i == 77 ? -2147483647 : 0);
  int* d; unsigned* o; unsigned r[80];
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&o, sizeof r));
  CHECK(cudaMemset(o, 0, sizeof r));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  reduces<<<1, 128>>>(d, o);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  for (int w = 0; w < 4; w++) {
    printf("warp %d:", w);
    for (int j = 0; j < 16; j++) printf(" %08x", r[w * 16 + j]);
    printf("\n");
  }
  printf("key counts: %u %u %u %u %u\n", r[64], r[65], r[66], r[67], r[68]);
  return 0;
}
