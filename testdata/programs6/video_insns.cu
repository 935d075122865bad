// Probe: PTX scalar video instructions (vadd, vsub, vabsdiff, vmin, vmax,
// vshl, vshr) with signed and unsigned types, .sat, .clamp/.wrap and the
// secondary .add/.min/.max, as CUB 1.x's SHR_ADD/SHL_ADD and user inline
// assembly use them, over edge-case operands. Prints every result in hex.
#include <cstdio>

#define V3(name, str) __device__ unsigned name(unsigned a, unsigned b) { unsigned d; asm(str " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
#define V4(name, str) __device__ unsigned name(unsigned a, unsigned b, unsigned c) { unsigned d; asm(str " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }

V4(shr_add, "vshr.u32.u32.u32.clamp.add")
V4(shl_add, "vshl.u32.u32.u32.clamp.add")
V3(shr_s_clamp, "vshr.s32.s32.u32.clamp")
V3(shr_s_wrap, "vshr.s32.s32.u32.wrap")
V3(shl_u_wrap, "vshl.u32.u32.u32.wrap")
V3(shl_s_sat, "vshl.s32.s32.u32.clamp.sat")
V3(shl_u_sat, "vshl.u32.u32.u32.clamp.sat")
V4(shl_s_max, "vshl.s32.s32.u32.wrap.max")
V3(add_uuu, "vadd.u32.u32.u32")
V3(add_sss_sat, "vadd.s32.s32.s32.sat")
V3(add_uus_sat, "vadd.u32.u32.s32.sat")
V3(add_suu_sat, "vadd.s32.u32.u32.sat")
V4(add_add, "vadd.u32.u32.u32.add")
V4(add_s_min, "vadd.s32.s32.s32.min")
V4(add_u_max, "vadd.u32.u32.u32.max")
V4(add_sat_add, "vadd.s32.s32.s32.sat.add")
V3(sub_uuu_sat, "vsub.u32.u32.u32.sat")
V3(sub_sss_sat, "vsub.s32.s32.s32.sat")
V4(sub_s_max, "vsub.s32.s32.s32.max")
V3(absdiff_s, "vabsdiff.s32.s32.s32")
V3(absdiff_u, "vabsdiff.u32.u32.u32")
V3(absdiff_ss_sat, "vabsdiff.s32.s32.s32.sat")
V4(absdiff_add, "vabsdiff.u32.s32.s32.add")
V3(min_su, "vmin.s32.s32.u32")
V3(min_us_sat, "vmin.u32.s32.u32.sat")
V3(max_ss, "vmax.s32.s32.s32")
V3(max_us_sat, "vmax.u32.u32.s32.sat")
V4(max_u_min, "vmax.u32.u32.u32.min")

#define NF 28
__global__ void probe(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * n) return;
  unsigned a = in[i / n], b = in[i % n], c = in[(i * 7 + 3) % n];
  unsigned* o = out + (size_t)i * NF;
  int k = 0;
  o[k++] = shr_add(a, b, c); o[k++] = shl_add(a, b, c); o[k++] = shr_s_clamp(a, b); o[k++] = shr_s_wrap(a, b);
  o[k++] = shl_u_wrap(a, b); o[k++] = shl_s_sat(a, b); o[k++] = shl_u_sat(a, b); o[k++] = shl_s_max(a, b, c);
  o[k++] = add_uuu(a, b); o[k++] = add_sss_sat(a, b); o[k++] = add_uus_sat(a, b); o[k++] = add_suu_sat(a, b);
  o[k++] = add_add(a, b, c); o[k++] = add_s_min(a, b, c); o[k++] = add_u_max(a, b, c); o[k++] = add_sat_add(a, b, c);
  o[k++] = sub_uuu_sat(a, b); o[k++] = sub_sss_sat(a, b); o[k++] = sub_s_max(a, b, c); o[k++] = absdiff_s(a, b);
  o[k++] = absdiff_u(a, b); o[k++] = absdiff_ss_sat(a, b); o[k++] = absdiff_add(a, b, c); o[k++] = min_su(a, b);
  o[k++] = min_us_sat(a, b); o[k++] = max_ss(a, b); o[k++] = max_us_sat(a, b); o[k++] = max_u_min(a, b, c);
}

int main() {
  const unsigned vals[] = {0u, 1u, 2u, 5u, 31u, 32u, 33u, 40u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffffeu, 0x12345678u, 0xdeadbeefu, 0x00010000u};
  const int n = sizeof vals / sizeof vals[0];
  unsigned *din, *dout;
  cudaMalloc(&din, sizeof vals);
  cudaMalloc(&dout, n * n * NF * 4);
  cudaMemcpy(din, vals, sizeof vals, cudaMemcpyHostToDevice);
  probe<<<(n * n + 63) / 64, 64>>>(din, dout, n);
  static unsigned h[16 * 16 * NF];
  cudaError_t e = cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s\n", cudaGetErrorString(e));
  for (int i = 0; i < n * n; i++) {
    printf("%08x %08x %08x:", vals[i / n], vals[i % n], vals[(i * 7 + 3) % n]);
    for (int k = 0; k < NF; k++) printf(" %08x", h[i * NF + k]);
    printf("\n");
  }
  return 0;
}
