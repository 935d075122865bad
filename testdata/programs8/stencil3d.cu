// Parboil-style 7-point 3D stencil (Jacobi): 2D thread blocks tile the x-y
// plane and march along z, keeping the planes below and above in registers
// and the current plane in shared memory with its halo; the host swaps two
// grids between iterations.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 2718u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define TX 32
#define TY 4
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

__global__ void block2D_reg_tiling(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz) {
  __shared__ float sh[TY + 2][TX + 2];
  int i = blockIdx.x * TX + threadIdx.x, j = blockIdx.y * TY + threadIdx.y;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  bool in = i < nx && j < ny;
  bool inner = in && i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
  float bottom = in ? A0[IDX(i, j, 0)] : 0.0f;
  float current = in ? A0[IDX(i, j, 1)] : 0.0f;
  float top;
  if (in) { Anext[IDX(i, j, 0)] = bottom; Anext[IDX(i, j, nz - 1)] = A0[IDX(i, j, nz - 1)]; }
  for (int k = 1; k < nz - 1; k++) {
    top = in ? A0[IDX(i, j, k + 1)] : 0.0f;
    __syncthreads();
    sh[sy][sx] = current;
    if (threadIdx.x == 0 && i > 0 && in) sh[sy][0] = A0[IDX(i - 1, j, k)];
    if (threadIdx.x == TX - 1 && i < nx - 1 && in) sh[sy][TX + 1] = A0[IDX(i + 1, j, k)];
    if (threadIdx.y == 0 && j > 0 && in) sh[0][sx] = A0[IDX(i, j - 1, k)];
    if (threadIdx.y == TY - 1 && j < ny - 1 && in) sh[TY + 1][sx] = A0[IDX(i, j + 1, k)];
    __syncthreads();
    if (inner)
      Anext[IDX(i, j, k)] = (top + bottom + sh[sy][sx - 1] + sh[sy][sx + 1] + sh[sy - 1][sx] + sh[sy + 1][sx]) * c1 - current * c0;
    else if (in)
      Anext[IDX(i, j, k)] = current;
    bottom = current;
    current = top;
  }
}

int main() {
  const int nx = 96, ny = 72, nz = 40, iters = 5;
  const float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
  size_t bytes = (size_t)nx * ny * nz * sizeof(float);
  float *h = (float *)malloc(bytes);
  for (size_t i = 0; i < bytes / 4; i++) h[i] = frand();
  float *d[2];
  CHECK(cudaMalloc(&d[0], bytes)); CHECK(cudaMalloc(&d[1], bytes));
  CHECK(cudaMemcpy(d[0], h, bytes, cudaMemcpyHostToDevice));
  dim3 block(TX, TY), grid((nx + TX - 1) / TX, (ny + TY - 1) / TY);
  for (int t = 0; t < iters; t++) block2D_reg_tiling<<<grid, block>>>(c0, c1, d[t % 2], d[1 - t % 2], nx, ny, nz);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d[iters % 2], bytes, cudaMemcpyDeviceToHost));
  printf("grid %dx%dx%d iterations %d\n", nx, ny, nz, iters);
  printf("result fnv %016llx\n", (unsigned long long)fnv(h, bytes));
  for (int i = 0; i < 6; i++) printf("A[%d] = %a\n", i * 40009, h[i * 40009]);
  return 0;
}
