// ISPASS-style LIBOR market model Monte Carlo (LIB): one thread per path
// evolves NN forward rates over NMAT time steps (the rates in a per-thread
// array indexed by loop variables, so in local memory), with normal draws
// from a per-thread LCG (a sum of four uniforms, centred and scaled) and an
// exponential computed with plain multiplies and adds (the series of x/16
// squared four times), then prices a portfolio of swaptions on the path and
// discounts it. The host averages the path values in double.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 26u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)
static void showf(const char *name, const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(float)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
static void showd(const char *name, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(double)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
#define NN 40
#define NMAT 20
#define NOPT 15
#define NPATH 8192

__constant__ float c_lambda[NN];
__constant__ int c_maturity[NOPT];
__constant__ float c_swaprate[NOPT];

__device__ inline float exp_series(float x) {
  float y = x * 0.0625f;
  float p = 1.0f + y * (1.0f + y * (0.5f + y * (0.16666667f + y * (0.041666668f + y * 0.0083333338f))));
  p *= p; p *= p; p *= p; p *= p;
  return p;
}

__global__ void lib_paths(float *values, float *lfinal, float delta, uint32_t seed0) {
  int path = blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= NPATH) return;
  float L[NN], B[NN - NMAT], S[NN - NMAT];
  for (int i = 0; i < NN; i++) L[i] = 0.05f + 0.0005f * (i % 7);
  uint32_t s = seed0 ^ (uint32_t)path * 2654435761u;
  float sqd = sqrtf(delta);
  for (int n = 0; n < NMAT; n++) {
    float u = 0.0f;
    for (int k = 0; k < 4; k++) { s = s * 1664525u + 1013904223u; u += (float)(s >> 8) * (1.0f / 16777216.0f); }
    float z = (u - 2.0f) * 1.7320508f; // variance 1
    float sqez = sqd * z, v = 0.0f;
    for (int i = n + 1; i < NN; i++) {
      float lam = c_lambda[i - n - 1], con1 = delta * lam;
      v += con1 * L[i] / (1.0f + delta * L[i]);
      float vrat = exp_series(con1 * v + lam * (sqez - 0.5f * con1));
      L[i] = L[i] * vrat;
    }
  }
  float b = 1.0f, sum = 0.0f;
  for (int n = NMAT; n < NN; n++) {
    b = b / (1.0f + delta * L[n]);
    sum += delta * b;
    B[n - NMAT] = b;
    S[n - NMAT] = sum;
  }
  float v = 0.0f;
  for (int i = 0; i < NOPT; i++) {
    int m = c_maturity[i] - 1;
    float swapval = B[m] + c_swaprate[i] * S[m] - 1.0f;
    if (swapval < 0.0f) v += -100.0f * swapval;
  }
  for (int n = 0; n < NMAT; n++) v = v / (1.0f + delta * L[n]);
  values[path] = v;
  lfinal[path] = L[NN - 1];
}

int main() {
  float lambda[NN], swaprate[NOPT];
  int maturity[NOPT];
  for (int i = 0; i < NN; i++) lambda[i] = 0.2f;
  for (int i = 0; i < NOPT; i++) { maturity[i] = 4 + 4 * (i % 5); swaprate[i] = 0.045f + 0.001f * (i / 5); }
  CHECK(cudaMemcpyToSymbol(c_lambda, lambda, sizeof(lambda)));
  CHECK(cudaMemcpyToSymbol(c_maturity, maturity, sizeof(maturity)));
  CHECK(cudaMemcpyToSymbol(c_swaprate, swaprate, sizeof(swaprate)));
  float *dv, *dl;
  CHECK(cudaMalloc(&dv, NPATH * 4)); CHECK(cudaMalloc(&dl, NPATH * 4));
  lib_paths<<<NPATH / 128, 128>>>(dv, dl, 0.25f, lcg());
  CHECK(cudaGetLastError());
  float *v = (float *)malloc(NPATH * 4), *l = (float *)malloc(NPATH * 4);
  CHECK(cudaMemcpy(v, dv, NPATH * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(l, dl, NPATH * 4, cudaMemcpyDeviceToHost));
  double mean = 0;
  for (int i = 0; i < NPATH; i++) mean += v[i];
  printf("libor paths %d rates %d steps %d swaptions %d\n", NPATH, NN, NMAT, NOPT);
  printf("portfolio mean %a\n", mean / NPATH);
  showf("value", v, NPATH);
  showf("L_last", l, NPATH);
  return 0;
}
