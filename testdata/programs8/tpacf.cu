// Parboil-style TPACF (two-point angular correlation): points on the unit
// sphere, the data set against itself and against a random set. Each block
// stages a tile of points in shared memory; every thread takes one point,
// computes its dot product with each point of the tile, finds the angular
// bin by binary search over cos-space bin edges held in __constant__, and
// counts it in a per-warp shared-memory histogram with atomicAdd; the
// block's histograms are summed and added to the global one atomically.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>

static uint32_t seed = 6174u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define NBINS 20
#define BLOCK 256
#define WARPS (BLOCK / 32)
__constant__ float binb[NBINS + 1]; // decreasing cos values

__global__ void correlate(const float *x1, const float *y1, const float *z1, int n1, const float *x2, const float *y2,
                          const float *z2, int n2, int self, unsigned long long *hist) {
  __shared__ float sx[BLOCK], sy[BLOCK], sz[BLOCK];
  __shared__ unsigned int sh[WARPS][NBINS + 2];
  int tid = threadIdx.x, warp = tid / 32;
  for (int i = tid; i < WARPS * (NBINS + 2); i += BLOCK) sh[i / (NBINS + 2)][i % (NBINS + 2)] = 0;
  int i = blockIdx.x * BLOCK + tid;
  float px = 0, py = 0, pz = 0;
  if (i < n1) { px = x1[i]; py = y1[i]; pz = z1[i]; }
  for (int tile = 0; tile < n2; tile += BLOCK) {
    __syncthreads();
    int j = tile + tid;
    if (j < n2) { sx[tid] = x2[j]; sy[tid] = y2[j]; sz[tid] = z2[j]; }
    __syncthreads();
    if (i < n1) {
      int lim = n2 - tile < BLOCK ? n2 - tile : BLOCK;
      for (int k = 0; k < lim; k++) {
        if (self && tile + k <= i) continue; // each unordered pair once
        float dot = px * sx[k] + py * sy[k] + pz * sz[k];
        int lo = 0, hi = NBINS + 1;   // bin b holds binb[b] >= dot > binb[b+1]
        while (hi - lo > 1) {
          int mid = (lo + hi) >> 1;
          if (dot >= binb[mid]) hi = mid; else lo = mid;
        }
        atomicAdd(&sh[warp][hi], 1u);
      }
    }
  }
  __syncthreads();
  for (int b = tid; b < NBINS + 2; b += BLOCK) {
    unsigned long long s = 0;
    for (int w = 0; w < WARPS; w++) s += sh[w][b];
    atomicAdd(&hist[b], s);
  }
}

int main() {
  const int n = 2048;
  float *h[6];
  for (int s = 0; s < 6; s++) h[s] = (float *)malloc(n * 4);
  // data: clustered around a few centres; random: uniform on the sphere
  for (int i = 0; i < n; i++) {
    float ra, dec;
    if (i % 3 == 0) { ra = frand() * 6.2831853f; dec = asinf(frand() * 2.0f - 1.0f); }
    else { int c = lcg() % 5; ra = 1.1f * c + 0.05f * frand(); dec = 0.3f * c - 0.6f + 0.05f * frand(); }
    h[0][i] = cosf(dec) * cosf(ra); h[1][i] = cosf(dec) * sinf(ra); h[2][i] = sinf(dec);
    float rr = frand() * 6.2831853f, rd = asinf(frand() * 2.0f - 1.0f);
    h[3][i] = cosf(rd) * cosf(rr); h[4][i] = cosf(rd) * sinf(rr); h[5][i] = sinf(rd);
  }
  float edges[NBINS + 1];
  // bins equally spaced in log10(angle in arcminutes), from 1 arcminute to 10000
  for (int b = 0; b <= NBINS; b++) edges[b] = (float)cos(pow(10.0, b * 4.0 / NBINS) / 60.0 * M_PI / 180.0);
  CHECK(cudaMemcpyToSymbol(binb, edges, sizeof edges));
  float *d[6];
  for (int s = 0; s < 6; s++) { CHECK(cudaMalloc(&d[s], n * 4)); CHECK(cudaMemcpy(d[s], h[s], n * 4, cudaMemcpyHostToDevice)); }
  unsigned long long *d_hist, hist[3][NBINS + 2];
  CHECK(cudaMalloc(&d_hist, 3 * (NBINS + 2) * 8));
  CHECK(cudaMemset(d_hist, 0, 3 * (NBINS + 2) * 8));
  int blocks = (n + BLOCK - 1) / BLOCK;
  correlate<<<blocks, BLOCK>>>(d[0], d[1], d[2], n, d[0], d[1], d[2], n, 1, d_hist);                  // DD
  correlate<<<blocks, BLOCK>>>(d[0], d[1], d[2], n, d[3], d[4], d[5], n, 0, d_hist + NBINS + 2);      // DR
  correlate<<<blocks, BLOCK>>>(d[3], d[4], d[5], n, d[3], d[4], d[5], n, 1, d_hist + 2 * (NBINS + 2)); // RR
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost));
  for (int b = 0; b <= NBINS; b++) printf("edge %d %a\n", b, edges[b]);
  const char *names[3] = {"DD", "DR", "RR"};
  for (int s = 0; s < 3; s++) {
    unsigned long long total = 0;
    printf("%s:", names[s]);
    for (int b = 0; b < NBINS + 2; b++) { printf(" %llu", hist[s][b]); total += hist[s][b]; }
    printf(" (total %llu)\n", total);
  }
  return 0;
}
