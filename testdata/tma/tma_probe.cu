// TMA probe (warpsim, issue 18): one case of cases.txt per run.
//   tma_probe cases.txt NAME OUT.bin
// encodes the case's tensor map with cuTensorMapEncodeTiled and, unless the case is
// encode-only (E), runs it: L loads a box into shared memory (pre-filled with 0xA5)
// through cp.async.bulk.tensor completing on an mbarrier and dumps the shared memory;
// M does the same as a multicast to a cluster of 2; S stores a box from shared memory
// (cp.async.bulk.tensor ... bulk_group); R reduces it into the tensor
// (cp.reduce.async.bulk.tensor). OUT.bin: u32 encode result, u32 CUDA error, then the
// dump (L/M: per block, u32 "phase completed" + 12 zero bytes + the shared bytes; S/R:
// the whole global tensor after the kernel). Kinds I and T are L and S for interleaved layouts, which
// may move more than the box: I measures the transaction bytes (the "done" word holds them), and both
// leave room for 8 times the box. The inputs are made by pattern() below,
// which the Go test (internal/engine/tma_test.go) repeats.
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Case {
  char name[64], kind[4];
  int dtype, rank;
  unsigned long long g[5], s[5];
  unsigned b[5], e[5];
  int il, sw, l2, oob;
  int c[5];
  int dstoff, op;
  long long gaoff;
  int tmoff, pat;
};

struct Params {
  int c[5];
  int dstOff;
  unsigned expect, dump, nsrc;
  unsigned short mask;
  unsigned short measure;  // kind I: expect is a large count; the bytes moved are measured (load_body)
};

static int esize(int dt) {
  switch (dt) {
    case 0: return 1;
    case 1: case 6: case 9: return 2;
    case 4: case 5: case 8: return 8;
    default: return 4;
  }
}

// pattern gives element k's bits (salt separates the inputs).
static unsigned hash32(unsigned k) { return (k * 2654435761u) ^ (k << 13) ^ (k >> 7); }
static const unsigned spec32[16] = {0x00000001u, 0x807fffffu, 0x00800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                    0x7f800001u, 0xffc12345u, 0x3f801000u, 0x3f803000u, 0x3f800fffu, 0x3f801001u,
                                    0x7f7ff000u, 0x7f7fffffu, 0x00001000u, 0x80000000u};
static const unsigned short spec16[16] = {0x0001, 0x8001, 0x03ff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe12,
                                          0x7bff, 0x0400, 0x8000, 0x3c00, 0x3c01, 0x7f7f, 0x0080, 0x8080};
static unsigned long long pattern(int dt, int pat, unsigned k) {
  unsigned h = hash32(k), h2 = hash32(k + 7777u);
  if (pat == 2) {  // every third element a special value (subnormals, infinities, NaNs, rounding ties)
    if (k % 3 == 0) {
      unsigned i = (k / 3 + (k >= 100000u ? 5u : 0u)) % 16u;
      return (dt == 6 || dt == 9) ? spec16[i] : spec32[i];
    }
    pat = 0;
  }
  if (pat == 0) {
    unsigned s = (k / 3) & 1;
    switch (dt) {
      case 6: return (s << 15) | ((10 + k % 10) << 10) | ((h >> 6) & 0x3ff);
      case 9: return (s << 15) | ((118 + k % 20) << 7) | ((h >> 9) & 0x7f);
      case 7: case 10: case 11: case 12: return (s << 31) | ((118 + k % 20) << 23) | ((h >> 9) & 0x7fffff);
      case 8: return ((unsigned long long)s << 63) | ((unsigned long long)(1016 + k % 20) << 52) |
                     (((unsigned long long)h << 20 ^ h2) & 0xfffffffffffffull);
    }
  }
  return ((unsigned long long)h2 << 32) | h;
}
static void fill(unsigned char* p, size_t bytes, int dt, int pat, unsigned salt) {
  int es = esize(dt);
  for (size_t i = 0; i * es < bytes; i++) {
    unsigned long long v = pattern(dt, pat, (unsigned)i + salt);
    for (int j = 0; j < es && i * es + j < bytes; j++) p[i * es + j] = (unsigned char)(v >> (8 * j));
  }
}

#define SA(p) ((unsigned)__cvta_generic_to_shared(p))

