// agg.cu: which global and shared atomics ptxas (nvcc 13, -arch=sm_90) turns into a warp-aggregated form
// (VOTE.ANY, FLO, POPC and one ATOM/RED from an elected lane), what the H100 returns for them, and what they
// cost. Every atomic is written as inline PTX (exactly that instruction reaches ptxas).
//
// k_fn<A, O>: one atomic of kind O on an address made as A says, from <<<2, 64>>> threads; each thread writes the
// old value it got (0x5a5a... when the kind has no result) to out[gtid], and the buffer's 128 words are printed after it
// (a shared-memory kind's block b copies its shared array to words 64b..64b+63). Address kinds A (a byte offset into the buffer or into a shared array):
//   0 the kernel parameter itself          1 + blockIdx.x*8            2 + 8*(value loaded from in[200] (=1))
//   3 + (threadIdx.x/32)*8                 4 the parameter, inside if (threadIdx.x & 1)
//   5 + (threadIdx.x&15)*8 (not uniform)   6 + 8*__ldg(in+200)        7 + 8*__shfl_sync(~0, threadIdx.x, 0)
//   8 + i*8 in a loop of n (=2, a parameter) iterations                9 + 8*(threadIdx.x>>6) (0 for all 64 threads)
// Prints "fn A=<a> O=<o> final=<128 words> old=<128 words>" (hex, 64-bit words).
//
// k_time<A, O>: the same atomic ITERS times in a loop, %clock64 around it, from 1 warp and from 132 blocks of
// 4 warps; prints "time A=<a> O=<o> blocks=<b> warps=<w> cycles_per=<slowest warp's cycles an iteration>".
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define ITERS 256
typedef unsigned long long u64;

// Op kinds. R: the result is written to out; F: float; D: double; W: 64-bit integer.
enum {
  O_ADD_IMM = 0,      // atom.global.add.u32 d, [a], 1                     (result used)
  O_ADD_IMM_NR = 1,   // atom.global.add.u32 d, [a], 1                     (result unused)
  O_RED_IMM = 2,      // red.global.add.u32 [a], 1
  O_ADD_UNI = 3,      // atom.global.add.u32 d, [a], u                     (u: kernel parameter)
  O_ADD_VAR = 4,      // atom.global.add.u32 d, [a], in[tid]
  O_RED_VAR = 5,      // red.global.add.u32 [a], in[tid]
  O_ADD_S32 = 6,      // atom.global.add.s32 d, [a], -3
  O_ADD_U64 = 7,      // atom.global.add.u64 d, [a], 1
  O_ADD_F32 = 8,      // atom.global.add.f32 d, [a], 1.0 (buffer starts at 2^24)
  O_ADD_F32V = 9,     // atom.global.add.f32 d, [a], fin[tid]
  O_RED_F32 = 10,     // red.global.add.f32 [a], 1.0
  O_ADD_F64 = 11,     // atom.global.add.f64 d, [a], 1.0 (buffer starts at 2^53)
  O_AND = 12,         // atom.global.and.b32 d, [a], u
  O_OR = 13,          // atom.global.or.b32
  O_XOR = 14,         // atom.global.xor.b32
  O_MIN = 15,         // atom.global.min.u32 d, [a], u
  O_MAX = 16,         // atom.global.max.s32 d, [a], u
  O_INC = 17,         // atom.global.inc.u32 d, [a], 1000
  O_DEC = 18,         // atom.global.dec.u32 d, [a], 1000
  O_EXCH = 19,        // atom.global.exch.b32 d, [a], u
  O_CAS = 20,         // atom.global.cas.b32 d, [a], init, u
  O_ADD_ACQREL = 21,  // atom.acq_rel.gpu.global.add.u32 d, [a], 1
  O_ADD_SYS = 22,     // atom.relaxed.sys.global.add.u32 d, [a], 1
  O_ADD_CTA = 23,     // atom.relaxed.cta.global.add.u32 d, [a], 1
  O_SH_ADD = 24,      // atom.shared.add.u32 d, [a], 1
  O_SH_RED = 25,      // red.shared.add.u32 [a], 1
  O_RED_UNI = 26,     // red.global.add.u32 [a], u
  O_RED_U64 = 27,     // red.global.add.u64 [a], 1
  O_RED_MAXV = 28,    // red.global.max.u32 [a], in[tid]
  O_MIN_VAR = 29,     // atom.global.min.u32 d, [a], in[tid]
  O_CUDA_ADD = 30,    // atomicAdd((unsigned*)a, 1u) (CUDA, result used)
  O_CUDA_FADD = 31,   // atomicAdd((float*)a, 1.0f) (CUDA, result unused)
  O_ADD_PLAIN = 32,   // atom.add.u32 d, [a], 1 (generic address)
  O_EXCH_VAR = 33,    // atom.global.exch.b32 d, [a], in[tid]
  O_SH_ADD_VAR = 34,  // atom.shared.add.u32 d, [a], in[tid]
  O_ADD_REL = 35,     // atom.release.gpu.global.add.u32 d, [a], 1
  O_ADD_ACQ = 36,     // atom.acquire.gpu.global.add.u32 d, [a], 1
  O_RED_F32V = 37,    // red.global.add.f32 [a], fin[tid]
  O_ADD_U64V = 38,    // atom.global.add.u64 d, [a], in[tid]
  O_SH_ADD_F32 = 39,  // atom.shared.add.f32 d, [a], 1.0
};

