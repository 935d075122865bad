// Runtime semantics against a fake device (server_test.go): kernels are
// not simulated, the fake gives each kernel name a behaviour.
#include <cstdio>
#include <cstring>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void hello() { printf("hello from the device\n"); }
__global__ void oob(int *p) { p[1 << 30] = 1; }
__device__ int counter;
// A static object freeing device memory in its destructor runs after the
// runtime has shut down at exit: cudaErrorCudartUnloading, as in CUDA.
struct Holder {
  int *p = nullptr;
  ~Holder() { printf("static destructor: cudaFree -> %s\n", cudaGetErrorName(cudaFree(p))); }
} holder;

// hostFn counts 1, callback 10 when given a stream and no error.
static void hostFn(void *p) { ++*(int *)p; }
static void callback(cudaStream_t s, cudaError_t e, void *p) { *(int *)p += s != nullptr && e == cudaSuccess ? 10 : 100; }

#define SHOW(x) do { cudaError_t e_ = (x); printf("%s -> %d %s \"%s\"\n", #x, (int)e_, cudaGetErrorName(e_), cudaGetErrorString(e_)); } while (0)

int main() {
  int *d = nullptr;
  SHOW(cudaMalloc(&d, 64 * sizeof(int)));
  fill<<<1, 64>>>(d, 7);
  SHOW(cudaGetLastError());
  int h[64];
  SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int ok = 1;
  for (int i = 0; i < 64; i++) ok &= h[i] == 7;
  printf("fill %s\n", ok ? "ok" : "WRONG");
  int one = 5;
  SHOW(cudaMemcpyToSymbol(counter, &one, sizeof one));
  int back = 0;
  SHOW(cudaMemcpyFromSymbol(&back, counter, sizeof back));
  printf("symbol %d\n", back);
  fill<<<1, 2048>>>(d, 1);
  SHOW(cudaGetLastError());
  SHOW(cudaGetLastError());
  fill<<<dim3(1, 1, 1), dim3(1, 1, 65)>>>(d, 1);
  SHOW(cudaPeekAtLastError());
  SHOW(cudaGetLastError());
  hello<<<1, 1>>>();
  printf("after the launch, before the synchronization\n");
  SHOW(cudaDeviceSynchronize());
  cudaDeviceProp p;
  SHOW(cudaGetDeviceProperties(&p, 0));
  printf("device %s cc %d.%d sms %d warp %d maxThreads %d\n", p.name, p.major, p.minor, p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock);
  cudaEvent_t a, b;
  SHOW(cudaEventCreate(&a));
  SHOW(cudaEventCreate(&b));
  SHOW(cudaGetDeviceCount(&ok));
  printf("devices %d\n", ok);
  SHOW(cudaSetDevice(1));
  int v = 0;
  SHOW(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  printf("optin shared %d\n", v);
  cudaFuncAttributes fa;
  SHOW(cudaFuncGetAttributes(&fa, fill));
  printf("fill: regs %d maxThreads %d shared %zu\n", fa.numRegs, fa.maxThreadsPerBlock, fa.sharedSizeBytes);
  int blocks = 0;
  SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
  printf("occupancy: %d blocks of 256 per SM\n", blocks);
  int minGrid = 0, bestBlock = 0;
  SHOW(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, fill));
  printf("potential block size %d min grid %d\n", bestBlock, minGrid);
  SHOW(cudaFuncGetAttributes(&fa, (const void *)main));
  int v7 = 7;
  void *args[] = {&d, &v7};
  SHOW(cudaLaunchKernel((const void *)fill, dim3(1), dim3(64), args, 0, nullptr));
  SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("cudaLaunchKernel fill %d %d\n", h[0], h[63]);
  cudaStream_t st;
  SHOW(cudaStreamCreate(&st));
  fill<<<1, 4, 0, st>>>(d, 9);
  SHOW(cudaStreamSynchronize(st));
  SHOW(cudaMemcpyAsync(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost, st));
  printf("stream fill %d %d\n", h[0], h[3]);
  // Host functions run in stream order; callbacks get the stream.
  int *da = nullptr, hostCalls = 0;
  SHOW(cudaMallocAsync(&da, 16 * sizeof(int), st));
  fill<<<1, 16, 0, st>>>(da, 3);
  SHOW(cudaLaunchHostFunc(st, hostFn, &hostCalls));
  SHOW(cudaStreamAddCallback(st, callback, &hostCalls, 0));
  SHOW(cudaStreamAddCallback(st, callback, &hostCalls, 1));
  SHOW(cudaMemcpyAsync(h, da, 16 * sizeof(int), cudaMemcpyDeviceToHost, st));
  SHOW(cudaFreeAsync(da, st));
  printf("host functions %d, async allocation %d %d\n", hostCalls, h[0], h[15]);
  SHOW(cudaStreamDestroy(st));
  SHOW(cudaMemset(d, 0, 64 * sizeof(int)));
  int *d2;
  SHOW(cudaMalloc(&d2, 64 * sizeof(int)));
  SHOW(cudaMemcpy(d2, d, 64 * sizeof(int), cudaMemcpyDefault));
  SHOW(cudaMemcpy(h, d2, sizeof h, cudaMemcpyDefault));
  printf("after memset and device copy %d %d\n", h[0], h[63]);
  SHOW(cudaMemcpy(h, d2, sizeof h, (cudaMemcpyKind)7));
  SHOW(cudaFree(d2));
  SHOW(cudaFree((void *)0x1234));
  hello<<<1, 1>>>();
  SHOW(cudaDeviceReset());
  SHOW(cudaMalloc(&d, 64 * sizeof(int)));
  SHOW(cudaEventRecord(a));
  oob<<<1, 1>>>(d);
  SHOW(cudaGetLastError());
  SHOW(cudaEventRecord(b));
  SHOW(cudaEventSynchronize(b));
  SHOW(cudaMalloc(&d, 4));
  // The last error is read once; the context's sticky error stays.
  SHOW(cudaGetLastError());
  SHOW(cudaGetLastError());
  SHOW(cudaPeekAtLastError());
  SHOW(cudaDeviceSynchronize());
  SHOW(cudaGetLastError());
  holder.p = d;
  hello<<<1, 1>>>();
  return 0;
}
