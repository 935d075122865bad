// Rodinia-style blocked LU decomposition (no pivoting) of a diagonally
// dominant matrix, in place, 16x16 blocks: per step a one-block kernel
// factors the diagonal block, a perimeter kernel updates the block row
// and block column from it, and an internal kernel (2D grid) updates the
// trailing matrix, all through shared-memory tiles.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 1234567u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define BS 16

__global__ void lu_diagonal(float *m, int n, int off) {
  __shared__ float d[BS][BS];
  int tx = threadIdx.x;
  float *blk = m + off * n + off;
  for (int i = 0; i < BS; i++) d[i][tx] = blk[i * n + tx];
  __syncthreads();
  for (int i = 0; i < BS - 1; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++) d[tx][i] -= d[tx][j] * d[j][i];
      d[tx][i] /= d[i][i];
    }
    __syncthreads();
    if (tx > i) {
      for (int j = 0; j < i + 1; j++) d[i + 1][tx] -= d[i + 1][j] * d[j][tx];
    }
    __syncthreads();
  }
  for (int i = 1; i < BS; i++) blk[i * n + tx] = d[i][tx];
}

// blockIdx.x: one block of the row to the right and the column below the
// diagonal block; 2*BS threads, the first BS do the row, the rest the column.
__global__ void lu_perimeter(float *m, int n, int off) {
  __shared__ float d[BS][BS], row[BS][BS], col[BS][BS];
  int tx = threadIdx.x, idx;
  float *diag = m + off * n + off;
  if (tx < BS) {
    idx = tx;
    for (int i = 0; i < BS / 2; i++) d[i][idx] = diag[i * n + idx];
    for (int i = 0; i < BS; i++) row[i][idx] = diag[i * n + (blockIdx.x + 1) * BS + idx];
  } else {
    idx = tx - BS;
    for (int i = BS / 2; i < BS; i++) d[i][idx] = diag[i * n + idx];
    for (int i = 0; i < BS; i++) col[i][idx] = diag[((blockIdx.x + 1) * BS + i) * n + idx];
  }
  __syncthreads();
  if (tx < BS) { // forward substitution down a column of the block row
    idx = tx;
    for (int i = 1; i < BS; i++)
      for (int j = 0; j < i; j++) row[i][idx] -= d[i][j] * row[j][idx];
  } else { // a row of the block column against U
    idx = tx - BS;
    for (int i = 0; i < BS; i++) {
      for (int j = 0; j < i; j++) col[idx][i] -= col[idx][j] * d[j][i];
      col[idx][i] /= d[i][i];
    }
  }
  __syncthreads();
  if (tx < BS) {
    for (int i = 1; i < BS; i++) diag[i * n + (blockIdx.x + 1) * BS + idx] = row[i][idx];
  } else {
    for (int i = 0; i < BS; i++) diag[((blockIdx.x + 1) * BS + i) * n + idx] = col[i][idx];
  }
}

__global__ void lu_internal(float *m, int n, int off) {
  __shared__ float row[BS][BS], col[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gr = off + (blockIdx.y + 1) * BS, gc = off + (blockIdx.x + 1) * BS;
  row[ty][tx] = m[(off + ty) * n + gc + tx];
  col[ty][tx] = m[(gr + ty) * n + off + tx];
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < BS; i++) sum += col[ty][i] * row[i][tx];
  m[(gr + ty) * n + gc + tx] -= sum;
}

int main() {
  const int n = 320;
  size_t bytes = n * n * sizeof(float);
  float *a = (float *)malloc(bytes), *lu = (float *)malloc(bytes);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i * n + j] = i == j ? n * 0.5f + frand() : frand() - 0.5f;
  float *d;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemcpy(d, a, bytes, cudaMemcpyHostToDevice));
  int launches = 0, off;
  for (off = 0; off < n - BS; off += BS) {
    lu_diagonal<<<1, BS>>>(d, n, off);
    int rest = (n - off) / BS - 1;
    lu_perimeter<<<rest, 2 * BS>>>(d, n, off);
    lu_internal<<<dim3(rest, rest), dim3(BS, BS)>>>(d, n, off);
    launches += 3;
  }
  lu_diagonal<<<1, BS>>>(d, n, off);
  launches++;
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(lu, d, bytes, cudaMemcpyDeviceToHost));
  // check: (L*U)[i][j] against a, with L's unit diagonal
  double worst = 0;
  for (int i = 0; i < n; i += 7)
    for (int j = 0; j < n; j += 5) {
      double s = 0;
      for (int k = 0; k <= (i < j ? i : j); k++) s += (k == i ? 1.0 : (double)lu[i * n + k]) * lu[k * n + j];
      double e = s - a[i * n + j];
      if (e < 0) e = -e;
      if (e > worst) worst = e;
    }
  printf("n %d block %d launches %d reconstruction %s\n", n, BS, launches, worst < 1e-3 ? "ok" : "BAD");
  printf("lu fnv %016llx\n", (unsigned long long)fnv(lu, bytes));
  for (int i = 0; i < 6; i++) printf("lu[%d] = %a\n", i * 17011, lu[i * 17011]);
  return 0;
}
