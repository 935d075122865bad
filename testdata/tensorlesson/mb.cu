// Tensor-pipe microbenchmarks: per warp, ITERS x ILP mma.sync instructions in
// ILP independent accumulator chains (ILP=1: a dependent chain), one block of
// W warps on one SM (W = 1..32, i.e. up to 8 warps per SM sub-partition).
// clock64() around the loop gives cycles per warp; prints, per shape, ILP and
// W: the slowest warp's cycles, cycles per instruction per warp, and the SM
// sub-partition issue interval (cycles per instruction per SMSP).
// Also ldmatrix.x4 throughput. Usage: mb [quick] (quick: for ncu, warps 4 and 32, one launch each)
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
#define ITERS 256

// MMA kernel generator: DT is the accumulator element type, NA/NB/ND the
// register counts of A, B and D, ASM the instruction with D at %0.., A, B after.
#define F4 "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
#define R4 "+r"(d[j][0]), "+r"(d[j][1]), "+r"(d[j][2]), "+r"(d[j][3])
#define A4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define A2 "r"(a[0]), "r"(a[1])
#define B2 "r"(b[0]), "r"(b[1])
#define B1 "r"(b[0])
#define KERNEL(NAME, DT, ND, ASM, ...) \
template <int ILP> __global__ void NAME(const unsigned* in, unsigned* out, long long* cyc) { \
  unsigned a[4], b[2]; for (int i = 0; i < 4; i++) a[i] = in[i]; for (int i = 0; i < 2; i++) b[i] = in[4 + i]; \
  DT d[ILP][ND]; for (int j = 0; j < ILP; j++) for (int r = 0; r < ND; r++) d[j][r] = (DT)0; \
  double x[ILP][2], xa = (double)in[6], xb = (double)in[7]; for (int j = 0; j < ILP; j++) x[j][0] = x[j][1] = 0.0; \
  __syncthreads(); long long t0 = clock64(); \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { \
    _Pragma("unroll") for (int j = 0; j < ILP; j++) asm volatile(ASM : __VA_ARGS__); } \
  long long t1 = clock64(); \
  unsigned s = 0; for (int j = 0; j < ILP; j++) { for (int r = 0; r < ND; r++) s += (unsigned)d[j][r]; s += (unsigned)(x[j][0] + x[j][1]); } \
  out[blockIdx.x*blockDim.x + threadIdx.x] = s + (unsigned)xa + (unsigned)xb; if (threadIdx.x % 32 == 0) cyc[threadIdx.x/32] = t1 - t0; }

KERNEL(mma_f16_f32_m16n8k16, float, 4, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", F4 : A4, B2)
KERNEL(mma_bf16_f32_m16n8k16, float, 4, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", F4 : A4, B2)
KERNEL(mma_f16_f16_m16n8k16, unsigned, 2, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};", "+r"(d[j][0]), "+r"(d[j][1]) : A4, B2)
KERNEL(mma_f16_f32_m16n8k8, float, 4, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};", F4 : A2, B1)
KERNEL(mma_tf32_f32_m16n8k8, float, 4, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", F4 : A4, B2)
KERNEL(mma_s8_s32_m16n8k32, int, 4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", R4 : A4, B2)
KERNEL(mma_f64_m8n8k4, float, 1, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};", "+d"(x[j][0]), "+d"(x[j][1]) : "d"(xa), "d"(xb))

// ldmatrix.x4 throughput: ILP independent loads per iteration, one xor each.
template <int ILP> __global__ void ldmatrix_x4(const unsigned* in, unsigned* out, long long* cyc) {
  __shared__ __align__(16) unsigned short sm[32*8*ILP*4];
  for (int i = threadIdx.x; i < 32*8*ILP*4; i += blockDim.x) sm[i] = (unsigned short)in[i % 8];
  __syncthreads();
  unsigned base; asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(base) : "l"(sm));
  unsigned acc = 0; long long t0 = clock64();
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) {
    _Pragma("unroll") for (int j = 0; j < ILP; j++) {
      unsigned r0, r1, r2, r3;
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
          : "r"(base + (unsigned)(((threadIdx.x % 32) + 32*j)*16)));
      acc ^= r0 + r3; } }
  long long t1 = clock64();
  out[blockIdx.x*blockDim.x + threadIdx.x] = acc; if (threadIdx.x % 32 == 0) cyc[threadIdx.x/32] = t1 - t0;
}

typedef void (*kfn)(const unsigned*, unsigned*, long long*);
unsigned* din; unsigned* dout; long long* dcyc;
bool quick; // under ncu: warps 4 and 32 only, one launch each
void bench(const char* name, kfn k, int ilp) {
  const int ws[7] = {1, 2, 4, 8, 16, 24, 32};
  for (int wi = 0; wi < 7; wi++) { int w = ws[wi]; if (quick && w != 4 && w != 32) continue;
    CK(cudaMemset(dcyc, 0, 32*8));
    if (!quick) { k<<<1, 32*w>>>(din, dout, dcyc); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
    k<<<1, 32*w>>>(din, dout, dcyc); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    long long c[32]; CK(cudaMemcpy(c, dcyc, 32*8, cudaMemcpyDeviceToHost));
    long long mx = 0; for (int i = 0; i < w; i++) if (c[i] > mx) mx = c[i];
    double n = (double)ITERS*ilp; int per = (w + 3) / 4;
    printf("%-24s ilp=%d warps=%2d cycles=%8lld cyc_per_inst_per_warp=%7.2f smsp_issue_interval=%6.2f\n",
           name, ilp, w, mx, mx / n, mx / (n*per));
  }
}
#define B(K) bench(#K, K<1>, 1); bench(#K, K<2>, 2); bench(#K, K<4>, 4); bench(#K, K<8>, 8);
int main(int argc, char** argv) {
  quick = argc > 1;
  unsigned h[8] = {0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 1u, 1u};
  CK(cudaMalloc(&din, 64)); CK(cudaMalloc(&dout, 4096*4)); CK(cudaMalloc(&dcyc, 32*8));
  CK(cudaMemcpy(din, h, 32, cudaMemcpyHostToDevice));
  B(mma_f16_f32_m16n8k16) B(mma_bf16_f32_m16n8k16) B(mma_f16_f16_m16n8k16) B(mma_f16_f32_m16n8k8)
  B(mma_tf32_f32_m16n8k8) B(mma_s8_s32_m16n8k32) B(mma_f64_m8n8k4) B(ldmatrix_x4)
  return 0;
}
