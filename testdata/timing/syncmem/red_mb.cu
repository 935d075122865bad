// red_mb.cu: how fast a loop of red.global runs on the H100 (back-pressure from the L2's atomic units), with
// %clock64 in the kernel and the kernel's duration from CUDA events.
// k_red<MODE>: every thread runs ITERS red.global.add (a different address in every lane, so ptxas cannot
// aggregate the warp's updates) to
//   MODE 0 own    its warp's own 128-byte line, the same every iteration (u32)
//   MODE 1 lines  a line of its own (each lane 128 bytes apart: 32 lines a warp instruction), the same every time
//   MODE 2 stream a new line every iteration (coalesced), over a 16 MiB region
//   MODE 3 shared the same 32 words for every warp of the grid
//   MODE 4 ownf   as own, red.global.add.f32
// Prints "red mode=<m> <name> blocks=<b> warps=<w> cycles_per=<slowest warp's cycles a red> ns=<duration>".
#include "common.h"

#define ITERS 256

template <int MODE>
__global__ void k_red(unsigned *buf, long long *st) {
  unsigned lane = threadIdx.x & 31, g = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned nw = gridDim.x * blockDim.x / 32;
  __syncthreads();
  long long t0 = stamp();
  for (int i = 0; i < ITERS; i++) {
    unsigned *a;
    if (MODE == 0 || MODE == 4) a = buf + g * 32 + lane;
    if (MODE == 1) a = buf + (g * 32 + lane) * 32;
    if (MODE == 2) a = buf + (((unsigned)i * nw + g) & ((1u << 17) - 1)) * 32 + lane;
    if (MODE == 3) a = buf + lane;
    if (MODE == 4)
      asm volatile("red.global.add.f32 [%0], %1;" ::"l"(a), "f"((float)lane) : "memory");
    else
      asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(lane + 1) : "memory");
  }
  long long t1 = stamp();
  if (lane == 0) st[g] = t1 - t0;
}

int main() {
  unsigned *buf;
  long long *st;
  CHECK(cudaMalloc(&buf, 16 << 20));
  CHECK(cudaMalloc(&st, 132 * 16 * sizeof(long long)));
  CHECK(cudaMemset(buf, 0, 16 << 20));
  void (*ks[])(unsigned *, long long *) = {k_red<0>, k_red<1>, k_red<2>, k_red<3>, k_red<4>};
  const char *names[] = {"own", "lines", "stream", "shared", "ownf"};
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int cfg[][2] = {{1, 1}, {1, 4}, {1, 16}, {132, 1}, {132, 4}, {132, 16}};
  for (int m = 0; m < 5; m++)
    for (auto &c : cfg) {
      float ms = 0;
      for (int rep = 0; rep < 2; rep++) {
        flush();
        cudaEventRecord(e0);
        ks[m]<<<c[0], 32 * c[1]>>>(buf, st);
        cudaEventRecord(e1);
        CHECK(cudaDeviceSynchronize());
        cudaEventElapsedTime(&ms, e0, e1);
      }
      long long h[132 * 16], w = 0;
      CHECK(cudaMemcpy(h, st, c[0] * c[1] * sizeof(long long), cudaMemcpyDeviceToHost));
      for (int i = 0; i < c[0] * c[1]; i++) w = h[i] > w ? h[i] : w;
      printf("red mode=%d %s blocks=%d warps=%d cycles_per=%.2f ns=%.0f\n", m, names[m], c[0], c[1], w / (double)ITERS,
             ms * 1e6);
    }
  return 0;
}
