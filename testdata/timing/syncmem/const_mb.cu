// const_mb.cu: what a constant-cache miss costs on the H100, with %clock64 in the kernel. One thread (of each
// block) follows a chain through a 64 KiB __constant__ array: `steps` loads `stride` bytes apart (each the index
// of the next), then the same chain again; cycles a load for the first pass (cold) and the second (warm).
// Launched right after cudaMemcpyToSymbol (l2=1: the array in the L2), after the L2 was flushed (l2=0: in DRAM),
// and again at once (l2=2: whatever the SMs and the L2 kept from the launch before), on 1 block and on 132 (one an
// SM). Prints "const stride=<bytes> steps=<n> blocks=<b> l2=<0|1|2> cold=<cycles a load> warm=<..>".
#include "common.h"

#define WORDS 16384
__constant__ unsigned ctab[WORDS];

__global__ void k_const(long long *st, unsigned *sink, int steps) {
  unsigned j = 0;
  long long t0 = stamp();
  for (int i = 0; i < steps; i++) j = ctab[j];
  long long t1 = stamp();
  for (int i = 0; i < steps; i++) j = ctab[j];
  long long t2 = stamp();
  if (threadIdx.x == 0) {
    st[2 * blockIdx.x] = t1 - t0;
    st[2 * blockIdx.x + 1] = t2 - t1;
  }
  if (j == 0xffffffff) sink[0] = j;
}

int main() {
  long long *st;
  unsigned *sink, h[WORDS];
  CHECK(cudaMalloc(&st, 2 * 132 * sizeof(long long)));
  CHECK(cudaMalloc(&sink, 4));
  int cfg[][2] = {{4, 16}, {32, 16}, {64, 16}, {128, 16}, {256, 16}, {2048, 16}, {256, 64}, {1024, 64}};
  for (auto &c : cfg) {
    int sw = c[0] / 4;
    for (int i = 0; i < WORDS; i++) h[i] = 0;
    for (int i = 0; i < c[1]; i++) h[(i * sw) % WORDS] = ((i + 1) % c[1]) * sw % WORDS;
    for (int blocks = 1; blocks <= 132; blocks += 131)
      for (int l2o = 0; l2o < 3; l2o++) {
        int l2 = l2o == 0 ? 1 : l2o == 1 ? 0 : 2;
        if (l2 == 1) CHECK(cudaMemcpyToSymbol(ctab, h, sizeof h));  // the array in the L2, no SM has read it
        if (l2 == 0) flush();                                        // in DRAM
        // l2 == 2: launched again right after the l2 == 0 launch (does an SM keep its constants across launches?)
        k_const<<<blocks, 32>>>(st, sink, c[1]);
        CHECK(cudaDeviceSynchronize());
        long long r[2 * 132], cold = 0, warm = 0;
        CHECK(cudaMemcpy(r, st, 2 * blocks * sizeof(long long), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) {
          cold = r[2 * b] > cold ? r[2 * b] : cold;
          warm = r[2 * b + 1] > warm ? r[2 * b + 1] : warm;
        }
        printf("const stride=%d steps=%d blocks=%d l2=%d cold=%.1f warm=%.1f\n", c[0], c[1], blocks, l2,
               cold / (double)c[1], warm / (double)c[1]);
      }
  }
  return 0;
}
