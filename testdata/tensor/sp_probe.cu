// Raw sparse mma probe (mma.sp / mma.sp::ordered_metadata): one warp per test
// case runs one sparse MMA on register values generated here (seeded, so the
// inputs are reproducible; they are written to in/sp_NAME.bin) and writes every
// lane's D registers to out/sp_NAME.bin. Per lane the input file holds A, B, C
// and the metadata register E as little-endian 32-bit words; the sparsity
// selector of test case tc is tc % NSEL. Built once per variant:
//   nvcc -gencode=arch=compute_90a,code=sm_90a -DKIND=n -DNSEL=s -DTY=t -DNAME='"..."' -DINSTR='"mma.sp..."'
// KIND: registers A, B, C, D and whether C/D are f32 (f) or b32 (r)
//   1: A2 B2 C4f D4f   2: A2 B2 C2 D2 (f16 accumulators)   3: A4 B4 C4f D4f
//   4: A2 B2 C4 D4 (s32)   5: A4 B4 C4 D4 (s32)   6: A4 B4 C2 D2 (f16 accumulators)
// TY: element type of A and B (0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2, 5 s8, 6 u8,
//   7 e4m3 A with e5m2 B, 8 s4, 9 u4); it picks the generator and the metadata nibbles.
//   TYB (default TY) is B's type where it differs (the 4-bit mixed-sign forms).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if KIND == 1
#define NA 2
#define NB 2
#define NC 4
#define ND 4
#define CF 1
#elif KIND == 2
#define NA 2
#define NB 2
#define NC 2
#define ND 2
#define CF 0
#elif KIND == 3
#define NA 4
#define NB 4
#define NC 4
#define ND 4
#define CF 1
#elif KIND == 4
#define NA 2
#define NB 2
#define NC 4
#define ND 4
#define CF 0
#elif KIND == 5
#define NA 4
#define NB 4
#define NC 4
#define ND 4
#define CF 0
#elif KIND == 6
#define NA 4
#define NB 4
#define NC 2
#define ND 2
#define CF 0
#else
#error "unknown KIND"
#endif
#define NIN (NA + NB + NC + 1)

#define OF(i) "=f"(fd[i])
#define OR(i) "=r"(d[i])
#if KIND == 1
#define DO_MMA(S)                                                                                 \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, " #S ";\n"        \
               : OF(0), OF(1), OF(2), OF(3)                                                     \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(fc[0]), "f"(fc[1]), "f"(fc[2]), \
                 "f"(fc[3]), "r"(e))
#elif KIND == 2
#define DO_MMA(S)                                                             \
  asm volatile(INSTR " {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, " #S ";\n"    \
               : OR(0), OR(1)                                                 \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e))
#elif KIND == 3
#define DO_MMA(S)                                                                                         \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, " #S ";\n" \
               : OF(0), OF(1), OF(2), OF(3)                                                             \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), \
                 "f"(fc[0]), "f"(fc[1]), "f"(fc[2]), "f"(fc[3]), "r"(e))
#elif KIND == 4
#define DO_MMA(S)                                                                                 \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, " #S ";\n"        \
               : OR(0), OR(1), OR(2), OR(3)                                                     \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), \
                 "r"(c[3]), "r"(e))
#elif KIND == 5
#define DO_MMA(S)                                                                                         \
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, " #S ";\n" \
               : OR(0), OR(1), OR(2), OR(3)                                                             \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), \
                 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e))
#else
#define DO_MMA(S)                                                                                 \
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, " #S ";\n"        \
               : OR(0), OR(1)                                                                   \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), \
                 "r"(c[0]), "r"(c[1]), "r"(e))
#endif

#if NSEL == 1
#define SWITCH_SEL DO_MMA(0);
#elif NSEL == 2
#define SWITCH_SEL \
  if (sel == 0)    \
    DO_MMA(0);     \
  else             \
    DO_MMA(1);
#else
#define SWITCH_SEL          \
  switch (sel) {            \
    case 0: DO_MMA(0); break; \
    case 1: DO_MMA(1); break; \
    case 2: DO_MMA(2); break; \
    default: DO_MMA(3); break; \
  }
#endif

