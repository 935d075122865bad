// Cooperative groups: tiled_partition<16>, cg::reduce, cg::inclusive_scan,
// exclusive_scan, labeled_partition, binary_partition, coalesced_threads.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *out, int *blockSums) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = in[block.group_index().x * block.size() + block.thread_rank()];
  int *o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 10;
  o[0] = cg::reduce(t16, v, cg::plus<int>());
  o[1] = cg::reduce(warp, v, cg::greater<int>());
  o[2] = cg::reduce(t16, v, cg::bit_xor<int>());
  o[3] = cg::inclusive_scan(t16, v);
  o[4] = cg::exclusive_scan(warp, v, cg::bit_or<int>());
  cg::coalesced_group lab = cg::labeled_partition(warp, v % 4);
  o[5] = lab.size() * 100 + lab.thread_rank();
  o[6] = cg::reduce(lab, v, cg::plus<int>());
  cg::coalesced_group bin = cg::binary_partition(warp, v > 40);
  o[7] = cg::inclusive_scan(bin, 1) + 1000 * bin.meta_group_rank();
  if (v & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    o[8] = odd.thread_rank() + 100 * odd.size();
    o[9] = odd.shfl(v, 0);
  } else {
    o[8] = -1;
    o[9] = t16.meta_group_rank() + 10 * t16.meta_group_size() + 100 * t16.thread_rank();
  }
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
  int s4 = cg::reduce(t4, v, cg::plus<int>());
  __shared__ int acc;
  if (block.thread_rank() == 0) acc = 0;
  block.sync();
  if (t4.thread_rank() == 0) atomicAdd(&acc, s4);
  block.sync();
  if (block.thread_rank() == 0) blockSums[blockIdx.x] = acc;
}

int main() {
  const int N = 2 * 128;
  int h[N], *d, *o, *bs, r[N * 10], hb[2];
  for (int i = 0; i < N; i++) h[i] = (i * 73 + 19) % 97;
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof r); cudaMalloc(&bs, sizeof hb);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  tiles<<<2, 128>>>(d, o, bs);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, bs, sizeof hb, cudaMemcpyDeviceToHost);
  unsigned long long ck = 0;
  for (int t = 0; t < N; t++) {
    if (t < 40 || t % 37 == 0) {
      printf("%3d:", t);
      for (int j = 0; j < 10; j++) printf(" %d", r[t * 10 + j]);
      printf("\n");
    }
    for (int j = 0; j < 10; j++) ck = ck * 31 + (unsigned)r[t * 10 + j];
  }
  printf("block sums %d %d checksum %016llx\n", hb[0], hb[1], ck);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
