// probe.cu records the H100's f16/bf16 atomics and reductions (scalar,
// packed and the sm_90 vector forms) and the 128-bit loads, stores and
// atomics, one form per binary: nvcc -arch=sm_90 -DFORM=n (run.sh).
// Each of N threads runs its form once on its own W bytes (or, for the
// contention forms, 64 threads on one address with inputs whose result
// does not depend on the order). It writes form_NN.bin: init | b | c |
// old | mem, each N*W bytes (init the memory before, b and c the operands,
// old what the atomic returned, mem the memory after).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include "forms.h"

#define N 512
#define BLOCK 256

__global__ void probe(unsigned char *mem, const unsigned char *bv, const unsigned char *cv, unsigned char *old) {
  __shared__ __align__(16) unsigned char sh[BLOCK * 16];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int slot = CONT ? i / 64 : i, lslot = CONT ? t / 64 : t;
  int nsl = CONT ? BLOCK / 64 : BLOCK, first = blockIdx.x * nsl;
  unsigned char *p = mem + slot * W;
  if (SH) {
    for (int k = t; k < nsl * W; k += blockDim.x) sh[k] = mem[first * W + k];
    __syncthreads();
    p = sh + lslot * W;
  }
  const unsigned char *bp = bv + i * W, *cp = cv + i * W;
  unsigned char *op = old + i * W;
  (void)cp;
  BODY
  if (SH) {
    __syncthreads();
    for (int k = t; k < nsl * W; k += blockDim.x) mem[first * W + k] = sh[k];
  }
}

static uint64_t st = 0x9e3779b97f4a7c15ull;
static uint32_t rnd() { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (uint32_t)(st >> 11); }

static const uint16_t f16sp[] = {0x7e00, 0x7c01, 0xfe00, 0x7d55, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x03ff, 0x7bff, 0xfbff, 0x0400, 0x8001, 0x83ff, 0x3c00};
static const uint16_t bf16sp[] = {0x7fc0, 0x7f81, 0xffc0, 0x7fd5, 0x7f80, 0xff80, 0x0000, 0x8000, 0x0001, 0x007f, 0x7f7f, 0xff7f, 0x0080, 0x8001, 0x807f, 0x3f80};

static uint16_t small_int(int n, int kind) { // exact small integer in f16 (0) or bf16 (1)
  float f = (float)n; uint32_t u; memcpy(&u, &f, 4);
  if (kind == 1) return (uint16_t)(u >> 16);
  if (n == 0) return 0;
  uint32_t s = u >> 31, e = (u >> 23) & 0xff, m = u & 0x7fffff;
  return (uint16_t)(s << 15 | (e - 127 + 15) << 10 | m >> 13);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  size_t n = (size_t)N * W;
  unsigned char *init = (unsigned char *)calloc(n, 1), *b = (unsigned char *)calloc(n, 1), *c = (unsigned char *)calloc(n, 1);
  unsigned char *old = (unsigned char *)calloc(n, 1), *res = (unsigned char *)calloc(n, 1);
  st += FORM * 0x1234567ull;
  int mshift = KIND == 0 ? 10 : 7, emax = KIND == 0 ? 31 : 255;
  const uint16_t *sp = KIND == 0 ? f16sp : bf16sp;
  for (size_t k = 0; k < n; k += 2) {
    uint16_t *x = (uint16_t *)(init + k), *y = (uint16_t *)(b + k);
    if (KIND == 2) { *x = rnd(); *y = rnd(); *(uint16_t *)(c + k) = rnd(); continue; }
    if (CONT && !MM) { *x = small_int((int)(rnd() % 17) - 8, KIND); *y = small_int((int)(rnd() % 5) - 2, KIND); continue; }
    if (CONT) { // min/max: finite nonzero values, so ties are bit-identical
      *x = (uint16_t)((rnd() & 1) << 15 | (1 + rnd() % (emax - 1)) << mshift | (rnd() & ((1 << mshift) - 1)));
      *y = (uint16_t)((rnd() & 1) << 15 | (1 + rnd() % (emax - 1)) << mshift | (rnd() & ((1 << mshift) - 1)));
      continue;
    }
    uint32_t r = rnd() % 16;
    *x = rnd(); *y = rnd();
    if (r == 0) *y = sp[rnd() % 16];
    else if (r == 1) *x = sp[rnd() % 16];
    else if (r == 2) { *x = sp[rnd() % 16]; *y = sp[rnd() % 16]; }
    else if (r >= 6) {
      int e = (*x >> mshift) & emax;
      if (e == emax) e = emax - 1 - rnd() % 4;
      int e2 = e + (int)(rnd() % 7) - 3;
      if (e2 < 0) e2 = 0;
      if (e2 > emax - 1) e2 = emax - 1;
      *x = (uint16_t)((*x & 0x8000) | e << mshift | (*x & ((1 << mshift) - 1)));
      *y = (uint16_t)((rnd() & 1) << 15 | e2 << mshift | (rnd() & ((1 << mshift) - 1)));
    }
  }
  if (CAS) // half the compares match the memory
    for (int i = 1; i < N; i += 2) memcpy(b + (size_t)i * W, init + (size_t)i * W, W);
  unsigned char *dm, *db, *dc, *dold;
  cudaMalloc(&dm, n); cudaMalloc(&db, n); cudaMalloc(&dc, n); cudaMalloc(&dold, n);
  cudaMemcpy(dm, init, n, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, n, cudaMemcpyHostToDevice);
  cudaMemset(dold, 0, n);
  probe<<<N / BLOCK, BLOCK>>>(dm, db, dc, dold);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { fprintf(stderr, "form %d: %s\n", FORM, cudaGetErrorString(err)); return 1; }
  cudaMemcpy(old, dold, n, cudaMemcpyDeviceToHost);
  cudaMemcpy(res, dm, n, cudaMemcpyDeviceToHost);
  char path[512];
  snprintf(path, sizeof path, "%s/form_%02d.bin", dir, FORM);
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); return 1; }
  fwrite(init, 1, n, f); fwrite(b, 1, n, f); fwrite(c, 1, n, f); fwrite(old, 1, n, f); fwrite(res, 1, n, f);
  fclose(f);
  printf("form %d ok (W=%d)\n", FORM, W);
  return 0;
}
