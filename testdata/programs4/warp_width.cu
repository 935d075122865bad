// Warp intrinsics with a width, __activemask in divergent code,
// __match_all_sync, votes, and a segmented scan written with shfl_up.
#include <cstdio>

__global__ void shuffles(const int *in, int *out) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  int *o = out + threadIdx.x * 12;
  o[0] = __shfl_sync(0xffffffff, v, 3, 8);
  o[1] = __shfl_sync(0xffffffff, v, lane + 5, 16);
  o[2] = __shfl_up_sync(0xffffffff, v, 2, 8);
  o[3] = __shfl_down_sync(0xffffffff, v, 3, 4);
  o[4] = __shfl_xor_sync(0xffffffff, v, 5, 16);
  // segmented inclusive scan within groups of 8
  int s = v;
  for (int d = 1; d < 8; d <<= 1) {
    int y = __shfl_up_sync(0xffffffff, s, d, 8);
    if ((lane & 7) >= d) s += y;
  }
  o[5] = s;
  // reduction within 16 with xor
  int r = v;
  for (int d = 8; d; d >>= 1) r += __shfl_xor_sync(0xffffffff, r, d, 16);
  o[6] = r;
  unsigned am = 0;
  if (v & 1) am = __activemask();
  else if (lane < 20) am = __activemask() | 1u << 31;
  o[7] = (int)am;
  int pred;
  unsigned ma = __match_all_sync(0xffffffff, v >> 10, &pred);
  o[8] = (int)ma ^ pred;
  o[9] = -1;
  if (lane < 16) {
    unsigned mb = __match_all_sync(0x0000ffff, lane < 8 ? 42 : 42 + (v & 0), &pred);
    o[9] = (int)(mb + pred);
  }
  o[10] = (int)__ballot_sync(0xffffffff, v > 50) ^ __any_sync(0xffffffff, v == 7) ^ (__all_sync(0xffffffff, v >= 0) << 1);
  float f = __int_as_float(v * 0x10001 + 0x3f800000);
  o[11] = __float_as_int(__shfl_sync(0xffffffff, f, 31 - lane));
}

__global__ void partialMask(int *out) {
  int lane = threadIdx.x;
  if (lane < 24) {
    unsigned m = __ballot_sync(0x00ffffff, lane % 3 == 0);
    int x = __shfl_sync(0x00ffffff, lane * 10, (lane + 1) % 24);
    out[lane] = x + (int)__popc(m);
  }
}

int main() {
  int h[64], *d, *o, r[64 * 12];
  for (int i = 0; i < 64; i++) h[i] = (i * 37 + 11) % 101;
  h[5] = 7;
  for (int i = 32; i < 64; i++) h[i] = 1000 + (i & 1);
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof r);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  shuffles<<<1, 64>>>(d, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; t++) {
    printf("%2d:", t);
    for (int j = 0; j < 12; j++) printf(" %d", r[t * 12 + j]);
    printf("\n");
  }
  partialMask<<<1, 32>>>(o);
  cudaMemcpy(r, o, 24 * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 24; i++) printf("%d ", r[i]);
  printf("\n%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
