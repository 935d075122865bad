// The lesson kernels (/work/shared/lessons: reduce.cu, divergence.cu, coarsen.cu), re-typed
// unchanged, at simulator-friendly sizes. Inputs are written by init_* kernels so a warpsim launch
// file reproduces them exactly: reduce input i & 0xff; matrices from a per-index hash.
// Usage: lessons_small [full|sim]. Output: lesson kernel=K n=N grid=G block=B event_ms=T [check=…]
#include "bench.h"

extern "C" __global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x; int* idata = g_idata + blockIdx.x*blockDim.x;
  if (tid >= n) return;
  for (int stride = 1; stride < blockDim.x; stride *= 2) { if (tid % (2*stride) == 0) idata[tid] += idata[tid+stride]; __syncthreads(); }
  if (tid == 0) g_odata[blockIdx.x] = idata[0]; }
extern "C" __global__ void reduceNeighboredLess(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x; unsigned int idx = threadIdx.x + blockIdx.x*blockDim.x; int* idata = g_idata + blockIdx.x*blockDim.x;
  if (idx >= n) return;
  for (int stride = 1; stride < blockDim.x; stride *= 2) { int index = 2*stride*tid; if (index < blockDim.x) idata[index] += idata[index+stride]; __syncthreads(); }
  if (tid == 0) g_odata[blockIdx.x] = idata[0]; }
extern "C" __global__ void reduceInterleaved(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x; int* idata = g_idata + blockIdx.x*blockDim.x;
  if (tid >= n) return;
  for (int stride = blockDim.x/2; stride > 0; stride >>= 1) { if (tid < stride) idata[tid] += idata[tid+stride]; __syncthreads(); }
  if (tid == 0) g_odata[blockIdx.x] = idata[0]; }

extern "C" __global__ void warmingup(float *c){ int tid = blockIdx.x*blockDim.x+threadIdx.x; float a,b; a=b=0.0f;
  if((tid/warpSize)%2==0) a=100.0f; else b=200.0f; c[tid]=a+b; }
extern "C" __global__ void mathKernel1(float *c){ int tid = blockIdx.x*blockDim.x+threadIdx.x; float a,b; a=b=0.0f;
  if(tid%2==0) a=100.0f; else b=200.0f; c[tid]=a+b; }
extern "C" __global__ void mathKernel2(float *c){ int tid = blockIdx.x*blockDim.x+threadIdx.x; float a,b; a=b=0.0f;
  if((tid/warpSize)%2==0) a=100.0f; else b=200.0f; c[tid]=a+b; }
extern "C" __global__ void mathKernel3(float *c){ int tid = blockIdx.x*blockDim.x+threadIdx.x; float a,b; a=b=0.0f;
  bool ipred=(tid%2==0); if(ipred) a=100.0f; if(!ipred) b=200.0f; c[tid]=a+b; }
extern "C" __global__ void mathKernel4(float *c){ int tid = blockIdx.x*blockDim.x+threadIdx.x; float a,b; a=b=0.0f;
  int itid = tid>>5; if (itid & 0x01 == 0) a=100.0f; else b=200.0f; c[tid]=a+b; }

template <int TILE, int CF>
__global__ void matmulCoarse(const float* M, const float* N, float* P, int width) {
  __shared__ float Mds[TILE][TILE]; __shared__ float Nds[TILE][TILE];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = by*TILE + ty; int colStart = bx*TILE*CF + tx;
  float Pvalue[CF]; for (int c = 0; c < CF; ++c) Pvalue[c] = 0.0f;
  for (int ph = 0; ph < width/TILE; ++ph) {
    Mds[ty][tx] = M[row*width + ph*TILE + tx];
    for (int c = 0; c < CF; ++c) {
      int col = colStart + c*TILE;
      Nds[ty][tx] = N[(ph*TILE + ty)*width + col];
      __syncthreads();
      for (int k = 0; k < TILE; ++k) Pvalue[c] += Mds[ty][k]*Nds[k][tx];
      __syncthreads();
    }
  }
  for (int c = 0; c < CF; ++c) P[row*width + colStart + c*TILE] = Pvalue[c];
}
template __global__ void matmulCoarse<16,1>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<16,2>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<16,4>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<16,8>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<32,1>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<32,2>(const float*, const float*, float*, int);
template __global__ void matmulCoarse<32,4>(const float*, const float*, float*, int);

