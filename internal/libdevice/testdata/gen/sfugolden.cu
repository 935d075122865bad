// sfugolden.cu: what the H100 returns for each PTX .approx instruction that
// sfu.go models, on 2048 inputs each (specials, then pseudo-random bit
// patterns over every exponent and sign, then random values in [2^-8, 2^8)),
// written as sfu_golden.bin: per op, uint32 op, uint32 n, then n (input,
// output) pairs (u32 for f32 ops, u64 for f64 ops), little-endian.
// It then checks sfu.go's rules exhaustively on the GPU, against tables it
// records itself: lg2.approx.ftz.f32 and rsqrt.approx.ftz.f32 on every positive
// normal f32, lg2.approx.f32 on every subnormal, sin/cos.approx.f32 on every
// finite f32; it prints the number of mismatches.
// Build: nvcc -O3 -arch=sm_90 -o sfugolden sfugolden.cu; run: ./sfugolden OUTFILE
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define NOPS 16

__device__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return x;
}

__device__ unsigned int in32(int op, int i) {
  const unsigned int sp[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc01234,
                             0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x3f800000,
                             0xbf800000, 0x7f7fffff, 0xff7fffff, 0x3f000000, 0x40000000, 0x40400000, 0x407fffff,
                             0x3f7fffff, 0x3f800001, 0x40490fdb, 0x3fc90fdb, 0x42c80000, 0x4b000000, 0x4f000000};
  const int nsp = sizeof(sp) / sizeof(sp[0]);
  if (i < nsp) return sp[i];
  unsigned long long h = mix((unsigned long long)op << 32 | i);
  if (i < N * 3 / 4) return (unsigned int)h;
  int e = 119 + (int)((h >> 32) % 16);
  return (unsigned int)(h & 0x807fffff) | (e << 23);
}

__device__ unsigned long long in64(int op, int i) {
  const unsigned long long sp[] = {0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                                   0x7ff0000000000001ull, 1, 0x000fffffffffffffull, 0x0010000000000000ull,
                                   0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7fefffffffffffffull,
                                   0x4000000000000000ull, 0x400fffffffffffffull, 0x3fefffffffffffffull};
  const int nsp = sizeof(sp) / sizeof(sp[0]);
  if (i < nsp) return sp[i];
  unsigned long long h = mix((unsigned long long)op << 32 | i);
  if (i < N * 3 / 4) return h;
  int e = 1015 + (int)((h >> 52) % 16);
  return (h & 0x800fffffffffffffull) | ((unsigned long long)e << 52);
}

#define F1(name, ins) __device__ float name(float x) { float r; asm(ins " %0, %1;" : "=f"(r) : "f"(x)); return r; }
F1(rsqF, "rsqrt.approx.ftz.f32") F1(rsqN, "rsqrt.approx.f32") F1(lg2F, "lg2.approx.ftz.f32") F1(lg2N, "lg2.approx.f32")
F1(sinF, "sin.approx.ftz.f32") F1(sinN, "sin.approx.f32") F1(cosF, "cos.approx.ftz.f32") F1(cosN, "cos.approx.f32")
F1(ex2F, "ex2.approx.ftz.f32") F1(ex2N, "ex2.approx.f32") F1(rcpF, "rcp.approx.ftz.f32") F1(rcpN, "rcp.approx.f32")
#define D1(name, ins) __device__ double name(double x) { double r; asm(ins " %0, %1;" : "=d"(r) : "d"(x)); return r; }
D1(rsqD, "rsqrt.approx.ftz.f64") D1(rsqDN, "rsqrt.approx.f64") D1(rcpD, "rcp.approx.ftz.f64")

