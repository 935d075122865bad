// Divergence and reconvergence: nested if/else, loops with data-dependent
// trip counts, break and continue, early return, a switch, and a loop whose
// lanes leave at different iterations. Each thread writes a trace of the
// path it took; a final phase after reconvergence checks all lanes arrive.
#include "wcuda.h"

#define TRACE 16

extern "C" __global__ void paths(const int *in, int *trace, int *after, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int v = in[i];
  int *t = trace + i * TRACE;
  int k = 0;
  for (int z = 0; z < TRACE; z++) t[z] = 0;
  if (v & 1) {
    t[k++] = 1;
    if (v & 2) {
      t[k++] = 2;
    } else {
      t[k++] = 3;
      if (v & 4) t[k++] = 4;
    }
  } else {
    t[k++] = 5;
    if ((v >> 3) % 3 == 0) t[k++] = 6;
    else if ((v >> 3) % 3 == 1) t[k++] = 7;
    else t[k++] = 8;
  }
  int acc = 0;
  for (int j = 0; j < (v & 15); j++) {
    if (j == ((v >> 4) & 15)) { t[k < TRACE - 2 ? k++ : k] = 100 + j; break; }
    if ((j ^ v) & 1) continue;
    acc += j * j;
  }
  t[k++] = acc;
  switch ((v >> 8) & 3) {
    case 0: t[k++] = 20; break;
    case 1: t[k++] = 21;  // fall through
    case 2: t[k++] = 22; break;
    default: t[k++] = 23;
  }
  unsigned w = ((unsigned)v & 0xffffu) | 1u;
  int steps = 0;
  while (w != 1u && steps < 60) {  // Collatz: lanes leave at different iterations
    w = (w & 1u) ? 3u * w + 1u : w >> 1;
    steps++;
  }
  t[k++] = steps;
  if ((v & 0x30000) == 0x30000) return;  // early return for some lanes
  t[k++] = -1;
  after[i] = k;
}

// Warp-wide data flow after divergence: lanes diverge, then exchange.
extern "C" __global__ void reconverge(const int *in, int *out, int n) {
  __shared__ int s[256];
  int i = WCUDA_TID_X;
  int t = threadIdx.x;
  int v = in[i % n];
  int r;
  if (t % 4 == 0) r = v * 2;
  else if (t % 4 == 1) r = v - 7;
  else {
    r = 0;
    for (int j = 0; j < (t & 7); j++) r += v >> j;
  }
  s[t] = r;
  __syncthreads();
  if (i < n) out[i] = s[(t + 33) % blockDim.x] + r;
}
