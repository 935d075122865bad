// Rodinia-style pathfinder: dynamic programming down the rows of a grid of
// weights, each cell taking the cheapest of the three cells above it. A
// launch advances `pyramid` rows in shared memory: blocks overlap by a halo
// that shrinks by one cell per row, so only the middle of each block is
// valid at the end. Integer arithmetic only.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 4242u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define BLOCK 256
#define HALO 1
#define IN(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

__global__ void dp_rows(int steps, const int *wall, const int *src, int *dst, int cols, int start_row, int border) {
  __shared__ int prev[BLOCK];
  __shared__ int result[BLOCK];
  int bx = blockIdx.x, tx = threadIdx.x;
  int small = BLOCK - steps * HALO * 2;
  int blk_x = small * bx - border;
  int blk_xmax = blk_x + BLOCK - 1;
  int xidx = blk_x + tx;
  int valid_left = blk_x < 0 ? -blk_x : 0;
  int valid_right = blk_xmax > cols - 1 ? BLOCK - 1 - (blk_xmax - cols + 1) : BLOCK - 1;
  int W = tx - 1 < valid_left ? valid_left : tx - 1;
  int E = tx + 1 > valid_right ? valid_right : tx + 1;
  bool is_valid = IN(tx, valid_left, valid_right);
  if (IN(xidx, 0, cols - 1)) prev[tx] = src[xidx];
  __syncthreads();
  bool computed;
  for (int i = 0; i < steps; i++) {
    computed = false;
    if (IN(tx, i + 1, BLOCK - i - 2) && is_valid) {
      computed = true;
      int left = prev[W], up = prev[tx], right = prev[E];
      int shortest = left < up ? left : up;
      shortest = shortest < right ? shortest : right;
      result[tx] = shortest + wall[(start_row + i) * cols + xidx];
    }
    __syncthreads();
    if (i == steps - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed) dst[xidx] = result[tx];
}

int main() {
  const int rows = 101, cols = 20000, pyramid = 20;
  int *wall = (int *)malloc(rows * cols * sizeof(int));
  for (int i = 0; i < rows * cols; i++) wall[i] = lcg() % 10;
  int *d_wall, *d_row[2];
  CHECK(cudaMalloc(&d_wall, rows * cols * sizeof(int)));
  CHECK(cudaMalloc(&d_row[0], cols * sizeof(int))); CHECK(cudaMalloc(&d_row[1], cols * sizeof(int)));
  CHECK(cudaMemcpy(d_wall, wall, rows * cols * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_row[0], wall, cols * sizeof(int), cudaMemcpyHostToDevice));
  int border = pyramid * HALO, small = BLOCK - pyramid * HALO * 2;
  int blocks = (cols + small - 1) / small, cur = 0, launches = 0;
  // the wall's rows 1..rows-1 go through the kernel; row r of the wall is
  // read at start_row + i, so start_row begins at 1 (row 0 seeds src)
  for (int t = 0; t < rows - 1; t += pyramid) {
    int steps = rows - 1 - t < pyramid ? rows - 1 - t : pyramid;
    dp_rows<<<blocks, BLOCK>>>(steps, d_wall + cols, d_row[cur], d_row[1 - cur], cols, t, border);
    cur = 1 - cur;
    launches++;
  }
  CHECK(cudaGetLastError());
  int *out = (int *)malloc(cols * sizeof(int));
  CHECK(cudaMemcpy(out, d_row[cur], cols * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  int best = out[0], at = 0;
  for (int i = 0; i < cols; i++) { sum += out[i]; if (out[i] < best) { best = out[i]; at = i; } }
  printf("rows %d cols %d pyramid %d launches %d blocks %d\n", rows, cols, pyramid, launches, blocks);
  printf("shortest %d at %d, sum %lld, fnv %016llx\n", best, at, sum, (unsigned long long)fnv(out, cols * sizeof(int)));
  for (int i = 0; i < 8; i++) printf("out[%d] = %d\n", i * 2503, out[i * 2503]);
  return 0;
}
