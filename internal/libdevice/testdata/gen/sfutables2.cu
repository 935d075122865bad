// sfutables2.cu: records the rest of the H100's SFU approximations that
// libdevice relies on, as differences from a reference that Go can recompute
// (see ../../sfu.go), and checks on the GPU how each depends on the exponent.
//   rsqrt.bin  int8[2^24]: x = (1 + i·2^-23)·2^(i>>23) (both exponent
//              parities), rsqrt.approx.ftz.f32 minus RN(1/sqrt((double)x)).
//   lg2.bin    int8[NE·2^23]: for each exponent in LG2E, x = (1 + i·2^-23)·2^e,
//              lg2.approx.ftz.f32 minus RN(log2((double)x)); -128 = see lg2exc.
//   lg2exc.bin (u32 table·2^23+i, u32 raw result) for escaped entries (|d| > 127
//              or a reference too close to an f32 midpoint to be reproducible).
//   lg2s.bin   u32[1024·254]: raw lg2.approx.ftz.f32 for 1024 significands at
//              every normal exponent; then 4096 (x, lg2.approx.f32 x) pairs
//              for subnormal x (the non-ftz expansion).
//   rsq64.bin  int8[2^21]: rsqrt.approx.ftz.f64 on x = (1 + i·2^-20)·2^(i>>20),
//              high word minus the high word of 1/sqrt(x) (double).
//   sin.bin    int8[2^23]: sin.approx.f32 at the angle u·2^-25 revolutions
//              (u < 2^23) minus RN(sin(π/2·u·2^-23)); -128 = see sinexc.
//   sinexc.bin (u32 u, u32 raw) escaped entries.
// Build: nvcc -O3 -arch=sm_90 -o sfutables2 sfutables2.cu; run: ./sfutables2 OUTDIR
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <string>
#include <cuda_runtime.h>

#define NE 10
__constant__ int LG2E[NE] = {-126, -64, -2, -1, 0, 1, 2, 3, 64, 127};
static const int hLG2E[NE] = {-126, -64, -2, -1, 0, 1, 2, 3, 64, 127};

