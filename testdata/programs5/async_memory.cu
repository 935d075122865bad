// Pinned memory with async copies and memsets (1D and 2D), pointer
// attributes, cudaMemcpyPeer on one device, host registration.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void inc(unsigned char *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += (unsigned char)(i & 7);
}

static unsigned fnv(const unsigned char *p, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

static const char *mtype(cudaMemoryType t) {
  switch (t) {
  case cudaMemoryTypeUnregistered: return "unregistered";
  case cudaMemoryTypeHost: return "host";
  case cudaMemoryTypeDevice: return "device";
  case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

static void attrs(const char *what, const void *p) {
  cudaPointerAttributes a;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  printf("%-18s %s type %s device %d devptr %s hostptr %s\n", what, cudaGetErrorName(e), mtype(a.type), a.device,
         a.devicePointer == nullptr ? "null" : (a.devicePointer == p ? "same" : "other"),
         a.hostPointer == nullptr ? "null" : (a.hostPointer == p ? "same" : "other"));
}

int main() {
  const int N = 1 << 20;
  unsigned char *h, *h2, *d, *d2, *m;
  cudaMallocHost(&h, N);
  cudaHostAlloc(&h2, N, cudaHostAllocMapped | cudaHostAllocPortable);
  cudaMalloc(&d, N);
  cudaMalloc(&d2, N);
  cudaMallocManaged(&m, 4096);
  unsigned char *pageable = (unsigned char *)malloc(N);
  for (int i = 0; i < N; i++) h[i] = (unsigned char)(i * 31 + 7);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, N, cudaMemcpyHostToDevice, s);
  inc<<<N / 256, 256, 0, s>>>(d, N);
  cudaMemsetAsync(d + 1000, 0xAB, 5000, s);
  cudaMemcpyAsync(h2, d, N, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("async roundtrip fnv %08x\n", fnv(h2, N));
  // 2D async: a 300x40 window of a pitched allocation.
  size_t pitch = 0;
  unsigned char *p2;
  cudaMallocPitch(&p2, &pitch, 1000, 64);
  printf("pitch for 1000 bytes: %zu\n", pitch);
  cudaMemset2DAsync(p2, pitch, 0x11, 1000, 64, s);
  cudaMemset2DAsync(p2 + 5 * pitch + 100, pitch, 0x22, 300, 40, s);
  cudaMemcpy2DAsync(h, 1000, p2, pitch, 1000, 64, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("2D memset fnv %08x corner %02x %02x %02x\n", fnv(h, 64000), h[0], h[5 * 1000 + 100], h[44 * 1000 + 399]);
  // cudaMemcpyDefault with UVA, device to device on the same device via peer.
  cudaMemcpyPeer(d2, 0, d, 0, N);
  cudaMemcpyPeerAsync(d2, 0, d, 0, 4096, s);
  cudaMemcpy(pageable, d2, N, cudaMemcpyDefault);
  printf("peer copy fnv %08x\n", fnv(pageable, N));
  int can = -1;
  cudaError_t e = cudaDeviceCanAccessPeer(&can, 0, 0);
  printf("can access peer 0->0: %d (%s)\n", can, cudaGetErrorName(e));
  e = cudaMemcpyPeer(d2, 1, d, 0, 16);
  printf("peer copy to device 1: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  attrs("cudaMallocHost", h);
  attrs("cudaHostAlloc", h2);
  attrs("cudaMalloc", d);
  attrs("cudaMalloc+100", d + 100);
  attrs("cudaMallocManaged", m);
  attrs("malloc", pageable);
  int stackVar = 0;
  attrs("stack", &stackVar);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  unsigned fl = 0;
  e = cudaHostGetFlags(&fl, h2);
  printf("host flags of cudaHostAlloc: %s %u\n", cudaGetErrorName(e), fl);
  e = cudaHostGetFlags(&fl, h);
  printf("host flags of cudaMallocHost: %s %u\n", cudaGetErrorName(e), fl);
  // Registering pageable memory.
  e = cudaHostRegister(pageable, N, cudaHostRegisterDefault);
  printf("cudaHostRegister: %s\n", cudaGetErrorName(e));
  attrs("registered", pageable);
  cudaMemcpyAsync(d, pageable, N, cudaMemcpyHostToDevice, s);
  cudaMemsetAsync(d, 0x5A, 77, s);
  cudaMemcpyAsync(pageable, d, N, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("registered roundtrip fnv %08x\n", fnv(pageable, N));
  e = cudaHostRegister(pageable, N, cudaHostRegisterDefault);
  printf("register twice: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaHostUnregister(pageable);
  e = cudaHostUnregister(pageable);
  printf("unregister twice: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  // Mapped memory written by the device.
  unsigned char *dev_h2;
  cudaHostGetDevicePointer((void **)&dev_h2, h2, 0);
  inc<<<16, 256>>>(dev_h2, 4096);
  cudaDeviceSynchronize();
  printf("mapped fnv %08x\n", fnv(h2, 4096));
  e = cudaMemcpy(d, h, (size_t)N * 2, cudaMemcpyHostToDevice);
  printf("copy past the end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemsetAsync(d, 0, 16, (cudaStream_t)0);
  printf("memset async on default: %s\n", cudaGetErrorName(e));
  cudaFreeHost(h);
  cudaFreeHost(h2);
  cudaFree(d);
  e = cudaFree(d);
  printf("double free: %s\n", cudaGetErrorName(e));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