__device__ __forceinline__ unsigned waitb(unsigned bar, unsigned par) {
  for (int i = 0; i < 100000; i++) {
    unsigned ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(bar), "r"(par) : "memory");
    if (ok) return 1;
  }
  return 0;
}

template <int R>
__device__ __forceinline__ void tload(unsigned dst, const void* tm, const int* c, unsigned bar) {
  if constexpr (R == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(bar) : "memory");
  if constexpr (R == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory");
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
  if constexpr (R == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
  if constexpr (R == 5)
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
}

template <int R>
__device__ __forceinline__ void load_body(const void* tm, const Params& p, unsigned char* out) {
  extern __shared__ __align__(1024) unsigned char sm[];
  unsigned s0 = SA(sm);
  unsigned base = (s0 + 16 + 1023) & ~1023u;
  unsigned char* gb = sm + (base - s0);
  unsigned bar = s0;
  for (unsigned i = threadIdx.x; i < p.dump; i += blockDim.x) gb[i] = 0xA5;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(1) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(tm) : "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(p.expect) : "memory");
    tload<R>(base + p.dstOff, tm, p.c, bar);
  }
  unsigned done;
  if (p.measure) {
    // Kind I: the copy may move more bytes than the box holds (interleaved layouts). Give it time to
    // finish, then count down the transaction bytes one at a time until the phase completes: the
    // bytes moved are expect minus the count (the "done" word records them).
    if (threadIdx.x == 0) {
      long long t0 = clock64();
      while (clock64() - t0 < 4000000) {
      }
      unsigned n = 0, ok = 0;
      for (; n <= p.expect; n++) {
        asm volatile("{ .reg .pred q; mbarrier.test_wait.parity.shared::cta.b64 q, [%1], %2; selp.u32 %0, 1, 0, q; }"
                     : "=r"(ok) : "r"(bar), "r"(0) : "memory");
        if (ok) break;
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
      }
      done = ok ? p.expect - n : 0xffffffffu;
    }
    waitb(bar, 0);
  } else {
    done = waitb(bar, 0);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < p.dump; i += blockDim.x) out[16 + i] = gb[i];
  if (threadIdx.x == 0) ((unsigned*)out)[0] = done;
}

#define LOADK(R) \
  extern "C" __global__ void kload##R(const __grid_constant__ CUtensorMap tm, const Params p, unsigned char* out) { \
    load_body<R>(&tm, p, out);                                                                                 \
  }
LOADK(1)
LOADK(2)
LOADK(3)
LOADK(4)
LOADK(5)

extern "C" __global__ void __cluster_dims__(2, 1, 1) kmcast2(const __grid_constant__ CUtensorMap tm, const Params p, unsigned char* out) {
  extern __shared__ __align__(1024) unsigned char sm[];
  unsigned s0 = SA(sm);
  unsigned base = (s0 + 16 + 1023) & ~1023u;
  unsigned char* gb = sm + (base - s0);
  unsigned bar = s0;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  for (unsigned i = threadIdx.x; i < p.dump; i += blockDim.x) gb[i] = 0xA5;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(1) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(p.expect) : "memory");
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
  if (rank == 0 && threadIdx.x == 0)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
        ::"r"(base + p.dstOff), "l"(&tm), "r"(p.c[0]), "r"(p.c[1]), "r"(bar), "h"(p.mask) : "memory");
  unsigned done = waitb(bar, 0);
  __syncthreads();
  unsigned char* o = out + rank * (16 + p.dump);
  for (unsigned i = threadIdx.x; i < p.dump; i += blockDim.x) o[16 + i] = gb[i];
  if (threadIdx.x == 0) ((unsigned*)o)[0] = done;
  asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory");
}

template <int R>
__device__ __forceinline__ void tstore(const void* tm, const int* c, unsigned src) {
  if constexpr (R == 1)
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%1}], [%2];" ::"l"(tm), "r"(c[0]), "r"(src) : "memory");
  if constexpr (R == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(src) : "memory");
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
}

#define RED(OPS) \
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OPS ".tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(src) : "memory")
template <int OP>
__device__ __forceinline__ void tred(const void* tm, const int* c, unsigned src) {
  if constexpr (OP == 0) RED("add");
  if constexpr (OP == 1) RED("min");
  if constexpr (OP == 2) RED("max");
  if constexpr (OP == 3) RED("inc");
  if constexpr (OP == 4) RED("dec");
  if constexpr (OP == 5) RED("and");
  if constexpr (OP == 6) RED("or");
  if constexpr (OP == 7) RED("xor");
}