__device__ float rsq(float x) { float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2f(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2n(float x) { float r; asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float sina(float x) { float r; asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float cosa(float x) { float r; asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ double rsq64(double x) { double r; asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }

// ambiguous reports whether v lies so close to a midpoint between two floats
// that another faithful double implementation could round it the other way.
__device__ bool ambiguous(double v) {
  double a = fabs(v);
  float f = (float)a;
  double fd = f;
  double mid = a >= fd ? (fd + (double)nextafterf(f, INFINITY)) / 2 : (fd + (double)nextafterf(f, 0.0f)) / 2;
  return fabs(a - mid) <= a * 0x1p-44;
}

__device__ unsigned int hash(unsigned int x) {
  x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16;
  return x;
}

__global__ void kRsqrt(int8_t* out, float* raw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1 << 24)) return;
  float x = __int_as_float(0x3f800000 + ((i >> 23) << 23) + (i & 0x7fffff));
  float r = rsq(x);
  float ref = (float)(1.0 / sqrt((double)x));
  int d = __float_as_int(r) - __float_as_int(ref);
  out[i] = (int8_t)(d < -127 ? -128 : d > 127 ? 127 : d);
  raw[i] = r;
}

// kRsqrtExp: does the exponent only shift the result? counts mismatches.
__global__ void kRsqrtExp(const float* raw, unsigned int* bad, unsigned int* first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; // 4096 significands x 254 exponents
  if (i >= 4096 * 254) return;
  int s = i / 254, e = i % 254 - 126;
  unsigned int mant = hash(s * 7 + 1) & 0x7fffff;
  float x = __int_as_float(((e + 127) << 23) | mant);
  float r = rsq(x);
  int p = e & 1;
  float t = raw[(p << 23) | mant];
  float want = ldexpf(t, -(e - p) / 2);
  if (__float_as_int(r) != __float_as_int(want)) {
    unsigned int k = atomicAdd(bad, 1);
    if (k < 16) { first[3 * k] = __float_as_int(x); first[3 * k + 1] = __float_as_int(r); first[3 * k + 2] = __float_as_int(want); }
  }
}

__global__ void kLg2(int8_t* out, unsigned int* exc, unsigned int* nexc) {
  long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= (long long)NE << 23) return;
  int t = (int)(g >> 23), i = (int)(g & 0x7fffff);
  int e = LG2E[t];
  float x = __int_as_float(((e + 127) << 23) | i);
  float r = lg2f(x);
  double v = log2((double)x);
  float ref = (float)v;
  int d = __float_as_int(r) - __float_as_int(ref);
  if (d < -127 || d > 127 || ambiguous(v) || ((__float_as_int(r) ^ __float_as_int(ref)) & 0x80000000)) {
    unsigned int k = atomicAdd(nexc, 1);
    if (k < (1u << 20)) { exc[2 * k] = (unsigned int)g; exc[2 * k + 1] = __float_as_int(r); }
    d = -128;
  }
  out[g] = (int8_t)d;
}

__global__ void kLg2Sample(unsigned int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1024 * 254) {
    int s = i / 254, e = i % 254 - 126;
    unsigned int mant = s < 16 ? (s < 8 ? s : 0x7fffff - (s - 8)) : hash(s * 3 + 11) & 0x7fffff;
    out[i] = __float_as_int(lg2f(__int_as_float(((e + 127) << 23) | mant)));
  } else if (i < 1024 * 254 + 4096) {
    int k = i - 1024 * 254;
    unsigned int xb = (k < 32 ? (1u << (k % 23)) + k / 23 : hash(k) & 0x7fffff);
    if (xb == 0) xb = 1;
    out[1024 * 254 + 2 * k] = xb;
    out[1024 * 254 + 2 * k + 1] = __float_as_int(lg2n(__int_as_float(xb)));
  }
}

__global__ void kRsq64(int8_t* out, unsigned int* loOr, unsigned int* bad, unsigned int* first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (1 << 21)) {
    unsigned long long xb = (0x3ffull + (i >> 20)) << 52 | (unsigned long long)(i & 0xfffff) << 32;
    double x = __longlong_as_double(xb);
    unsigned long long rb = __double_as_longlong(rsq64(x));
    unsigned long long ref = __double_as_longlong(1.0 / sqrt(x));
    int d = (int)(unsigned int)(rb >> 32) - (int)(unsigned int)(ref >> 32);
    out[i] = (int8_t)(d < -127 ? -128 : d > 127 ? 127 : d);
    atomicOr(loOr, (unsigned int)rb);
    // low word of the input ignored?
    unsigned long long r2 = __double_as_longlong(rsq64(__longlong_as_double(xb | hash(i))));
    if (r2 != rb) atomicAdd(bad + 1, 1);
  } else if (i < (1 << 21) + 4096 * 2000) {
    int k = i - (1 << 21);
    int s = k / 2000, e = k % 2000 - 1000;
    unsigned int mant = hash(s * 5 + 3) & 0xfffff;
    int p = e & 1;
    double x = __longlong_as_double((unsigned long long)(e + 1023) << 52 | (unsigned long long)mant << 32);
    double xr = __longlong_as_double((unsigned long long)(p + 1023) << 52 | (unsigned long long)mant << 32);
    unsigned long long r = __double_as_longlong(rsq64(x));
    unsigned long long want = __double_as_longlong(ldexp(rsq64(xr), -(e - p) / 2));
    if (r != want) {
      unsigned int n = atomicAdd(bad, 1);
      if (n < 8) { first[4 * n] = (unsigned int)(__double_as_longlong(x) >> 32); first[4 * n + 1] = (unsigned int)(r >> 32); first[4 * n + 2] = (unsigned int)(want >> 32); first[4 * n + 3] = (unsigned int)r; }
    }
  }
}

// The angle handed to MUFU.SIN/COS: t = x·f32(1/2π) rounded toward zero;
// frac25 is |t|'s fraction of a revolution truncated to 25 bits.
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
#define INV2PI __int_as_float(0x3e22f983)

// findX returns a positive x whose angle is s (t < 1), or 0.
__device__ float findX(unsigned int s) {
  if (s == 0) return 0.0f;
  float x = (float)(((double)s + 0.5) * 0x1p-25 / (double)INV2PI);
  for (int k = 0; k < 16; k++) {
    float t = __fmul_rz(x, INV2PI);
    unsigned int s2 = frac25(t);
    if (t >= 1.0f) s2 += 1u << 25;
    if (s2 == s) return x;
    x = s2 < s ? nextafterf(x, INFINITY) : nextafterf(x, 0.0f);
  }
  return -1.0f;
}

__global__ void kSin(int8_t* out, float* raw, unsigned int* exc, unsigned int* nexc) {
  unsigned int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= (1u << 23)) return;
  float x = findX(u);
  float r = x < 0 ? __int_as_float(0x7fc00000) : sina(x);
  raw[u] = r;
  double v = sin(1.5707963267948966 * ((double)u * 0x1p-23));
  float ref = (float)v;
  int d = __float_as_int(r) - __float_as_int(ref);
  if (d < -127 || d > 127 || ambiguous(v) || ((__float_as_int(r) ^ __float_as_int(ref)) & 0x80000000)) {
    unsigned int k = atomicAdd(nexc, 1);
    if (k < (1u << 20)) { exc[2 * k] = u; exc[2 * k + 1] = __float_as_int(r); }
    d = -128;
  }
  out[u] = (int8_t)d;
}

