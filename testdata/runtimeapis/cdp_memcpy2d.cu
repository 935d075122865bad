// Does nvcc 13 accept the device runtime's 2D/3D copies and fills on
// sm_90? (record.sh notes whether this compiles and what it prints.)
#include <cstdio>
__global__ void k(int *a, int *b, int *codes) {
  codes[0] = cudaMemcpy2DAsync(b, 16, a, 16, 16, 2, cudaMemcpyDeviceToDevice, 0);
  codes[1] = cudaMemset2DAsync(a, 16, 1, 16, 2, 0);
}
int main() {
  int *a, *b, *c, h[2];
  cudaMalloc(&a, 64);
  cudaMalloc(&b, 64);
  cudaMalloc(&c, 8);
  k<<<1, 1>>>(a, b, c);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, c, 8, cudaMemcpyDeviceToHost);
  printf("%s %s %s\n", cudaGetErrorName(e), cudaGetErrorName((cudaError_t)h[0]), cudaGetErrorName((cudaError_t)h[1]));
}
