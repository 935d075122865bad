// Sparse matrix-vector products on a CSR matrix with uneven rows: scalar
// (thread per row), vector (warp per row, __shfl_down_sync), and a
// vector kernel with __ldg and a subwarp of 8 lanes per row via
// cooperative-groups tiles; double and float.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

template <typename T>
__global__ void spmv_scalar(int rows, const int* __restrict__ rowPtr, const int* __restrict__ col, const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    T dot = 0;
    for (int j = rowPtr[r]; j < rowPtr[r + 1]; j++) dot += val[j] * x[col[j]];
    y[r] = dot;
  }
}

template <typename T>
__global__ void spmv_vector(int rows, const int* __restrict__ rowPtr, const int* __restrict__ col, const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp < rows) {
    T sum = 0;
    for (int j = rowPtr[warp] + lane; j < rowPtr[warp + 1]; j += 32) sum += val[j] * __ldg(&x[col[j]]);
    for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffff, sum, off);
    if (lane == 0) y[warp] = sum;
  }
}

template <int LANES, typename T>
__global__ void spmv_subwarp(int rows, const int* __restrict__ rowPtr, const int* __restrict__ col, const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
  cg::thread_block_tile<LANES> g = cg::tiled_partition<LANES>(cg::this_thread_block());
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / LANES;
  if (row >= rows) return;
  T sum = 0;
  for (int j = rowPtr[row] + g.thread_rank(); j < rowPtr[row + 1]; j += LANES) sum += __ldg(val + j) * __ldg(x + __ldg(col + j));
  for (int off = LANES / 2; off > 0; off /= 2) sum += g.shfl_xor(sum, off);
  if (g.thread_rank() == 0) y[row] = sum;
}

static unsigned lcg_state = 12u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int rows = 2000, cols = 1500;
  int* rp = (int*)malloc((rows + 1) * 4);
  rp[0] = 0;
  for (int r = 0; r < rows; r++) { int len = (r % 97 == 0) ? 300 : (int)(lcg() % 40); rp[r + 1] = rp[r] + len; }
  int nnz = rp[rows];
  int* ci = (int*)malloc(nnz * 4); double* vd = (double*)malloc(nnz * 8); float* vf = (float*)malloc(nnz * 4);
  for (int j = 0; j < nnz; j++) { ci[j] = lcg() % cols; vd[j] = (double)((int)(lcg() >> 8) - (1 << 23)) / (1 << 20); vf[j] = (float)vd[j]; }
  double* xd = (double*)malloc(cols * 8); float* xf = (float*)malloc(cols * 4);
  for (int i = 0; i < cols; i++) { xd[i] = (double)((int)(lcg() >> 8) - (1 << 23)) / (1 << 23); xf[i] = (float)xd[i]; }
  int *drp, *dci; double *dvd, *dxd, *dyd; float *dvf, *dxf, *dyf;
  CHECK(cudaMalloc(&drp, (rows + 1) * 4)); CHECK(cudaMalloc(&dci, nnz * 4)); CHECK(cudaMalloc(&dvd, nnz * 8)); CHECK(cudaMalloc(&dvf, nnz * 4));
  CHECK(cudaMalloc(&dxd, cols * 8)); CHECK(cudaMalloc(&dxf, cols * 4)); CHECK(cudaMalloc(&dyd, rows * 8)); CHECK(cudaMalloc(&dyf, rows * 4));
  CHECK(cudaMemcpy(drp, rp, (rows + 1) * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dci, ci, nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvd, vd, nnz * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dvf, vf, nnz * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dxd, xd, cols * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dxf, xf, cols * 4, cudaMemcpyHostToDevice));
  double* yd = (double*)malloc(rows * 8); float* yf = (float*)malloc(rows * 4);
  printf("rows %d cols %d nnz %d\n", rows, cols, nnz);
  spmv_scalar<double><<<(rows + 127) / 128, 128>>>(rows, drp, dci, dvd, dxd, dyd);
  spmv_scalar<float><<<(rows + 127) / 128, 128>>>(rows, drp, dci, dvf, dxf, dyf);
  CHECK(cudaMemcpy(yd, dyd, rows * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(yf, dyf, rows * 4, cudaMemcpyDeviceToHost));
  printf("scalar  d %08x f %08x y[0] %a %a y[1234] %a %a\n", fnv(yd, rows * 8), fnv(yf, rows * 4), yd[0], yf[0], yd[1234], yf[1234]);
  spmv_vector<double><<<rows * 32 / 256, 256>>>(rows, drp, dci, dvd, dxd, dyd);
  spmv_vector<float><<<rows * 32 / 256, 256>>>(rows, drp, dci, dvf, dxf, dyf);
  CHECK(cudaMemcpy(yd, dyd, rows * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(yf, dyf, rows * 4, cudaMemcpyDeviceToHost));
  printf("vector  d %08x f %08x y[0] %a %a y[1234] %a %a\n", fnv(yd, rows * 8), fnv(yf, rows * 4), yd[0], yf[0], yd[1234], yf[1234]);
  spmv_subwarp<8, double><<<rows * 8 / 128, 128>>>(rows, drp, dci, dvd, dxd, dyd);
  spmv_subwarp<8, float><<<rows * 8 / 128, 128>>>(rows, drp, dci, dvf, dxf, dyf);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(yd, dyd, rows * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(yf, dyf, rows * 4, cudaMemcpyDeviceToHost));
  printf("subwarp d %08x f %08x y[0] %a %a y[1234] %a %a\n", fnv(yd, rows * 8), fnv(yf, rows * 4), yd[0], yf[0], yd[1234], yf[1234]);
  return 0;
}