template <int R, int OP>
__device__ __forceinline__ void store_body(const void* tm, const Params& p, const unsigned char* src) {
  extern __shared__ __align__(1024) unsigned char sm[];
  unsigned s0 = SA(sm);
  unsigned base = (s0 + 16 + 1023) & ~1023u;
  unsigned char* gb = sm + (base - s0);
  for (unsigned i = threadIdx.x; i < p.nsrc; i += blockDim.x) gb[p.dstOff + i] = src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (OP < 0)
      tstore<R>(tm, p.c, base + p.dstOff);
    else
      tred<OP>(tm, p.c, base + p.dstOff);
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

#define STOREK(R) \
  extern "C" __global__ void kstore##R(const __grid_constant__ CUtensorMap tm, const Params p, const unsigned char* src) { \
    store_body<R, -1>(&tm, p, src);                                                                                    \
  }
STOREK(1)
STOREK(2)
STOREK(3)
#define REDK(OP) \
  extern "C" __global__ void kred##OP(const __grid_constant__ CUtensorMap tm, const Params p, const unsigned char* src) { \
    store_body<2, OP>(&tm, p, src);                                                                                    \
  }
REDK(0)
REDK(1)
REDK(2)
REDK(3)
REDK(4)
REDK(5)
REDK(6)
REDK(7)

