// Shared helpers of the texture test programs: error checks that print the
// CUDA error name (so a refusal is part of the recorded output), float bits
// as hex, and a small deterministic generator for coordinates.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                   \
  do {                                                             \
    cudaError_t e_ = (x);                                          \
    if (e_ != cudaSuccess) {                                       \
      printf("line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); \
      return 1;                                                    \
    }                                                              \
  } while (0)

static unsigned fbits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

static unsigned lcg_state = 12345;
static unsigned lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}
// A coordinate in [lo, hi) with a fraction of 1/4096 steps, so some land
// between the 1/256 steps of the filtering weights. Callers sequence the
// calls explicitly, in the order GCC (nvcc's host compiler) evaluates
// function arguments, right to left: the recordings depend on it.
static float coord(float lo, float hi) {
  unsigned r = lcg() % 4096u;
  return lo + (hi - lo) * (float)r / 4096.0f;
}

static void printHex(const char *label, const float *v, int n) {
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf(" %08x", fbits(v[i]));
  printf("\n");
}

static cudaTextureDesc texDesc(int addr, int filter, int norm, int readNorm) {
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = (cudaTextureAddressMode)addr;
  d.filterMode = (cudaTextureFilterMode)filter;
  d.normalizedCoords = norm;
  d.readMode = readNorm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  d.borderColor[0] = 0.5f;
  d.borderColor[1] = -1.25f;
  d.borderColor[2] = 2.0f;
  d.borderColor[3] = 3.0f;
  return d;
}

static cudaResourceDesc arrayRes(cudaArray_t a) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}
