// unroll_mb: ptxas's unrolled loop body as the unit of a warp's load window.
// mm3_kernel's and nn layer3's loops (testdata/programs9) with nvcc's default
// unrolling, with #pragma unroll 1 (nvcc emits .pragma "nounroll": ptxas keeps
// one iteration a body) and with #pragma unroll 2; layer3's loop with its trip
// count a kernel parameter instead of a constant. Times from Nsight Compute.
#include <cstdio>
#include <cstdint>
#define NI 96
#define NJ 112
#define NK 80

__global__ void dmm_default(int ni, int nj, int nk, const double *A, const double *B, double *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    double s = 0;
    for (int k = 0; k < nk; k++) s += A[i * nk + k] * B[k * nj + j];
    E[i * nj + j] = s;
  }
}
__global__ void dmm_unroll1(int ni, int nj, int nk, const double *A, const double *B, double *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    double s = 0;
#pragma unroll 1
    for (int k = 0; k < nk; k++) s += A[i * nk + k] * B[k * nj + j];
    E[i * nj + j] = s;
  }
}
__global__ void dmm_unroll2(int ni, int nj, int nk, const double *A, const double *B, double *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    double s = 0;
#pragma unroll 2
    for (int k = 0; k < nk; k++) s += A[i * nk + k] * B[k * nj + j];
    E[i * nj + j] = s;
  }
}
__global__ void fc_const(const float *in, const float *w, float *out) {
  int img = blockIdx.x, n = threadIdx.x;
  const float *wn = w + n * 1251;
  float s = wn[0];
  for (int i = 0; i < 1250; i++) s += wn[1 + i] * in[img * 1250 + i];
  out[img * 100 + n] = s;
}
__global__ void fc_param(const float *in, const float *w, float *out, int len) {
  int img = blockIdx.x, n = threadIdx.x;
  const float *wn = w + n * (len + 1);
  float s = wn[0];
  for (int i = 0; i < len; i++) s += wn[1 + i] * in[img * len + i];
  out[img * 100 + n] = s;
}
__global__ void fc_unroll1(const float *in, const float *w, float *out, int len) {
  int img = blockIdx.x, n = threadIdx.x;
  const float *wn = w + n * (len + 1);
  float s = wn[0];
#pragma unroll 1
  for (int i = 0; i < len; i++) s += wn[1 + i] * in[img * len + i];
  out[img * 100 + n] = s;
}
__global__ void fill(float *p, int n, uint32_t seed) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    uint32_t x = (i + 1) * 2654435761u ^ seed;
    p[i] = (x >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
}

int main() {
  double *A, *B, *E;
  float *in, *w, *out;
  cudaMalloc(&A, NI * NK * 8); cudaMalloc(&B, NK * NJ * 8); cudaMalloc(&E, NI * NJ * 8);
  cudaMalloc(&in, 96 * 1250 * 4); cudaMalloc(&w, 100 * 1251 * 4); cudaMalloc(&out, 96 * 100 * 4);
  fill<<<64, 256>>>((float *)A, NI * NK * 2, 1); fill<<<64, 256>>>((float *)B, NK * NJ * 2, 2);
  fill<<<64, 256>>>(in, 96 * 1250, 3); fill<<<64, 256>>>(w, 100 * 1251, 4);
  dim3 g((NJ + 31) / 32, (NI + 7) / 8), b(32, 8);
  dmm_default<<<g, b>>>(NI, NJ, NK, A, B, E);
  dmm_unroll1<<<g, b>>>(NI, NJ, NK, A, B, E);
  dmm_unroll2<<<g, b>>>(NI, NJ, NK, A, B, E);
  fc_const<<<96, 100>>>(in, w, out);
  fc_param<<<96, 100>>>(in, w, out, 1250);
  fc_unroll1<<<96, 100>>>(in, w, out, 1250);
  cudaError_t e = cudaDeviceSynchronize();
  printf("unroll_mb %s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