__device__ unsigned int sinModel(const float* tab, float t, bool isCos) {
  unsigned int s = frac25(t);
  if (isCos) s = (s + (1u << 23)) & 0x1ffffff;
  unsigned int q = s >> 23, u = s & 0x7fffff;
  if (q & 1) u = 0x7fffff - u;
  unsigned int d = __float_as_int(tab[u]);
  if (q >= 2) d ^= 0x80000000;
  if (!isCos) d ^= __float_as_int(t) & 0x80000000;
  return d;
}

// kSinCheck: every angle of the period (sin and cos), then random x.
__global__ void kSinCheck(const float* tab, unsigned int* bad, unsigned int* first, unsigned int* cnt) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x;
  if (i < (1u << 25)) {
    x = findX(i);
    if (x < 0) { atomicAdd(cnt, 1); return; }
  } else if (i < (1u << 25) + (1u << 24)) {
    unsigned int h = hash(i);
    int e = 90 + (h >> 23) % 70; // |x| in [2^-37, 2^33)
    x = __int_as_float((h & 0x807fffff) | (e << 23));
  } else return;
  float t = __fmul_rz(x, INV2PI);
  unsigned int rs = __float_as_int(sina(x)), rc = __float_as_int(cosa(x));
  unsigned int ms = sinModel(tab, t, false), mc = sinModel(tab, t, true);
  if (rs != ms) {
    unsigned int n = atomicAdd(bad, 1);
    if (n < 16) { first[4 * n] = __float_as_int(x); first[4 * n + 1] = 0; first[4 * n + 2] = rs; first[4 * n + 3] = ms; }
  }
  if (rc != mc) {
    unsigned int n = atomicAdd(bad + 1, 1);
    if (n < 16) { first[64 + 4 * n] = __float_as_int(x); first[64 + 4 * n + 1] = 1; first[64 + 4 * n + 2] = rc; first[64 + 4 * n + 3] = mc; }
  }
}

static void save(const char* dir, const char* name, const void* p, size_t n) {
  std::string path = std::string(dir) + "/" + name;
  FILE* f = fopen(path.c_str(), "wb");
  fwrite(p, 1, n, f);
  fclose(f);
}

static void hist(const char* name, const std::vector<int8_t>& h) {
  long c[256] = {0};
  for (int8_t v : h) c[(uint8_t)v]++;
  printf("%s:", name);
  for (int v = -128; v < 128; v++)
    if (c[(uint8_t)v]) printf(" %d:%ld", v, c[(uint8_t)v]);
  printf("\n");
}