__global__ void probe(const unsigned* __restrict__ in, unsigned* __restrict__ out, int T) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= T) return;
  const unsigned* p = in + ((size_t)w * 32 + lane) * NIN;
  unsigned a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, c[4] = {0, 0, 0, 0}, d[4] = {0, 0, 0, 0};
  float fc[4], fd[4];
  for (int i = 0; i < NA; i++) a[i] = p[i];
  for (int i = 0; i < NB; i++) b[i] = p[NA + i];
  for (int i = 0; i < NC; i++) c[i] = p[NA + NB + i];
  unsigned e = p[NA + NB + NC];
  for (int i = 0; i < 4; i++) fc[i] = __uint_as_float(c[i]);
  int sel = w % NSEL;
  SWITCH_SEL
#if CF
  for (int i = 0; i < 4; i++) d[i] = __float_as_uint(fd[i]);
#endif
  unsigned* q = out + ((size_t)w * 32 + lane) * ND;
  for (int i = 0; i < ND; i++) q[i] = d[i];
}

// ---- host: input generation ------------------------------------------------
static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint32_t rnd() {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return (uint32_t)(rs >> 11);
}
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

struct Fmt { int eb, mb, bias, bits; };
static Fmt fmtOf(int ty) {
  switch (ty) {
    case 0: return {5, 10, 15, 16};
    case 1: return {8, 7, 127, 16};
    case 2: return {8, 23, 127, 32};  // tf32 operands are f32 words
    case 3: return {4, 3, 7, 8};
    case 4: return {5, 2, 15, 8};
  }
  return {0, 0, 0, 8};
}

// One float element of family fam, as a bit pattern of f.bits bits.
static uint32_t genFloat(Fmt f, int fam, int emax_user) {
  uint32_t s = rnd() & 1, m = rnd() & ((1u << f.mb) - 1);
  int emaxField = (1 << f.eb) - 2;  // largest normal exponent field
  if (f.eb == 4) emaxField = 15;    // e4m3: 15 is normal except mantissa 7
  int e;
  switch (fam) {
    case 0: e = rint_(1, emaxField); break;                                      // wide
    case 1: e = f.bias + rint_(-2, 2); break;                                    // narrow
    case 2: e = (rnd() % 8 == 0) ? f.bias + rint_(2, 6) : f.bias - rint_(0, emax_user); break;  // one large, many small
    case 3: {                                                                    // specials sprinkled
      uint32_t r = rnd() % 24;
      if (r == 0) return (s << (f.bits - 1)) | (((1u << f.eb) - 1) << f.mb) | (f.eb == 4 ? 7 : 1);  // NaN
      if (r == 1 && f.eb != 4) return (s << (f.bits - 1)) | (((1u << f.eb) - 1) << f.mb);        // Inf
      if (r == 2) return s << (f.bits - 1);                                                          // zero
      if (r == 3) return (s << (f.bits - 1)) | (m ? m : 1);                                          // subnormal
      e = f.bias + rint_(-3, 3);
      break;
    }
    case 4: e = emaxField - rint_(0, 2); break;  // near overflow
    case 5: e = rint_(1, 4); break;              // near the subnormal range
    default: e = f.bias + rint_(-6, 6); break;   // medium
  }
  if (e < 1) e = 1;
  if (e > emaxField) e = emaxField;
  if (f.eb == 4 && e == 15 && m == 7) m = 6;
  uint32_t v = (s << (f.bits - 1)) | ((uint32_t)e << f.mb) | m;
  if (f.bits == 32) v |= 0;  // tf32: low 13 bits stay random (read or ignored by the hardware)
  return v;
}

#ifndef TYB
#define TYB (TY == 7 ? 4 : TY)
#endif

