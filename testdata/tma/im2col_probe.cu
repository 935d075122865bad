// TMA im2col probe (warpsim, issue 18): one case of im2col_cases.txt per run.
//   im2col_probe im2col_cases.txt NAME OUT.bin
// encodes the case's tensor map with cuTensorMapEncodeIm2col and, unless the case
// is encode-only (E), runs it: L loads pixelsPerColumn pixels of channelsPerPixel
// channels into shared memory (pre-filled with 0xA5) through
// cp.async.bulk.tensor.Nd...im2col completing on an mbarrier and dumps the shared
// memory; P does the same after a cp.async.bulk.prefetch.tensor.Nd.L2.global.im2col
// of the same box. OUT.bin: u32 encode result, u32 CUDA error, then u32 "phase
// completed", 12 zero bytes and the shared bytes. The input is made by pattern()
// below (the same as tma_probe.cu's), which the Go tests repeat.
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Case {
  char name[64], kind[4];
  int dtype, rank;
  unsigned long long g[5], s[5];
  int lo[3], up[3];
  unsigned cpp, ppc;
  unsigned e[5];
  int il, sw, l2, oob;
  int c[5];
  int o[3];
  int dstoff;
  long long gaoff;
  int pat;
};

struct Params {
  int c[5];
  int o[3];
  int dstOff;
  unsigned expect, dump, pf;
};

static int esize(int dt) {
  switch (dt) {
    case 0: return 1;
    case 1: case 6: case 9: return 2;
    case 4: case 5: case 8: return 8;
    default: return 4;
  }
}

// pattern gives element k's bits (pat 0: typed values, 1: raw hash bits).
static unsigned hash32(unsigned k) { return (k * 2654435761u) ^ (k << 13) ^ (k >> 7); }
static unsigned long long pattern(int dt, int pat, unsigned k) {
  unsigned h = hash32(k), h2 = hash32(k + 7777u);
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
static void fill(unsigned char* p, size_t bytes, int dt, int pat) {
  int es = esize(dt);
  for (size_t i = 0; i * es < bytes; i++) {
    unsigned long long v = pattern(dt, pat, (unsigned)i);
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
__device__ __forceinline__ void iload(unsigned dst, const void* tm, const int* c, const int* o, unsigned bar) {
  unsigned short o0 = (unsigned short)o[0], o1 = (unsigned short)o[1], o2 = (unsigned short)o[2];
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(o0) : "memory");
  if constexpr (R == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(o0), "h"(o1) : "memory");
  if constexpr (R == 5)
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                 ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(o0), "h"(o1), "h"(o2) : "memory");
}

template <int R>
__device__ __forceinline__ void iprefetch(const void* tm, const int* c, const int* o) {
  unsigned short o0 = (unsigned short)o[0], o1 = (unsigned short)o[1], o2 = (unsigned short)o[2];
  if constexpr (R == 3)
    asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%0, {%1, %2, %3}], {%4};"
                 ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "h"(o0) : "memory");
  if constexpr (R == 4)
    asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col [%0, {%1, %2, %3, %4}], {%5, %6};"
                 ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "h"(o0), "h"(o1) : "memory");
  if constexpr (R == 5)
    asm volatile("cp.async.bulk.prefetch.tensor.5d.L2.global.im2col [%0, {%1, %2, %3, %4, %5}], {%6, %7, %8};"
                 ::"l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "h"(o0), "h"(o1), "h"(o2) : "memory");
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
    if (p.pf) iprefetch<R>(tm, p.c, p.o);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(p.expect) : "memory");
    iload<R>(base + p.dstOff, tm, p.c, p.o, bar);
  }
  unsigned done = waitb(bar, 0);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < p.dump; i += blockDim.x) out[16 + i] = gb[i];
  if (threadIdx.x == 0) ((unsigned*)out)[0] = done;
}

#define LOADK(R) \
  extern "C" __global__ void kim2col##R(const __grid_constant__ CUtensorMap tm, const Params p, unsigned char* out) { \
    load_body<R>(&tm, p, out);                                                                                   \
  }
LOADK(3)
LOADK(4)
LOADK(5)