int main(int argc, char** argv) {
  const char* dir = argv[1];
  unsigned int *u1, *u2, *u3;
  cudaMalloc(&u1, 64);
  cudaMalloc(&u2, 4096);
  cudaMalloc(&u3, 64);
  unsigned int hb[16], hf[1024];

  { // rsqrt
    int8_t* d; float* raw;
    cudaMalloc(&d, 1 << 24); cudaMalloc(&raw, 4 << 24);
    kRsqrt<<<(1 << 24) / 256, 256>>>(d, raw);
    std::vector<int8_t> h(1 << 24);
    cudaMemcpy(h.data(), d, h.size(), cudaMemcpyDeviceToHost);
    hist("rsqrt", h);
    save(dir, "rsqrt.bin", h.data(), h.size());
    cudaMemset(u1, 0, 64);
    kRsqrtExp<<<(4096 * 254 + 255) / 256, 256>>>(raw, u1, u2);
    cudaMemcpy(hb, u1, 64, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, u2, 4096, cudaMemcpyDeviceToHost);
    printf("rsqrt exponent check: %u mismatches of %d\n", hb[0], 4096 * 254);
    for (unsigned int k = 0; k < hb[0] && k < 16; k++) printf("  x=%08x r=%08x want=%08x\n", hf[3 * k], hf[3 * k + 1], hf[3 * k + 2]);
    cudaFree(d); cudaFree(raw);
  }
  { // lg2
    int8_t* d; unsigned int* exc;
    size_t n = (size_t)NE << 23;
    cudaMalloc(&d, n); cudaMalloc(&exc, 8 << 20);
    cudaMemset(u1, 0, 64);
    kLg2<<<n / 256, 256>>>(d, exc, u1);
    std::vector<int8_t> h(n);
    cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, u1, 64, cudaMemcpyDeviceToHost);
    for (int t = 0; t < NE; t++) {
      char nm[32]; snprintf(nm, sizeof nm, "lg2 e=%d", hLG2E[t]);
      std::vector<int8_t> part(h.begin() + ((size_t)t << 23), h.begin() + ((size_t)(t + 1) << 23));
      hist(nm, part);
    }
    unsigned int ne = hb[0] < (1u << 20) ? hb[0] : (1u << 20);
    printf("lg2 exceptions: %u\n", hb[0]);
    std::vector<unsigned int> he(2 * ne);
    cudaMemcpy(he.data(), exc, 8 * ne, cudaMemcpyDeviceToHost);
    save(dir, "lg2.bin", h.data(), n);
    save(dir, "lg2exc.bin", he.data(), 8 * ne);
    unsigned int* s;
    size_t ns = 1024 * 254 + 2 * 4096;
    cudaMalloc(&s, 4 * ns);
    kLg2Sample<<<(1024 * 254 + 4096 + 255) / 256, 256>>>(s);
    std::vector<unsigned int> hs(ns);
    cudaMemcpy(hs.data(), s, 4 * ns, cudaMemcpyDeviceToHost);
    save(dir, "lg2s.bin", hs.data(), 4 * ns);
    cudaFree(d); cudaFree(exc); cudaFree(s);
  }
  { // rsqrt.approx.ftz.f64
    int8_t* d;
    cudaMalloc(&d, 1 << 21);
    cudaMemset(u1, 0, 64); cudaMemset(u3, 0, 64);
    int n = (1 << 21) + 4096 * 2000;
    kRsq64<<<(n + 255) / 256, 256>>>(d, u3, u1, u2);
    std::vector<int8_t> h(1 << 21);
    cudaMemcpy(h.data(), d, h.size(), cudaMemcpyDeviceToHost);
    hist("rsq64", h);
    save(dir, "rsq64.bin", h.data(), h.size());
    unsigned int lo;
    cudaMemcpy(&lo, u3, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, u1, 64, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, u2, 4096, cudaMemcpyDeviceToHost);
    printf("rsq64: low words OR %08x; low input word changes result: %u; exponent check: %u mismatches of %d\n", lo, hb[1], hb[0], 4096 * 2000);
    for (unsigned int k = 0; k < hb[0] && k < 8; k++) printf("  xhi=%08x rhi=%08x wanthi=%08x rlo=%08x\n", hf[4 * k], hf[4 * k + 1], hf[4 * k + 2], hf[4 * k + 3]);
    cudaFree(d);
  }
  { // sin/cos
    int8_t* d; float* raw; unsigned int* exc;
    cudaMalloc(&d, 1 << 23); cudaMalloc(&raw, 4 << 23); cudaMalloc(&exc, 8 << 20);
    cudaMemset(u1, 0, 64);
    kSin<<<(1 << 23) / 256, 256>>>(d, raw, exc, u1);
    std::vector<int8_t> h(1 << 23);
    cudaMemcpy(h.data(), d, h.size(), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, u1, 64, cudaMemcpyDeviceToHost);
    hist("sin", h);
    unsigned int ne = hb[0] < (1u << 20) ? hb[0] : (1u << 20);
    printf("sin exceptions: %u\n", hb[0]);
    std::vector<unsigned int> he(2 * ne);
    cudaMemcpy(he.data(), exc, 8 * ne, cudaMemcpyDeviceToHost);
    save(dir, "sin.bin", h.data(), h.size());
    save(dir, "sinexc.bin", he.data(), 8 * ne);
    cudaMemset(u1, 0, 64); cudaMemset(u3, 0, 64); cudaMemset(u2, 0, 4096);
    unsigned int n = (1u << 25) + (1u << 24);
    kSinCheck<<<n / 256, 256>>>(raw, u1, u2, u3);
    cudaMemcpy(hb, u1, 64, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, u2, 4096, cudaMemcpyDeviceToHost);
    unsigned int unreach;
    cudaMemcpy(&unreach, u3, 4, cudaMemcpyDeviceToHost);
    printf("sin check: %u sin and %u cos mismatches of %u (%u angles unreachable)\n", hb[0], hb[1], n, unreach);
    for (int c = 0; c < 2; c++)
      for (unsigned int k = 0; k < hb[c] && k < 16; k++)
        printf("  x=%08x cos=%u got=%08x model=%08x\n", hf[64 * c + 4 * k], hf[64 * c + 4 * k + 1], hf[64 * c + 4 * k + 2], hf[64 * c + 4 * k + 3]);
    cudaFree(d); cudaFree(raw); cudaFree(exc);
  }
  cudaError_t err = cudaDeviceSynchronize();
  printf("cuda: %s\n", cudaGetErrorString(err));
  return 0;
}