__device__ __forceinline__ u64 doatom(int O, char *a, unsigned s, unsigned u, unsigned v, float fv) {
  unsigned r = 0x5a5a5a5au;
  u64 r64 = 0x5a5a5a5a5a5a5a5aull;
  float f;
  double d;
  switch (O) {
    case O_ADD_IMM: asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_ADD_IMM_NR: { unsigned x; asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(x) : "l"(a) : "memory"); } break;
    case O_RED_IMM: asm volatile("red.global.add.u32 [%0], 1;" ::"l"(a) : "memory"); break;
    case O_ADD_UNI: asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_ADD_VAR: asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(v) : "memory"); break;
    case O_RED_VAR: asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(v) : "memory"); break;
    case O_ADD_S32: asm volatile("atom.global.add.s32 %0, [%1], -3;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_ADD_U64: asm volatile("atom.global.add.u64 %0, [%1], 1;" : "=l"(r64) : "l"(a) : "memory"); break;
    case O_ADD_F32: asm volatile("atom.global.add.f32 %0, [%1], 0f3F800000;" : "=f"(f) : "l"(a) : "memory"); r = __float_as_uint(f); break;
    case O_ADD_F32V: asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(f) : "l"(a), "f"(fv) : "memory"); r = __float_as_uint(f); break;
    case O_RED_F32: asm volatile("red.global.add.f32 [%0], 0f3F800000;" ::"l"(a) : "memory"); break;
    case O_ADD_F64: asm volatile("atom.global.add.f64 %0, [%1], 0d3FF0000000000000;" : "=d"(d) : "l"(a) : "memory"); r64 = __double_as_longlong(d); break;
    case O_AND: asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_OR: asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_XOR: asm volatile("atom.global.xor.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_MIN: asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_MAX: asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_INC: asm volatile("atom.global.inc.u32 %0, [%1], 1000;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_DEC: asm volatile("atom.global.dec.u32 %0, [%1], 1000;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_EXCH: asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_CAS: asm volatile("atom.global.cas.b32 %0, [%1], 77, %2;" : "=r"(r) : "l"(a), "r"(u) : "memory"); break;
    case O_ADD_ACQREL: asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_ADD_SYS: asm volatile("atom.relaxed.sys.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_ADD_CTA: asm volatile("atom.relaxed.cta.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_SH_ADD: asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r) : "r"(s) : "memory"); break;
    case O_SH_RED: asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(s) : "memory"); break;
    case O_RED_UNI: asm volatile("red.global.add.u32 [%0], %1;" ::"l"(a), "r"(u) : "memory"); break;
    case O_RED_U64: asm volatile("red.global.add.u64 [%0], 1;" ::"l"(a) : "memory"); break;
    case O_RED_MAXV: asm volatile("red.global.max.u32 [%0], %1;" ::"l"(a), "r"(v) : "memory"); break;
    case O_MIN_VAR: asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(v) : "memory"); break;
    case O_CUDA_ADD: r = atomicAdd((unsigned *)a, 1u); break;
    case O_CUDA_FADD: atomicAdd((float *)a, 1.0f); break;
    case O_ADD_PLAIN: asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_EXCH_VAR: asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(a), "r"(v) : "memory"); break;
    case O_SH_ADD_VAR: asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(s), "r"(v) : "memory"); break;
    case O_ADD_REL: asm volatile("atom.release.gpu.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_ADD_ACQ: asm volatile("atom.acquire.gpu.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(a) : "memory"); break;
    case O_RED_F32V: asm volatile("red.global.add.f32 [%0], %1;" ::"l"(a), "f"(fv) : "memory"); break;
    case O_ADD_U64V: asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(r64) : "l"(a), "l"((u64)v) : "memory"); break;
    case O_SH_ADD_F32: asm volatile("atom.shared.add.f32 %0, [%1], 0f3F800000;" : "=f"(f) : "r"(s) : "memory"); r = __float_as_uint(f); break;
  }
  if (r64 != 0x5a5a5a5a5a5a5a5aull) return r64;
  return r == 0x5a5a5a5au ? 0x5a5a5a5a5a5a5a5aull : (u64)r;
}

