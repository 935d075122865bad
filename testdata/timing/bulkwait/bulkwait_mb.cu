// bulkwait_mb.cu: what a bulk store's group wait costs on the H100: one warp, lane 0 issuing, 16 rounds of
//   MODE 0: a TMA store (cp.async.bulk.tensor.2d.global.shared::cta.bulk_group, a 32x32 f32 box, 4 KiB, through a
//           tensor map this kernel made once before the rounds, as Triton's make_tensor_descriptor does), then
//           cp.async.bulk.commit_group, cp.async.bulk.wait_group.read 0 (the source read), then
//           cp.async.bulk.wait_group 0 (the writes done);
//   MODE 1: the same, with a new tensor map made every round before the store (13 tensormap.replace by lane 0,
//           tensormap.cp_fenceproxy, fence.proxy.tensormap acquire), as each of Triton's TMA kernels' blocks does;
//   MODE 2: a non-tensor bulk store (cp.async.bulk.global.shared::cta.bulk_group, 4 KiB), the same waits.
//   MODE 3: MODE 0 with no wait_group.read (wait_group 0 alone).
// clock64 before the store (after the map, in MODE 1), after wait_group.read and after wait_group; prints
// "bulkwait mode=<m> blocks=<b> first_read=<c> first_write=<c> read=<c> write=<c> map=<c> first_map=<c>"
// (first: round 0; the others: the mean of rounds 1-15; read: store to wait_group.read done; write: wait_group.read
// done to wait_group done; map: the tensor map's making, MODE 1) of block 0, the kernel's second launch.
#include <cstdio>
#define ROUNDS 16

__device__ __forceinline__ void make_map(unsigned s, char *tensor, char *gmap) {
  if (threadIdx.x == 0) {
    asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(s), "l"(tensor) : "memory");
    asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, 32;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, 32;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, 1024;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, 1024;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, 4096;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, 1;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 1;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 7;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(s) : "memory");
    asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(s) : "memory");
  }
  __syncwarp();
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(gmap), "r"(s) : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
}

template <int MODE>
__global__ void k_store(long long *out, char *gmaps, char *tensors) {
  __shared__ __align__(1024) char tile[4096];
  __shared__ __align__(128) char smap[128];
  char *gmap = gmaps + blockIdx.x * 128, *tensor = tensors + blockIdx.x * (4 << 20);
  unsigned s = (unsigned)__cvta_generic_to_shared(smap), t = (unsigned)__cvta_generic_to_shared(tile);
  for (int i = threadIdx.x; i < 1024; i += 32) ((float *)tile)[i] = i;
  ((unsigned *)smap)[threadIdx.x] = 0;
  __syncwarp();
  if (MODE != 2 && MODE != 1) make_map(s, tensor, gmap);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  long long m0 = 0, m1 = 0;
  for (int r = 0; r < ROUNDS; r++) {
    if (MODE == 1) {
      m0 = clock64();
      make_map(s, tensor, gmap);
      m1 = clock64();
    }
    long long t0 = clock64();
    if (threadIdx.x == 0) {
      if (MODE == 2)
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;" ::"l"(tensor + r * 8192), "r"(t) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(gmap), "r"(0), "r"(r * 32), "r"(t) : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      if (MODE != 3) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    long long t2 = clock64();
    __syncwarp();
    if (threadIdx.x == 0) {
      long long *o = out + blockIdx.x * 3 * ROUNDS + 3 * r;
      o[0] = t1 - t0, o[1] = t2 - t1, o[2] = m1 - m0;
    }
  }
}

int main() {
  long long *dout, h[3 * ROUNDS];
  char *gmaps, *tensors;
  cudaMalloc(&dout, 132 * 3 * ROUNDS * 8);
  cudaMalloc(&gmaps, 132 * 128);
  cudaMalloc(&tensors, (size_t)132 * (4 << 20));
  void (*ks[])(long long *, char *, char *) = {k_store<0>, k_store<1>, k_store<2>, k_store<3>};
  int grids[] = {1, 132};
  for (int g = 0; g < 2; g++)
    for (int m = 0; m < 4; m++) {
      ks[m]<<<grids[g], 32>>>(dout, gmaps, tensors);
      ks[m]<<<grids[g], 32>>>(dout, gmaps, tensors);
      cudaError_t e = cudaDeviceSynchronize();
      cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
      double rd = 0, wr = 0, mp = 0;
      for (int r = 1; r < ROUNDS; r++) rd += h[3 * r], wr += h[3 * r + 1], mp += h[3 * r + 2];
      printf("bulkwait mode=%d blocks=%d first_read=%lld first_write=%lld read=%.1f write=%.1f map=%.1f first_map=%lld %s\n", m,
             grids[g], h[0], h[1], rd / (ROUNDS - 1), wr / (ROUNDS - 1), mp / (ROUNDS - 1), h[2], e ? cudaGetErrorName(e) : "");
    }
  return 0;
}
