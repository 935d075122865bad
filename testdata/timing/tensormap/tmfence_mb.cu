// tmfence_mb.cu: what a device-side tensor map costs on the H100 (Triton's make_tensor_descriptor): one warp,
// clock64 around 64 rounds of (kind 1) tensormap.replace of a 128-byte map in shared memory (13 fields, lane 0),
// (2) tensormap.cp_fenceproxy to global (release.gpu), (3) fence.proxy.tensormap::generic.acquire.gpu, (4) 2 + 3,
// (5) 1 + 2 + 3. Prints "tmfence kind=<k> cycles_per=<x>".
#include <cstdio>
#define ROUNDS 64

template <int K>
__global__ void k(long long *out, char *gmap, char *tensor) {
  __shared__ __align__(128) char smap[128];
  unsigned s = (unsigned)__cvta_generic_to_shared(smap);
  if (threadIdx.x < 32) ((unsigned *)smap)[threadIdx.x] = 0;
  __syncwarp();
  long long t0 = clock64();
  for (int r = 0; r < ROUNDS; r++) {
    if (K == 1 || K == 5) {
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
    }
    if (K == 2 || K == 4 || K == 5)
      asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(gmap), "r"(s) : "memory");
    if (K == 3 || K == 4 || K == 5)
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

int main() {
  long long *dout, h;
  char *gmap, *tensor;
  cudaMalloc(&dout, 8);
  cudaMalloc(&gmap, 1024);
  cudaMalloc(&tensor, 4 << 20);
  void (*ks[])(long long *, char *, char *) = {k<1>, k<2>, k<3>, k<4>, k<5>};
  for (int i = 0; i < 5; i++) {
    ks[i]<<<1, 32>>>(dout, gmap, tensor);
    ks[i]<<<1, 32>>>(dout, gmap, tensor);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, dout, 8, cudaMemcpyDeviceToHost);
    printf("tmfence kind=%d cycles_per=%.2f %s\n", i + 1, (double)h / ROUNDS, e ? cudaGetErrorName(e) : "");
  }
  return 0;
}