extern "C" __global__ void init_reduce(int *a, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (int)(i & 0xff);
}
// matrix entries in [-1, 1): (hash(i + seed) % 1000) / 500 - 1
extern "C" __global__ void init_mat(float *a, unsigned n, unsigned seed) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned h = (i + seed) * 2654435761u; h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
    a[i] = (float)(h % 1000u) / 500.0f - 1.0f;
  }
}

static void reduce_cfg(int lg, int bs) {
  unsigned size = 1u << lg; int grid = (size + bs - 1) / bs;
  int *di, *dout; CK(cudaMalloc(&di, size * 4)); CK(cudaMalloc(&dout, grid * 4));
  const char *names[] = {"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"};
  void (*ks[])(int *, int *, unsigned) = {reduceNeighbored, reduceNeighboredLess, reduceInterleaved};
  long long cpu = 0; for (unsigned i = 0; i < size; i++) cpu += i & 0xff;
  for (int k = 0; k < 3; k++) {
    float ms = time_median([&] { init_reduce<<<128, 256>>>(di, size); }, [&] { ks[k]<<<grid, bs>>>(di, dout, size); });
    std::vector<int> o(grid); CK(cudaMemcpy(o.data(), dout, grid * 4, cudaMemcpyDeviceToHost));
    long long s = 0; for (int v : o) s += v;
    printf("lesson kernel=%s n=%u grid=%d block=%d event_ms=%.5f check=%s\n", names[k], size, grid, bs, ms, s == cpu ? "OK" : "MISMATCH");
  }
  CK(cudaFree(di)); CK(cudaFree(dout));
}
static void div_cfg(int bs, int size) {
  float *d; CK(cudaMalloc(&d, size * 4));
  const char *names[] = {"warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"};
  void (*ks[])(float *) = {warmingup, mathKernel1, mathKernel2, mathKernel3, mathKernel4};
  int grid = (size + bs - 1) / bs;
  for (int k = 0; k < 5; k++) {
    float ms = time_median([&] { ks[k]<<<grid, bs>>>(d); });
    printf("lesson kernel=%s n=%d grid=%d block=%d event_ms=%.5f\n", names[k], size, grid, bs, ms);
  }
  CK(cudaFree(d));
}
template <int TILE, int CF> static void coarse_one(const float *M, const float *N, float *P, int n) {
  dim3 block(TILE, TILE), grid(n / (TILE * CF), n / TILE);
  float ms = time_median([&] { matmulCoarse<TILE, CF><<<grid, block>>>(M, N, P, n); });
  printf("lesson kernel=matmulCoarse_T%d_CF%d n=%d grid=%dx%d block=%dx%d event_ms=%.5f\n", TILE, CF, n, grid.x, grid.y, TILE, TILE, ms);
}
static void coarse_cfg(int n) {
  float *M, *N, *P; CK(cudaMalloc(&M, n * n * 4)); CK(cudaMalloc(&N, n * n * 4)); CK(cudaMalloc(&P, n * n * 4));
  init_mat<<<128, 256>>>(M, n * n, 1); init_mat<<<128, 256>>>(N, n * n, 2); CK(cudaDeviceSynchronize());
  coarse_one<16, 1>(M, N, P, n); coarse_one<16, 2>(M, N, P, n); coarse_one<16, 4>(M, N, P, n); coarse_one<16, 8>(M, N, P, n);
  coarse_one<32, 1>(M, N, P, n); coarse_one<32, 2>(M, N, P, n); coarse_one<32, 4>(M, N, P, n);
  CK(cudaFree(M)); CK(cudaFree(N)); CK(cudaFree(P));
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  for (int lg : {16, 18, 20})
    for (int bs : {128, 256, 512, 1024}) reduce_cfg(lg, bs);
  div_cfg(64, 64);
  div_cfg(256, 1 << 20);
  coarse_cfg(128);
  coarse_cfg(256);
  if (g_full) {
    for (int bs : {128, 256, 512, 1024}) reduce_cfg(24, bs);
    coarse_cfg(512);
    coarse_cfg(2048);
  }
  return 0;
}
