// Rodinia-style Needleman-Wunsch: global alignment of two sequences with a
// similarity table and a linear gap penalty. The (n+1)x(n+1) score matrix
// is cut into 16x16 tiles; tiles on one anti-diagonal are independent, so
// the host launches one kernel per tile diagonal (the upper-left triangle,
// then the lower-right), and inside a tile 16 threads sweep its cells in
// anti-diagonal wavefronts through shared memory, __syncthreads between
// wavefronts.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 31337u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define T 16

__device__ __forceinline__ int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// One block per tile on diagonal `diag`; `upper` selects which triangle.
__global__ void nw_tiles(const int *ref, int *score, int width, int diag, int tiles, int penalty, int upper) {
  __shared__ int s[T + 1][T + 1];
  __shared__ int r[T][T];
  int tx = threadIdx.x;
  int bx = upper ? blockIdx.x : blockIdx.x + diag - tiles + 1; // tile column
  int by = diag - bx;                                         // tile row
  int base = width * T * by + T * bx;                         // tile's top-left score cell
  // the tile's similarity values and its top and left boundaries
  for (int i = 0; i < T; i++) r[i][tx] = ref[base + width * (i + 1) + tx + 1];
  if (tx == 0) s[0][0] = score[base];
  s[0][tx + 1] = score[base + tx + 1];
  s[tx + 1][0] = score[base + width * (tx + 1)];
  __syncthreads();
  for (int m = 0; m < T; m++) { // wavefronts growing
    if (tx <= m) {
      int x = tx + 1, y = m - tx + 1;
      s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty, s[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  for (int m = T - 2; m >= 0; m--) { // wavefronts shrinking
    if (tx <= m) {
      int x = tx + T - m, y = T - tx;
      s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty, s[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  for (int i = 0; i < T; i++) score[base + width * (i + 1) + tx + 1] = s[i + 1][tx + 1];
}

int main() {
  const int n = 512, width = n + 1, penalty = 10, tiles = n / T;
  int table[24][24];
  for (int i = 0; i < 24; i++)
    for (int j = 0; j <= i; j++) table[i][j] = table[j][i] = i == j ? 4 + (int)(lcg() % 8) : (int)(lcg() % 9) - 4;
  int *a = (int *)malloc(width * sizeof(int)), *b = (int *)malloc(width * sizeof(int));
  for (int i = 1; i < width; i++) { a[i] = lcg() % 24; b[i] = lcg() % 24; }
  for (int i = 10; i < 200; i++) b[i + 5] = a[i]; // a shifted common stretch
  int *ref = (int *)calloc(width * width, sizeof(int)), *score = (int *)calloc(width * width, sizeof(int));
  for (int i = 1; i < width; i++)
    for (int j = 1; j < width; j++) ref[i * width + j] = table[a[i]][b[j]];
  for (int i = 1; i < width; i++) { score[i * width] = -i * penalty; score[i] = -i * penalty; }
  int *d_ref, *d_score;
  CHECK(cudaMalloc(&d_ref, width * width * sizeof(int)));
  CHECK(cudaMalloc(&d_score, width * width * sizeof(int)));
  CHECK(cudaMemcpy(d_ref, ref, width * width * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_score, score, width * width * sizeof(int), cudaMemcpyHostToDevice));
  int launches = 0;
  for (int d = 0; d < tiles; d++, launches++) nw_tiles<<<d + 1, T>>>(d_ref, d_score, width, d, tiles, penalty, 1);
  for (int d = tiles; d < 2 * tiles - 1; d++, launches++) nw_tiles<<<2 * tiles - 1 - d, T>>>(d_ref, d_score, width, d, tiles, penalty, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(score, d_score, width * width * sizeof(int), cudaMemcpyDeviceToHost));
  // trace back on the host
  int i = n, j = n, matches = 0, gaps = 0;
  while (i > 0 && j > 0) {
    int here = score[i * width + j];
    if (here == score[(i - 1) * width + j - 1] + ref[i * width + j]) { if (a[i] == b[j]) matches++; i--; j--; }
    else if (here == score[i * width + j - 1] - penalty) { gaps++; j--; }
    else { gaps++; i--; }
  }
  printf("n %d tiles %d launches %d\n", n, tiles, launches);
  printf("score %d matches %d gaps %d stop (%d,%d)\n", score[n * width + n], matches, gaps, i, j);
  printf("matrix fnv %016llx\n", (unsigned long long)fnv(score, width * width * sizeof(int)));
  return 0;
}