__host__ __device__ constexpr bool shared_op(int O) { return O == O_SH_ADD || O == O_SH_RED || O == O_SH_ADD_VAR || O == O_SH_ADD_F32; }

// offset is the byte offset address kind A names (A 4 and 8 are handled by the caller).
template <int A>
__device__ __forceinline__ unsigned offset(const unsigned *in) {
  switch (A) {
    case 1: return blockIdx.x * 8;
    case 2: return in[200] * 8;
    case 3: return (threadIdx.x / 32) * 8;
    case 5: return (threadIdx.x & 15) * 8;
    case 6: return __ldg(in + 200) * 8;
    case 7: return __shfl_sync(0xffffffffu, threadIdx.x, 0) * 8;
    case 9: return (threadIdx.x >> 6) * 8;
    default: break;
  }
  return 0;
}

template <int A, int O>
__global__ void k_fn(u64 *buf, u64 *out, const unsigned *in, const float *fin, unsigned u, int n, u64 init) {
  __shared__ u64 sh[64];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (shared_op(O)) {
    sh[threadIdx.x] = init;
    __syncthreads();
  }
  u64 r = 0x5a5a5a5a5a5a5a5aull;
  unsigned v = in[t & 127];
  float fv = fin[t & 127];
  if (A == 4) {
    if (threadIdx.x & 1) r = doatom(O, (char *)buf, (unsigned)__cvta_generic_to_shared(sh), u, v, fv);
  } else if (A == 8) {
    for (int i = 0; i < n; i++)
      r = doatom(O, (char *)buf + 8 * i, (unsigned)__cvta_generic_to_shared(sh) + 8 * i, u, v, fv);
  } else {
    unsigned off = offset<A>(in);
    r = doatom(O, (char *)buf + off, (unsigned)__cvta_generic_to_shared(sh) + off, u, v, fv);
  }
  out[t] = r;
  if (shared_op(O)) {
    __syncthreads();
    buf[blockIdx.x * 64 + threadIdx.x] = sh[threadIdx.x];
  }
}

template <int A, int O>
__global__ void k_time(long long *cyc, u64 *buf, const unsigned *in, const float *fin, unsigned u, u64 *sink) {
  __shared__ u64 sh[64];
  if (shared_op(O)) sh[threadIdx.x & 63] = 0;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t & 127];
  float fv = fin[t & 127];
  unsigned off = offset<A>(in);
  char *a = (char *)buf + off;
  unsigned s = (unsigned)__cvta_generic_to_shared(sh) + (off & 511);
  u64 acc = 0;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < ITERS; i++) acc += doatom(O, a, s, u, v, fv);
  long long t1 = clock64();
  if ((threadIdx.x & 31) == 0) cyc[t / 32] = t1 - t0;
  if (acc == 0x1234567) sink[0] = acc;
}

static u64 *dbuf, *dout, *dsink;
static unsigned *din;
static float *dfin;
static long long *dcyc;
static int fails;

static void check(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("ERROR %s: %s\n", what, cudaGetErrorString(e));
    fails++;
  }
}

// init is the buffer's starting word for op O.
static u64 init_of(int O) {
  switch (O) {
    case O_ADD_F32: case O_ADD_F32V: case O_RED_F32: case O_CUDA_FADD: case O_RED_F32V: case O_SH_ADD_F32: return 0x4B800000u;  // 2^24
    case O_ADD_F64: return 0x4340000000000000ull;  // 2^53
    case O_AND: case O_OR: case O_XOR: return 0x0F0F0F0Fu;
    case O_MIN: case O_MAX: case O_MIN_VAR: case O_RED_MAXV: return 50;
    case O_INC: case O_DEC: return 5;
    case O_CAS: return 77;
  }
  return 100;
}

template <int A, int O>
static void fn() {
  u64 init = init_of(O), h[128];
  for (int i = 0; i < 128; i++) h[i] = init;
  cudaMemcpy(dbuf, h, 128 * 8, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xee, 128 * 8);
  k_fn<A, O><<<2, 64>>>(dbuf, dout, din, dfin, 0x33u, 2, init);
  char what[64];
  snprintf(what, sizeof what, "fn A=%d O=%d", A, O);
  check(what);
  printf("fn A=%d O=%d final=", A, O);
  cudaMemcpy(h, dbuf, 128 * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; i++) printf("%s%llx", i ? "," : "", h[i]);
  printf(" old=");
  cudaMemcpy(h, dout, 128 * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; i++) printf("%s%llx", i ? "," : "", h[i]);
  printf("\n");
}