// ops 0..11 f32, 12..14 f64 (op 15 unused)
__global__ void k(unsigned long long* in, unsigned long long* out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= 15 * N) return;
  int op = g / N, i = g % N;
  if (op < 12) {
    unsigned int xb = in32(op, i);
    float x = __int_as_float(xb), r;
    switch (op) {
      case 0: r = rsqF(x); break; case 1: r = rsqN(x); break; case 2: r = lg2F(x); break; case 3: r = lg2N(x); break;
      case 4: r = sinF(x); break; case 5: r = sinN(x); break; case 6: r = cosF(x); break; case 7: r = cosN(x); break;
      case 8: r = ex2F(x); break; case 9: r = ex2N(x); break; case 10: r = rcpF(x); break; default: r = rcpN(x); break;
    }
    in[g] = xb;
    out[g] = (unsigned int)__float_as_int(r);
  } else {
    unsigned long long xb = in64(op, i);
    double x = __longlong_as_double(xb), r;
    switch (op) { case 12: r = rsqD(x); break; case 13: r = rsqDN(x); break; default: r = rcpD(x); break; }
    in[g] = xb;
    out[g] = __double_as_longlong(r);
  }
}

// ---- exhaustive checks of sfu.go's rules ----
#define INV2PI __int_as_float(0x3e22f983)
__device__ unsigned int frac25(float t) {
  unsigned int b = __float_as_int(t) & 0x7fffffff;
  int e = b >> 23;
  if (e == 0) return 0;
  unsigned long long m = (b & 0x7fffff) | 0x800000;
  int sh = e - 125;
  if (sh >= 25) return 0;
  if (sh >= 0) return (unsigned int)((m << sh) & 0x1ffffff);
  if (sh > -32) return (unsigned int)(m >> -sh);
  return 0;
}
__device__ float findX(unsigned int s) {
  if (s == 0) return 0.0f;
  float x = (float)(((double)s + 0.5) * 0x1p-25 / (double)INV2PI);
  for (int k = 0; k < 16; k++) {
    unsigned int s2 = frac25(__fmul_rz(x, INV2PI));
    if (s2 == s) return x;
    x = s2 < s ? nextafterf(x, 1e30f) : nextafterf(x, 0.0f);
  }
  return -1.0f;
}
__global__ void buildTabs(float* A, float* B, float* R, float* S) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << 24)) return;
  R[i] = rsqF(__int_as_float(0x3f800000 + i));
  if (i < (1u << 23)) {
    A[i] = lg2F(__int_as_float(0x3f800000 | i));
    B[i] = lg2F(__int_as_float(0x3f000000 | i));
    S[i] = sinN(findX(i));
  }
}
__device__ void miss(unsigned long long* bad, int which, unsigned int x, unsigned int got, unsigned int want) {
  unsigned long long n = atomicAdd(bad + which, 1ull);
  if (n < 4) {
    unsigned int* f = (unsigned int*)(bad + 8) + 12 * which + 3 * n;
    f[0] = x; f[1] = got; f[2] = want;
  }
}
__global__ void checkAll(const float* A, const float* B, const float* R, const float* S, unsigned long long* bad) {
  for (unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; g < (1ull << 32);
       g += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned int xb = (unsigned int)g;
    float x = __int_as_float(xb);
    int ex = (xb >> 23) & 0xff;
    if (ex == 255) continue;
    if (!(xb >> 31) && ex != 0) {
      int e = ex - 127;
      unsigned int m = xb & 0x7fffff;
      float want;
      if (e == 0) want = A[m];
      else if (e == -1) want = B[m];
      else if (e > 0) want = __double2float_rz((double)e + (double)A[m]);
      else want = __double2float_rz((double)(e + 1) + (double)B[m]);
      float got = lg2F(x);
      if (__float_as_int(got) != __float_as_int(want)) miss(bad, 0, xb, __float_as_int(got), __float_as_int(want));
      int p = e & 1;
      want = ldexpf(R[(p << 23) | m], -(e - p) / 2);
      got = rsqF(x);
      if (__float_as_int(got) != __float_as_int(want)) miss(bad, 1, xb, __float_as_int(got), __float_as_int(want));
    }
    if (!(xb >> 31) && ex == 0 && xb != 0) {
      float want = __fadd_rn(lg2F(x * 16777216.0f), -24.0f), got = lg2N(x);
      if (__float_as_int(got) != __float_as_int(want)) miss(bad, 2, xb, __float_as_int(got), __float_as_int(want));
    }
    float t = __fmul_rz(x, INV2PI);
    for (int c = 0; c < 2; c++) {
      unsigned int s = frac25(t);
      if (c) s = (s + (1u << 23)) & 0x1ffffff;
      unsigned int q = s >> 23, u = s & 0x7fffff;
      if (q & 1) u = 0x7fffff - u;
      unsigned int d = __float_as_int(S[u]);
      if (q >= 2) d ^= 0x80000000;
      if (!c) d ^= __float_as_int(t) & 0x80000000;
      unsigned int got = __float_as_int(c ? cosN(x) : sinN(x));
      unsigned int gotF = __float_as_int(c ? cosF(x) : sinF(x));
      if (got != d) miss(bad, 3 + c, xb, got, d);
      if (gotF != d) miss(bad, 5 + c, xb, gotF, d);
    }
  }
}