static bool read_case(const char* file, const char* name, Case* c) {
  FILE* f = fopen(file, "r");
  if (!f) return false;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    Case x;
    memset(&x, 0, sizeof x);
    int n = sscanf(line,
                   "%63s %3s %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %u %u %u %u %u %u %u %u %u %u %d %d %d %d %d %d %d %d %d %d %d %lld %d %d",
                   x.name, x.kind, &x.dtype, &x.rank, &x.g[0], &x.g[1], &x.g[2], &x.g[3], &x.g[4], &x.s[1], &x.s[2], &x.s[3],
                   &x.s[4], &x.b[0], &x.b[1], &x.b[2], &x.b[3], &x.b[4], &x.e[0], &x.e[1], &x.e[2], &x.e[3], &x.e[4], &x.il,
                   &x.sw, &x.l2, &x.oob, &x.c[0], &x.c[1], &x.c[2], &x.c[3], &x.c[4], &x.dstoff, &x.op, &x.gaoff, &x.tmoff, &x.pat);
    if (n != 37) {
      fprintf(stderr, "bad line (%d fields): %s", n, line);
      continue;
    }
    if (strcmp(x.name, name) == 0) {
      *c = x;
      fclose(f);
      return true;
    }
  }
  fclose(f);
  return false;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: tma_probe cases.txt NAME OUT.bin\n");
    return 2;
  }
  Case c;
  if (!read_case(argv[1], argv[2], &c)) {
    fprintf(stderr, "no case %s\n", argv[2]);
    return 2;
  }
  int es = esize(c.dtype);
  int r = c.rank < 1 ? 1 : (c.rank > 5 ? 5 : c.rank);
  // the tensor's bytes: the outermost stride times the outermost dim (dense dim 0 for rank 1)
  unsigned long long bytes = c.g[0] * es;
  if (r > 1 && c.kind[0] != 'E') bytes = c.s[r - 1] * c.g[r - 1];
  if (c.kind[0] == 'E') bytes = 4096;
  unsigned char* d = nullptr;
  cudaMalloc(&d, bytes + 256);
  unsigned char* h = (unsigned char*)calloc(bytes + 256, 1);
  fill(h, bytes, c.dtype, c.pat, 0);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  static unsigned char tmbuf[256] __attribute__((aligned(128)));
  CUtensorMap* tm = (CUtensorMap*)(tmbuf + c.tmoff);
  cuuint64_t gstr[5];
  for (int i = 0; i < 4; i++) gstr[i] = c.s[i + 1];
  cuuint32_t box[5], est[5];
  for (int i = 0; i < 5; i++) box[i] = c.b[i], est[i] = c.e[i];
  void* ga = c.gaoff < 0 ? nullptr : (void*)(d + c.gaoff);
  CUresult er = cuTensorMapEncodeTiled(tm, (CUtensorMapDataType)c.dtype, c.rank, ga, (const cuuint64_t*)c.g, gstr, box,
                                       est, (CUtensorMapInterleave)c.il, (CUtensorMapSwizzle)c.sw,
                                       (CUtensorMapL2promotion)c.l2, (CUtensorMapFloatOOBfill)c.oob);
  FILE* o = fopen(argv[3], "wb");
  unsigned hdr[2] = {(unsigned)er, 0};
  printf("%s: encode %d\n", c.name, (int)er);
  if (er != CUDA_SUCCESS || c.kind[0] == 'E') {
    fwrite(hdr, 4, 2, o);
    fclose(o);
    return 0;
  }
  Params p;
  memset(&p, 0, sizeof p);
  for (int i = 0; i < 5; i++) p.c[i] = c.c[i];
  p.dstOff = c.dstoff;
  unsigned long long n = es;
  for (int i = 0; i < r; i++) n *= (c.b[i] + c.e[i] - 1) / c.e[i];
  p.expect = (unsigned)n;
  p.nsrc = (unsigned)n;
  p.dump = (unsigned)(((n + c.dstoff + 1023) / 1024) * 1024 + 1024);
  if (c.kind[0] == 'I' || c.kind[0] == 'T') {  // interleaved: room for up to 8 times the box
    p.measure = c.kind[0] == 'I';
    p.expect = (unsigned)(8 * n + 4096);
    p.nsrc = (unsigned)(8 * n);
    p.dump = (unsigned)(((8 * n + c.dstoff + 1023) / 1024) * 1024 + 1024);
  }
  p.mask = (unsigned short)c.op;
  size_t shm = p.dump + 2048;
  cudaError_t ce = cudaSuccess;
  unsigned char* out = nullptr;
  size_t outBytes = 0;
  CUtensorMap tmv = *tm;
  if (c.kind[0] == 'L' || c.kind[0] == 'M' || c.kind[0] == 'I') {
    int blocks = c.kind[0] == 'M' ? 2 : 1;
    outBytes = (size_t)blocks * (16 + p.dump);
    cudaMalloc(&out, outBytes);
    cudaMemset(out, 0, outBytes);
    void (*k)(const CUtensorMap, const Params, unsigned char*) = nullptr;
    if (c.kind[0] == 'M') k = kmcast2;
    else if (r == 1) k = kload1;
    else if (r == 2) k = kload2;
    else if (r == 3) k = kload3;
    else if (r == 4) k = kload4;
    else k = kload5;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm);
    k<<<blocks, 128, shm>>>(tmv, p, out);
  } else {
    unsigned char* hs = (unsigned char*)calloc(p.nsrc, 1);
    fill(hs, p.nsrc, c.dtype, c.pat, 100000);
    unsigned char* src = nullptr;
    cudaMalloc(&src, p.nsrc);
    cudaMemcpy(src, hs, p.nsrc, cudaMemcpyHostToDevice);
    void (*k)(const CUtensorMap, const Params, const unsigned char*) = nullptr;
    if (c.kind[0] == 'S' || c.kind[0] == 'T') k = r == 1 ? kstore1 : (r == 2 ? kstore2 : kstore3);
    else {
      void (*ks[8])(const CUtensorMap, const Params, const unsigned char*) = {kred0, kred1, kred2, kred3, kred4, kred5, kred6, kred7};
      k = ks[c.op & 7];
    }
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm);
    k<<<1, 128, shm>>>(tmv, p, src);
    out = d;
    outBytes = bytes;
  }
  ce = cudaDeviceSynchronize();
  if (ce == cudaSuccess) ce = cudaGetLastError();
  hdr[1] = (unsigned)ce;
  fwrite(hdr, 4, 2, o);
  if (ce == cudaSuccess) {
    unsigned char* ho = (unsigned char*)malloc(outBytes);
    cudaMemcpy(ho, out, outBytes, cudaMemcpyDeviceToHost);
    fwrite(ho, 1, outBytes, o);
    if (c.kind[0] == 'L' || c.kind[0] == 'M' || c.kind[0] == 'I') printf("  done %u\n", *(unsigned*)ho);
  } else {
    printf("  cuda error %d %s\n", (int)ce, cudaGetErrorString(ce));
  }
  fclose(o);
  return 0;
}
