// Rodinia-style Gaussian elimination: for each pivot column t the host
// launches Fan1 (one thread per row below: the multipliers) and Fan2 (a 2D
// grid over the trailing matrix and the right-hand side), 2(n-1) launches
// in all; back substitution on the host.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 8086u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

__global__ void fan1(float *m, const float *a, int size, int t) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= size - 1 - t) return;
  m[size * (r + t + 1) + t] = a[size * (r + t + 1) + t] / a[size * t + t];
}

__global__ void fan2(const float *m, float *a, float *b, int size, int t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x; // row offset below the pivot
  int y = blockIdx.y * blockDim.y + threadIdx.y; // column offset from the pivot
  if (x >= size - 1 - t || y >= size - t) return;
  a[size * (x + 1 + t) + (y + t)] -= m[size * (x + 1 + t) + t] * a[size * t + (y + t)];
  if (y == 0) b[x + 1 + t] -= m[size * (x + 1 + t) + (y + t)] * b[t];
}

int main() {
  const int n = 96;
  size_t bytes = n * n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(n * sizeof(float)), *m = (float *)calloc(n * n, sizeof(float));
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[i * n + j] = frand() * 2.0f - 1.0f;
    a[i * n + i] += 4.0f;
    b[i] = frand();
  }
  float *d_a, *d_b, *d_m;
  CHECK(cudaMalloc(&d_a, bytes)); CHECK(cudaMalloc(&d_b, n * sizeof(float))); CHECK(cudaMalloc(&d_m, bytes));
  CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_m, m, bytes, cudaMemcpyHostToDevice));
  const int block1 = 64, block2 = 8;
  dim3 g1((n + block1 - 1) / block1), t2(block2, block2), g2((n + block2 - 1) / block2, (n + block2 - 1) / block2);
  for (int t = 0; t < n - 1; t++) {
    fan1<<<g1, block1>>>(d_m, d_a, n, t);
    fan2<<<g2, t2>>>(d_m, d_a, d_b, n, t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b, d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(m, d_m, bytes, cudaMemcpyDeviceToHost));
  float x[n];
  for (int i = n - 1; i >= 0; i--) {
    float s = b[i];
    for (int j = i + 1; j < n; j++) s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  printf("n %d launches %d\n", n, 2 * (n - 1));
  printf("upper fnv %016llx multipliers fnv %016llx rhs fnv %016llx\n", (unsigned long long)fnv(a, bytes),
         (unsigned long long)fnv(m, bytes), (unsigned long long)fnv(b, n * sizeof(float)));
  printf("solution fnv %016llx\n", (unsigned long long)fnv(x, sizeof x));
  for (int i = 0; i < n; i += 19) printf("x[%d] = %a\n", i, x[i]);
  return 0;
}