static uint32_t genWord(int ty, int fam) {
  if (ty >= 8) {  // 4-bit integers; family 4: the extremes
    uint32_t w = 0;
    for (int i = 0; i < 8; i++) {
      uint32_t x = rnd() & 0xf;
      if (fam == 4) x = (ty == 8) ? ((rnd() & 1) ? 0x7 : 0x8) : 0xf;
      w |= x << (4 * i);
    }
    return w;
  }
  if (ty >= 5) {  // 8-bit integers
    uint32_t w = 0;
    for (int i = 0; i < 4; i++) {
      uint32_t x = rnd() & 0xff;
      if (fam == 4) x = (ty == 5) ? ((rnd() & 1) ? 0x7f : 0x80) : 0xff;
      w |= x << (8 * i);
    }
    return w;
  }
  int ta = ty == 7 ? 3 : ty;
  Fmt f = fmtOf(ta);
  if (f.bits == 32) return genFloat(f, fam, 20);
  uint32_t w = 0;
  for (int i = 0; i < 32 / f.bits; i++) w |= genFloat(f, fam, f.mb + 8) << (f.bits * i);
  return w;
}

static uint32_t genC(int fam) {
#if CF
  Fmt f32 = {8, 23, 127, 32};
  if (fam == 6) {  // accumulator extremes
    uint32_t r = rnd() % 6;
    if (r == 0) return 0x7f000000 | (rnd() & 0x7fffff) | ((rnd() & 1) << 31);
    if (r == 1) return rnd() & 0x807fffff;  // subnormal
    if (r == 2) return (rnd() & 1) << 31;   // zero
    if (r == 3) return 0x7fc00000;
  }
  if (fam == 1) { Fmt g = f32; return genFloat(g, 1, 0); }
  return genFloat(f32, fam == 3 ? 3 : 6, 0);
#else
#if ND == 2
  Fmt h = {5, 10, 15, 16};
  return genFloat(h, fam == 3 ? 3 : 6, 0) | genFloat(h, 1, 0) << 16;
#else
  if (fam == 4) return (rnd() & 1) ? 0x7fffff00u + (rnd() & 0xff) : 0x80000000u + (rnd() & 0xff);
  return rnd();
#endif
#endif
}

// Metadata: every nibble of every lane a valid index pair (so the data is
// valid whichever lanes and bits the hardware reads). Ordered pairs (i0 < i1);
// tf32 uses the two values the ISA allows (0b0100, 0b1110).
static uint32_t genMeta(int ty) {
  static const uint32_t pairs[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};  // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3): i0 | i1<<2
  uint32_t w = 0;
  for (int i = 0; i < 8; i++) {
    uint32_t nib = ty == 2 ? ((rnd() & 1) ? 0xE : 0x4) : pairs[rnd() % 6];
    w |= nib << (4 * i);
  }
  return w;
}

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s: %s failed: %s\n", NAME, #x, cudaGetErrorString(e_)); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int main() {
  const int T = 512;
  rs ^= (uint64_t)strlen(NAME) * 0x100000001B3ull;
  for (const char* s = NAME; *s; s++) rs = (rs ^ (uint8_t)*s) * 0x100000001B3ull;
  std::vector<unsigned> h((size_t)T * 32 * NIN);
  for (int tc = 0; tc < T; tc++) {
    int fam = (tc / NSEL) % 7;
    for (int l = 0; l < 32; l++) {
      unsigned* p = &h[((size_t)tc * 32 + l) * NIN];
      for (int i = 0; i < NA; i++) p[i] = genWord(TY, fam);
      for (int i = 0; i < NB; i++) p[NA + i] = genWord(TYB, fam);
      for (int i = 0; i < NC; i++) p[NA + NB + i] = genC(fam);
      p[NA + NB + NC] = genMeta(TY);
    }
  }
  std::vector<unsigned> o((size_t)T * 32 * ND, 0xDEADBEEFu);
  unsigned *din, *dout;
  CK(cudaMalloc(&din, h.size() * 4));
  CK(cudaMalloc(&dout, o.size() * 4));
  CK(cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dout, o.data(), o.size() * 4, cudaMemcpyHostToDevice));
  probe<<<(T + 3) / 4, 128>>>(din, dout, T);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  char path[256];
  snprintf(path, sizeof path, "in/sp_%s.bin", NAME);
  FILE* f = fopen(path, "wb");
  fwrite(h.data(), 4, h.size(), f);
  fclose(f);
  snprintf(path, sizeof path, "out/sp_%s.bin", NAME);
  f = fopen(path, "wb");
  fwrite(o.data(), 4, o.size(), f);
  fclose(f);
  printf("sp %s nsel=%d: %d cases ok, d[0]=%08x\n", NAME, NSEL, T, o[0]);
  return 0;
}