static bool read_case(const char* file, const char* name, Case* c) {
  FILE* f = fopen(file, "r");
  if (!f) return false;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    Case x;
    memset(&x, 0, sizeof x);
    int n = sscanf(line,
                   "%63s %3s %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %d %d %d %d %d %d %u %u %u %u %u %u %u "
                   "%d %d %d %d %d %d %d %d %d %d %d %d %d %lld %d",
                   x.name, x.kind, &x.dtype, &x.rank, &x.g[0], &x.g[1], &x.g[2], &x.g[3], &x.g[4], &x.s[1], &x.s[2],
                   &x.s[3], &x.s[4], &x.lo[0], &x.lo[1], &x.lo[2], &x.up[0], &x.up[1], &x.up[2], &x.cpp, &x.ppc, &x.e[0],
                   &x.e[1], &x.e[2], &x.e[3], &x.e[4], &x.il, &x.sw, &x.l2, &x.oob, &x.c[0], &x.c[1], &x.c[2], &x.c[3],
                   &x.c[4], &x.o[0], &x.o[1], &x.o[2], &x.dstoff, &x.gaoff, &x.pat);
    if (n != 41) {
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
    fprintf(stderr, "usage: im2col_probe im2col_cases.txt NAME OUT.bin\n");
    return 2;
  }
  Case c;
  if (!read_case(argv[1], argv[2], &c)) {
    fprintf(stderr, "no case %s\n", argv[2]);
    return 2;
  }
  int es = esize(c.dtype);
  int r = c.rank < 3 ? 3 : (c.rank > 5 ? 5 : c.rank);
  unsigned long long bytes = c.kind[0] == 'E' ? 4096 : c.s[r - 1] * c.g[r - 1];
  unsigned char* d = nullptr;
  cudaMalloc(&d, bytes + 256);
  unsigned char* h = (unsigned char*)calloc(bytes + 256, 1);
  fill(h, bytes, c.dtype, c.pat);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  static CUtensorMap tmbuf;
  cuuint64_t gstr[5];
  for (int i = 0; i < 4; i++) gstr[i] = c.s[i + 1];
  cuuint32_t est[5];
  for (int i = 0; i < 5; i++) est[i] = c.e[i];
  void* ga = c.gaoff < 0 ? nullptr : (void*)(d + c.gaoff);
  CUresult er = cuTensorMapEncodeIm2col(&tmbuf, (CUtensorMapDataType)c.dtype, c.rank, ga, (const cuuint64_t*)c.g, gstr,
                                        c.lo, c.up, c.cpp, c.ppc, est, (CUtensorMapInterleave)c.il,
                                        (CUtensorMapSwizzle)c.sw, (CUtensorMapL2promotion)c.l2,
                                        (CUtensorMapFloatOOBfill)c.oob);
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
  for (int i = 0; i < 3; i++) p.o[i] = c.o[i];
  p.dstOff = c.dstoff;
  unsigned row = c.cpp * es;
  unsigned sw = c.sw ? 16u << c.sw : 0;
  if (row < sw) row = sw;
  p.expect = c.cpp * c.ppc * es;
  p.dump = ((row * c.ppc + c.dstoff + 1023) / 1024) * 1024 + 1024;
  p.pf = c.kind[0] == 'P';
  size_t shm = p.dump + 2048;
  size_t outBytes = 16 + p.dump;
  unsigned char* out = nullptr;
  cudaMalloc(&out, outBytes);
  cudaMemset(out, 0, outBytes);
  void (*k)(const CUtensorMap, const Params, unsigned char*) = r == 3 ? kim2col3 : (r == 4 ? kim2col4 : kim2col5);
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm);
  CUtensorMap tmv = tmbuf;
  k<<<1, 128, shm>>>(tmv, p, out);
  cudaError_t ce = cudaDeviceSynchronize();
  if (ce == cudaSuccess) ce = cudaGetLastError();
  hdr[1] = (unsigned)ce;
  fwrite(hdr, 4, 2, o);
  if (ce == cudaSuccess) {
    unsigned char* ho = (unsigned char*)malloc(outBytes);
    cudaMemcpy(ho, out, outBytes, cudaMemcpyDeviceToHost);
    fwrite(ho, 1, outBytes, o);
    printf("  done %u\n", *(unsigned*)ho);
  } else {
    printf("  cuda error %d %s\n", (int)ce, cudaGetErrorString(ce));
  }
  fclose(o);
  return 0;
}
