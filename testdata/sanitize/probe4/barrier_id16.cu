// Named barrier misuse: barrier id 16 (the H100 has 16 barriers, 0-15),
// from a register.
#include "common.h"

__global__ void id16(int *out, int id) {
  int t = threadIdx.x;
  barSync(id, 64);
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  id16<<<1, 64>>>(out, 16);
  waitLaunch("id16");
  return 0;
}
