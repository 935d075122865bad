// The kernels drv_module.cpp loads at run time: `warpsim cc -fatbin
// drv_kernel.cu -o drv_kernel.fatbin` (nvcc: the same command).
__device__ int scale = 3;
extern "C" __global__ void axpy(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale * x[i] + y[i];
}
extern "C" __global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