int main(int argc, char** argv) {
  unsigned long long *din, *dout;
  cudaMalloc(&din, 8 * 15 * N); cudaMalloc(&dout, 8 * 15 * N);
  k<<<(15 * N + 255) / 256, 256>>>(din, dout);
  std::vector<unsigned long long> hin(15 * N), hout(15 * N);
  cudaMemcpy(hin.data(), din, 8 * 15 * N, cudaMemcpyDeviceToHost);
  cudaMemcpy(hout.data(), dout, 8 * 15 * N, cudaMemcpyDeviceToHost);
  FILE* f = fopen(argv[1], "wb");
  for (unsigned int op = 0; op < 15; op++) {
    unsigned int hdr[2] = {op, N};
    fwrite(hdr, 4, 2, f);
    for (int i = 0; i < N; i++) {
      int g = op * N + i;
      if (op < 12) {
        unsigned int p[2] = {(unsigned int)hin[g], (unsigned int)hout[g]};
        fwrite(p, 4, 2, f);
      } else {
        unsigned long long p[2] = {hin[g], hout[g]};
        fwrite(p, 8, 2, f);
      }
    }
  }
  fclose(f);
  printf("sfugolden: wrote %s\n", argv[1]);
  float *A, *B, *R, *S;
  unsigned long long* bad;
  cudaMalloc(&A, 4 << 23); cudaMalloc(&B, 4 << 23); cudaMalloc(&R, 4 << 24); cudaMalloc(&S, 4 << 23);
  cudaMalloc(&bad, 8 * 8 + 4 * 12 * 8);
  cudaMemset(bad, 0, 8 * 8 + 4 * 12 * 8);
  buildTabs<<<(1 << 24) / 256, 256>>>(A, B, R, S);
  checkAll<<<132 * 64, 256>>>(A, B, R, S, bad);
  unsigned long long hb[8 + 48];
  cudaMemcpy(hb, bad, sizeof hb, cudaMemcpyDeviceToHost);
  const char* names[] = {"lg2.approx.ftz.f32 (positive normals)", "rsqrt.approx.ftz.f32 (positive normals)",
                         "lg2.approx.f32 (positive subnormals)", "sin.approx.f32 (finite)", "cos.approx.f32 (finite)",
                         "sin.approx.ftz.f32 (finite)", "cos.approx.ftz.f32 (finite)"};
  unsigned int* fm = (unsigned int*)(hb + 8);
  for (int w = 0; w < 7; w++) {
    printf("exhaustive %s: %llu mismatches\n", names[w], hb[w]);
    for (unsigned long long k = 0; k < hb[w] && k < 4; k++)
      printf("  x=%08x got=%08x rule=%08x\n", fm[12 * w + 3 * k], fm[12 * w + 3 * k + 1], fm[12 * w + 3 * k + 2]);
  }
  printf("cuda: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
