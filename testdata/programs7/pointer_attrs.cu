// cudaPointerGetAttributes for every kind of memory: device, offset into
// it, pinned, mapped, write-combined, registered (with and without the
// mapped flag), pageable, managed, pool, symbol, freed, null; plus
// cudaHostGetFlags and cudaHostGetDevicePointer on each host kind.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int sym[64];

static const char *mtype(cudaMemoryType t) {
  switch (t) {
  case cudaMemoryTypeUnregistered: return "unregistered";
  case cudaMemoryTypeHost: return "host";
  case cudaMemoryTypeDevice: return "device";
  case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

static const char *rel(const void *q, const void *p) {
  if (q == nullptr) return "null";
  if (q == p) return "same";
  return "other";
}

static void attrs(const char *what, const void *p) {
  cudaPointerAttributes a;
  a.type = (cudaMemoryType)77;
  a.device = -7;
  a.devicePointer = (void *)1;
  a.hostPointer = (void *)1;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  printf("%-22s %-20s type %-12s device %2d devptr %-5s hostptr %s\n", what, cudaGetErrorName(e), mtype(a.type), a.device,
         rel(a.devicePointer, p), rel(a.hostPointer, p));
  cudaGetLastError();
}

static void hostInfo(const char *what, void *p) {
  unsigned int fl = 12345;
  cudaError_t e = cudaHostGetFlags(&fl, p);
  void *dp = nullptr;
  cudaError_t e2 = cudaHostGetDevicePointer(&dp, p, 0);
  printf("%-22s flags %-20s %u devptr %-20s %s\n", what, cudaGetErrorName(e), e ? 0u : fl, cudaGetErrorName(e2), rel(dp, p));
  cudaGetLastError();
}

int main() {
  char *d, *pinned, *mapped, *wc, *portable, *managed, *pool;
  cudaMalloc(&d, 1 << 20);
  cudaMallocHost(&pinned, 4096);
  cudaHostAlloc(&mapped, 4096, cudaHostAllocMapped);
  cudaHostAlloc(&wc, 4096, cudaHostAllocWriteCombined | cudaHostAllocMapped);
  cudaHostAlloc(&portable, 4096, cudaHostAllocPortable);
  cudaMallocManaged(&managed, 4096);
  cudaMallocAsync(&pool, 4096, 0);
  cudaStreamSynchronize(0);
  char *reg = (char *)aligned_alloc(4096, 1 << 16);
  char *regMapped = (char *)aligned_alloc(4096, 1 << 16);
  char *regRO = (char *)aligned_alloc(4096, 1 << 16);
  cudaError_t e = cudaHostRegister(reg, 1 << 16, cudaHostRegisterDefault);
  printf("register default: %s\n", cudaGetErrorName(e));
  e = cudaHostRegister(regMapped, 1 << 16, cudaHostRegisterMapped | cudaHostRegisterPortable);
  printf("register mapped|portable: %s\n", cudaGetErrorName(e));
  e = cudaHostRegister(regRO, 1 << 16, cudaHostRegisterReadOnly);
  printf("register read-only: %s\n", cudaGetErrorName(e));
  e = cudaHostRegister(reg, 4096, cudaHostRegisterDefault);
  printf("register again: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  char *pageable = (char *)malloc(1000);
  void *symp;
  cudaGetSymbolAddress(&symp, sym);
  char *freed;
  cudaMalloc(&freed, 256);
  cudaFree(freed);
  int stackVar = 0;

  attrs("device", d);
  attrs("device + 1000", d + 1000);
  attrs("device end - 1", d + (1 << 20) - 1);
  attrs("pinned", pinned);
  attrs("pinned + 100", pinned + 100);
  attrs("mapped", mapped);
  attrs("write-combined", wc);
  attrs("portable", portable);
  attrs("managed", managed);
  attrs("managed + 8", managed + 8);
  attrs("pool", pool);
  attrs("registered", reg);
  attrs("registered + 5000", reg + 5000);
  attrs("registered mapped", regMapped);
  attrs("registered read-only", regRO);
  attrs("pageable", pageable);
  attrs("stack", &stackVar);
  attrs("symbol", symp);
  attrs("freed", freed);
  attrs("null", nullptr);

  hostInfo("pinned", pinned);
  hostInfo("mapped", mapped);
  hostInfo("write-combined", wc);
  hostInfo("portable", portable);
  hostInfo("registered", reg);
  hostInfo("registered mapped", regMapped);
  hostInfo("registered + 8", regMapped + 8);
  hostInfo("pageable", pageable);
  hostInfo("device", d);
  hostInfo("managed", managed);

  // A kernel may write through the mapped pointers.
  char *dm = nullptr;
  cudaHostGetDevicePointer((void **)&dm, mapped, 0);
  cudaMemset(dm, 0x5a, 64);
  cudaDeviceSynchronize();
  printf("mapped[10] after device memset: %d\n", mapped[10]);
  char *dr = nullptr;
  cudaHostGetDevicePointer((void **)&dr, regMapped, 0);
  cudaMemset(dr + 100, 0x21, 8);
  cudaDeviceSynchronize();
  printf("regMapped[104] after device memset: %d\n", regMapped[104]);

  e = cudaHostUnregister(reg);
  printf("unregister: %s\n", cudaGetErrorName(e));
  attrs("unregistered again", reg);
  e = cudaHostUnregister(reg);
  printf("unregister twice: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaHostUnregister(pageable);
  printf("unregister pageable: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFreeHost(d);
  printf("cudaFreeHost on device memory: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFree(pinned);
  printf("cudaFree on pinned memory: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFree(freed);
  printf("cudaFree twice: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
