// Parboil-style lattice Boltzmann (D3Q19, BGK collision) on a small box
// with a few solid cells and a moving lid: structure-of-arrays
// distributions, one thread per cell, a pull-style stream-and-collide
// kernel per time step between two grids swapped by the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 1618u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define SX 32
#define SY 32
#define SZ 24
#define CELLS (SX * SY * SZ)
#define Q 19
#define OMEGA 1.85f

__constant__ int cx[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int cy[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int cz[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant__ int opp[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
__constant__ float wt[Q] = {1.f / 3, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 36, 1.f / 36, 1.f / 36,
                            1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

__global__ void stream_collide(const float *src, float *dst, const unsigned char *solid, float lid) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  int c = (z * SY + y) * SX + x;
  if (solid[c]) {
    for (int q = 0; q < Q; q++) dst[q * CELLS + c] = src[q * CELLS + c];
    return;
  }
  float f[Q];
  float rho = 0, ux = 0, uy = 0, uz = 0;
  for (int q = 0; q < Q; q++) {
    int xs = x - cx[q], ys = y - cy[q], zs = z - cz[q];
    float v;
    if (xs < 0 || xs >= SX || ys < 0 || ys >= SY || zs < 0 || zs >= SZ || solid[(zs * SY + ys) * SX + xs]) {
      // bounce back; the top wall moves along x
      v = src[opp[q] * CELLS + c];
      if (zs >= SZ) v += 6.0f * wt[q] * cx[q] * lid;
    } else {
      v = src[q * CELLS + (zs * SY + ys) * SX + xs];
    }
    f[q] = v;
    rho += v;
    ux += cx[q] * v; uy += cy[q] * v; uz += cz[q] * v;
  }
  ux /= rho; uy /= rho; uz /= rho;
  float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
  for (int q = 0; q < Q; q++) {
    float cu = 3.0f * (cx[q] * ux + cy[q] * uy + cz[q] * uz);
    float feq = wt[q] * rho * (1.0f + cu + 0.5f * cu * cu - u2);
    dst[q * CELLS + c] = f[q] + OMEGA * (feq - f[q]);
  }
}

int main() {
  const int steps = 6;
  const float weights[Q] = {1.f / 3, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 36, 1.f / 36, 1.f / 36,
                            1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
  size_t bytes = (size_t)Q * CELLS * sizeof(float);
  float *f = (float *)malloc(bytes);
  unsigned char *solid = (unsigned char *)calloc(CELLS, 1);
  for (int i = 0; i < 60; i++) { // a few solid boxes
    int x = lcg() % (SX - 2), y = lcg() % (SY - 2), z = lcg() % (SZ - 4);
    solid[(z * SY + y) * SX + x] = solid[(z * SY + y) * SX + x + 1] = solid[(z * SY + y + 1) * SX + x] = 1;
  }
  for (int q = 0; q < Q; q++)
    for (int c = 0; c < CELLS; c++) f[q * CELLS + c] = weights[q] * (1.0f + (lcg() % 1000) * 1e-5f);
  float *d_f[2]; unsigned char *d_solid;
  CHECK(cudaMalloc(&d_f[0], bytes)); CHECK(cudaMalloc(&d_f[1], bytes)); CHECK(cudaMalloc(&d_solid, CELLS));
  CHECK(cudaMemcpy(d_f[0], f, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_solid, solid, CELLS, cudaMemcpyHostToDevice));
  dim3 grid(SY, SZ), block(SX);
  for (int s = 0; s < steps; s++) stream_collide<<<grid, block>>>(d_f[s % 2], d_f[1 - s % 2], d_solid, 0.05f);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(f, d_f[steps % 2], bytes, cudaMemcpyDeviceToHost));
  double mass = 0, mx = 0;
  for (int c = 0; c < CELLS; c++)
    for (int q = 0; q < Q; q++) mass += f[q * CELLS + c];
  for (int c = 0; c < CELLS; c++) mx += f[1 * CELLS + c] - f[2 * CELLS + c];
  printf("box %dx%dx%d steps %d mass %.9e x-momentum %.9e\n", SX, SY, SZ, steps, mass, mx);
  printf("distributions fnv %016llx\n", (unsigned long long)fnv(f, bytes));
  for (int i = 0; i < 6; i++) printf("f[%d] = %a\n", i * 23497, f[i * 23497]);
  return 0;
}
