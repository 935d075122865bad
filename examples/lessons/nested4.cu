// The dynamic-parallelism lesson's four reductions side by side (Cheng,
// Grossman and McKercher, "Professional CUDA C Programming", chapter 3,
// nestedReduce.cu / nestedReduceNosync.cu / nestedReduce2.cu), over 2^20
// ones in blocks of 512, as the lesson ran them on a Tesla K40:
//   warpsim cc -arch=sm_35 -rdc=true nested4.cu -o nested4
//   warpsim prof --arch k40 ./nested4
// gpuRecursiveReduce synchronizes on its child from the device (CDP1's
// cudaDeviceSynchronize): an sm_90 GPU cannot run it, and CUDA 12+ compiles
// it only with -DCUDA_FORCE_CDP1_IF_SUPPORTED for sm_80 and older.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void gpuRecursiveReduce(int *g_idata, int *g_odata, unsigned int isize) {
  unsigned int tid = threadIdx.x;
  int *idata = g_idata + blockIdx.x * blockDim.x;
  int *odata = &g_odata[blockIdx.x];
  if (isize == 2 && tid == 0) { g_odata[blockIdx.x] = idata[0] + idata[1]; return; }
  int istride = isize >> 1;
  if (istride > 1 && tid < istride) idata[tid] += idata[tid + istride];
  __syncthreads();
  if (tid == 0) {
    gpuRecursiveReduce<<<1, istride>>>(idata, odata, istride);
    cudaDeviceSynchronize();
  }
  __syncthreads();
}
__global__ void gpuRecursiveReduceNosync(int *g_idata, int *g_odata, unsigned int isize) {
  unsigned int tid = threadIdx.x; int *idata = g_idata + blockIdx.x*blockDim.x; int *odata = &g_odata[blockIdx.x];
  if (isize == 2 && tid == 0) { g_odata[blockIdx.x] = idata[0] + idata[1]; return; }
  int istride = isize >> 1;
  if (istride > 1 && tid < istride) { idata[tid] += idata[tid + istride]; if (tid == 0) gpuRecursiveReduceNosync<<<1, istride>>>(idata, odata, istride); }
}
__global__ void gpuRecursiveReduce2(int *g_idata, int *g_odata, int iStride, int const iDim) {
  int *idata = g_idata + blockIdx.x*iDim;
  if (iStride == 1 && threadIdx.x == 0) { g_odata[blockIdx.x] = idata[0] + idata[1]; return; }
  idata[threadIdx.x] += idata[threadIdx.x + iStride];
  if (threadIdx.x == 0 && blockIdx.x == 0) gpuRecursiveReduce2<<<gridDim.x, iStride/2>>>(g_idata, g_odata, iStride/2, iDim);
}
__global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x; int* idata = g_idata + blockIdx.x*blockDim.x; if (tid >= n) return;
  for (int stride = 1; stride < blockDim.x; stride *= 2) { if (tid % (2*stride) == 0) idata[tid] += idata[tid+stride]; __syncthreads(); }
  if (tid == 0) g_odata[blockIdx.x] = idata[0]; }

int main() {
  int size = 1 << 20, bs = 512; dim3 block(bs), grid(size/bs);
  std::vector<int> h(size, 1), o(grid.x);
  int *di, *dout; cudaMalloc(&di, size*4); cudaMalloc(&dout, grid.x*4);
  auto run = [&](const char *name, cudaError_t launched) {
    cudaError_t e = launched != cudaSuccess ? launched : cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%-16s failed: %s (%s)\n", name, cudaGetErrorName(e), cudaGetErrorString(e)); cudaGetLastError(); return; }
    cudaMemcpy(o.data(), dout, grid.x*4, cudaMemcpyDeviceToHost);
    long long s = 0; for (int v : o) s += v;
    printf("%-16s gpu_sum %lld\n", name, s);
  };
  cudaMemcpy(di, h.data(), size*4, cudaMemcpyHostToDevice); cudaMemset(dout, 0, grid.x*4);
  reduceNeighbored<<<grid, block>>>(di, dout, size); run("gpu Neighbored", cudaGetLastError());
  cudaMemcpy(di, h.data(), size*4, cudaMemcpyHostToDevice); cudaMemset(dout, 0, grid.x*4);
  gpuRecursiveReduce<<<grid, block>>>(di, dout, block.x); run("gpu nested", cudaGetLastError());
  cudaMemcpy(di, h.data(), size*4, cudaMemcpyHostToDevice); cudaMemset(dout, 0, grid.x*4);
  gpuRecursiveReduceNosync<<<grid, block>>>(di, dout, block.x); run("gpu nestedNosync", cudaGetLastError());
  cudaMemcpy(di, h.data(), size*4, cudaMemcpyHostToDevice); cudaMemset(dout, 0, grid.x*4);
  gpuRecursiveReduce2<<<grid, block.x/2>>>(di, dout, block.x/2, block.x); run("gpu nested2", cudaGetLastError());
  return 0;
}
