// Issue 16 #4: a host function (cudaLaunchHostFunc, cudaStreamAddCallback)
// that calls the CUDA API.
#include <cstdio>
#include <cuda_runtime.h>
static int r[8];
static void call_api(void) {
  void *p = 0;
  int dev = -1;
  r[0] = cudaMalloc(&p, 16);
  r[1] = cudaDeviceSynchronize();
  r[2] = cudaStreamSynchronize(0);
  r[3] = cudaMemset(p, 0, 16);
  r[4] = cudaGetDevice(&dev);
  r[5] = cudaGetLastError();
  r[6] = cudaFree(p);
  cudaEvent_t ev;
  r[7] = cudaEventCreate(&ev);
}
static void CUDART_CB fn(void *) { call_api(); }
static void CUDART_CB cb(cudaStream_t, cudaError_t, void *) { call_api(); }
static void show(const char *what) {
  const char *names[] = {"cudaMalloc", "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaMemset", "cudaGetDevice", "cudaGetLastError", "cudaFree", "cudaEventCreate"};
  for (int i = 0; i < 8; i++) printf("%s: %s -> %s\n", what, names[i], cudaGetErrorName((cudaError_t)r[i]));
}
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  printf("launch host func: %s\n", cudaGetErrorName(cudaLaunchHostFunc(s, fn, 0)));
  printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  show("hostfunc");
#ifndef NO_ADDCB
  printf("add callback: %s\n", cudaGetErrorName(cudaStreamAddCallback(s, cb, 0, 0)));
  printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  show("callback");
#endif
  printf("after: last error %s\n", cudaGetErrorName(cudaGetLastError()));
  void *p;
  printf("after: cudaMalloc %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
  return 0;
}
