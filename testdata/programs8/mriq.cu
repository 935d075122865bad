// Parboil-style MRI-Q: the Q matrix of non-Cartesian MRI reconstruction.
// ComputePhiMag squares the phase magnitudes; ComputeQ walks the k-space
// samples in chunks copied to __constant__ memory (one launch per chunk),
// each thread accumulating phiMag * cos and sin of 2*pi*(k . x) for its
// voxel in registers.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 3141u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define PIx2 6.2831853071795864769252867665590058f
#define KS_PER_CHUNK 512
#define PHIMAG_BLOCK 256
#define Q_BLOCK 256

struct kValues { float Kx, Ky, Kz, PhiMag; };
__constant__ kValues ck[KS_PER_CHUNK];

__global__ void ComputePhiMag(const float *phiR, const float *phiI, float *phiMag, int numK) {
  int k = blockIdx.x * PHIMAG_BLOCK + threadIdx.x;
  if (k < numK) {
    float r = phiR[k], i = phiI[k];
    phiMag[k] = r * r + i * i;
  }
}

__global__ void ComputeQ(int numK, int kbase, const float *x, const float *y, const float *z, float *Qr, float *Qi) {
  int t = blockIdx.x * Q_BLOCK + threadIdx.x;
  float sx = x[t], sy = y[t], sz = z[t];
  float qr = Qr[t], qi = Qi[t];
  for (int k = 0; k < numK; k++) {
    float arg = PIx2 * (ck[k].Kx * sx + ck[k].Ky * sy + ck[k].Kz * sz);
    qr += ck[k].PhiMag * cosf(arg);
    qi += ck[k].PhiMag * sinf(arg);
  }
  Qr[t] = qr;
  Qi[t] = qi;
}

int main() {
  const int numK = 1536, numX = 2048;
  float *kx = (float *)malloc(numK * 4), *ky = (float *)malloc(numK * 4), *kz = (float *)malloc(numK * 4);
  float *pr = (float *)malloc(numK * 4), *pi = (float *)malloc(numK * 4), *pm = (float *)malloc(numK * 4);
  float *x = (float *)malloc(numX * 4), *y = (float *)malloc(numX * 4), *z = (float *)malloc(numX * 4);
  for (int k = 0; k < numK; k++) {
    kx[k] = (frand() - 0.5f) * 64.0f; ky[k] = (frand() - 0.5f) * 64.0f; kz[k] = (frand() - 0.5f) * 32.0f;
    pr[k] = frand() - 0.5f; pi[k] = frand() - 0.5f;
  }
  for (int i = 0; i < numX; i++) { x[i] = frand() - 0.5f; y[i] = frand() - 0.5f; z[i] = frand() - 0.5f; }
  float *d_pr, *d_pi, *d_pm, *d_x, *d_y, *d_z, *d_qr, *d_qi;
  CHECK(cudaMalloc(&d_pr, numK * 4)); CHECK(cudaMalloc(&d_pi, numK * 4)); CHECK(cudaMalloc(&d_pm, numK * 4));
  CHECK(cudaMalloc(&d_x, numX * 4)); CHECK(cudaMalloc(&d_y, numX * 4)); CHECK(cudaMalloc(&d_z, numX * 4));
  CHECK(cudaMalloc(&d_qr, numX * 4)); CHECK(cudaMalloc(&d_qi, numX * 4));
  CHECK(cudaMemcpy(d_pr, pr, numK * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_pi, pi, numK * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x, numX * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, y, numX * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_z, z, numX * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_qr, 0, numX * 4)); CHECK(cudaMemset(d_qi, 0, numX * 4));
  ComputePhiMag<<<(numK + PHIMAG_BLOCK - 1) / PHIMAG_BLOCK, PHIMAG_BLOCK>>>(d_pr, d_pi, d_pm, numK);
  CHECK(cudaMemcpy(pm, d_pm, numK * 4, cudaMemcpyDeviceToHost));
  kValues *kv = (kValues *)malloc(numK * sizeof(kValues));
  for (int k = 0; k < numK; k++) { kv[k].Kx = kx[k]; kv[k].Ky = ky[k]; kv[k].Kz = kz[k]; kv[k].PhiMag = pm[k]; }
  for (int base = 0; base < numK; base += KS_PER_CHUNK) {
    int n = numK - base < KS_PER_CHUNK ? numK - base : KS_PER_CHUNK;
    CHECK(cudaMemcpyToSymbol(ck, kv + base, n * sizeof(kValues), 0));
    ComputeQ<<<numX / Q_BLOCK, Q_BLOCK>>>(n, base, d_x, d_y, d_z, d_qr, d_qi);
  }
  CHECK(cudaGetLastError());
  float *qr = (float *)malloc(numX * 4), *qi = (float *)malloc(numX * 4);
  CHECK(cudaMemcpy(qr, d_qr, numX * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(qi, d_qi, numX * 4, cudaMemcpyDeviceToHost));
  printf("numK %d numX %d chunks %d\n", numK, numX, (numK + KS_PER_CHUNK - 1) / KS_PER_CHUNK);
  printf("phiMag fnv %016llx Qr fnv %016llx Qi fnv %016llx\n", (unsigned long long)fnv(pm, numK * 4),
         (unsigned long long)fnv(qr, numX * 4), (unsigned long long)fnv(qi, numX * 4));
  for (int i = 0; i < numX; i += 457) printf("Q[%d] = %a %a\n", i, qr[i], qi[i]);
  return 0;
}