template <int A, int O>
static void tm() {
  for (int cfg = 0; cfg < 2; cfg++) {
    int blocks = cfg ? 132 : 1, warps = cfg ? 4 : 1;
    double worst = 0;
    for (int rep = 0; rep < 2; rep++) {
      u64 init = init_of(O), h[64];
      for (int i = 0; i < 64; i++) h[i] = init;
      cudaMemcpy(dbuf, h, 64 * 8, cudaMemcpyHostToDevice);
      k_time<A, O><<<blocks, 32 * warps>>>(dcyc, dbuf, din, dfin, 0x33u, dsink);
      check("time");
      static long long c[132 * 4];
      cudaMemcpy(c, dcyc, blocks * warps * 8, cudaMemcpyDeviceToHost);
      worst = 0;
      for (int i = 0; i < blocks * warps; i++) worst = c[i] > worst ? c[i] : worst;
    }
    printf("time A=%d O=%d blocks=%d warps=%d cycles_per=%.2f\n", A, O, blocks, warps, worst / ITERS);
  }
}

int main(int argc, char **argv) {
  cudaMalloc(&dbuf, 128 * 8);
  cudaMalloc(&dout, 132 * 4 * 32 * 8);
  cudaMalloc(&dsink, 8);
  cudaMalloc(&din, 256 * 4);
  cudaMalloc(&dfin, 128 * 4);
  cudaMalloc(&dcyc, 132 * 4 * 8);
  unsigned hin[256];
  float hf[128];
  for (int i = 0; i < 256; i++) hin[i] = (i * 2654435761u) >> 26;  // 0..63, varying
  hin[200] = 1;
  for (int i = 0; i < 128; i++) hf[i] = (i & 1) ? 1.0f : 3.0e-8f * (float)(i + 1);  // rounding depends on order
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  cudaMemcpy(dfin, hf, sizeof hf, cudaMemcpyHostToDevice);
  bool timing = argc > 1 && strcmp(argv[1], "time") == 0;
  bool fnonly = argc > 1 && strcmp(argv[1], "fn") == 0;
  if (!timing) {
    printf("in=");
    for (int i = 0; i < 128; i++) printf("%s%x", i ? "," : "", hin[i]);
    printf(" fin=");
    for (int i = 0; i < 128; i++) printf("%s%x", i ? "," : "", *(unsigned *)&hf[i]);
    printf("\n");
#define OPS0(A) fn<A, 0>(); fn<A, 1>(); fn<A, 2>(); fn<A, 3>(); fn<A, 4>(); fn<A, 5>(); fn<A, 6>(); fn<A, 7>(); \
  fn<A, 8>(); fn<A, 9>(); fn<A, 10>(); fn<A, 11>(); fn<A, 12>(); fn<A, 13>(); fn<A, 14>(); fn<A, 15>(); fn<A, 16>(); \
  fn<A, 17>(); fn<A, 18>(); fn<A, 19>(); fn<A, 20>(); fn<A, 21>(); fn<A, 22>(); fn<A, 23>(); fn<A, 24>(); fn<A, 25>(); \
  fn<A, 26>(); fn<A, 27>(); fn<A, 28>(); fn<A, 29>(); fn<A, 30>(); fn<A, 31>(); fn<A, 32>(); fn<A, 33>(); fn<A, 34>(); \
  fn<A, 35>(); fn<A, 36>(); fn<A, 37>(); fn<A, 38>(); fn<A, 39>();
    OPS0(0)
#define OPSA(A) fn<A, 0>(); fn<A, 2>(); fn<A, 4>(); fn<A, 8>(); fn<A, 24>();
    OPSA(1) OPSA(2) OPSA(3) OPSA(4) OPSA(5) OPSA(6) OPSA(7) OPSA(8) OPSA(9)
  }
  if (!fnonly) {
    tm<0, O_ADD_IMM>(); tm<0, O_RED_IMM>(); tm<0, O_ADD_VAR>(); tm<0, O_RED_VAR>(); tm<0, O_ADD_F32>();
    tm<0, O_ADD_F32V>(); tm<0, O_RED_F32>(); tm<0, O_ADD_U64>(); tm<0, O_EXCH>(); tm<0, O_ADD_ACQREL>();
    tm<3, O_ADD_IMM>(); tm<1, O_ADD_IMM>(); tm<5, O_ADD_IMM>(); tm<0, O_SH_ADD>(); tm<0, O_SH_ADD_VAR>();
    tm<9, O_ADD_IMM>(); tm<0, O_CUDA_ADD>(); tm<0, O_MIN_VAR>();
  }
  printf("done fails=%d\n", fails);
  return fails != 0;
}
