// Host memory the device can see: mapped pinned memory, registered
// (cudaHostRegister) memory, pinned memory used directly (unified
// addressing), and what cudaPointerGetAttributes says of each.
#include "check.h"
#include <cstring>

__global__ void addIndex(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
}

static long sum(const int *p, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int attr = -1;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrCanMapHostMemory, 0));
  printf("canMapHostMemory %d, attribute %d, unifiedAddressing %d\n", prop.canMapHostMemory, attr, prop.unifiedAddressing);
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  const int n = 1 << 16;

  // Zero copy: the kernel writes mapped pinned memory, the host reads it after synchronizing.
  int *mapped, *dmapped;
  CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < n; i++) mapped[i] = 1;
  CHECK(cudaHostGetDevicePointer((void **)&dmapped, mapped, 0));
  addIndex<<<n / 256, 256>>>(dmapped, n);
  CHECK(cudaDeviceSynchronize());
  printf("cudaHostAllocMapped: sum %ld\n", sum(mapped, n));
  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, mapped));
  printf("cudaHostGetFlags has cudaHostAllocMapped: %s\n", flags & cudaHostAllocMapped ? "yes" : "no");
  printf("cudaHostGetDevicePointer with flags 1: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&dmapped, mapped, 1)));

  // Registered memory: an ordinary allocation the kernel updates in place.
  int *plain = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) plain[i] = 2;
  int neighbour = 5;
  CHECK(cudaHostRegister(plain, n * sizeof(int), cudaHostRegisterMapped));
  int *dplain;
  CHECK(cudaHostGetDevicePointer((void **)&dplain, plain, 0));
  addIndex<<<n / 256, 256>>>(dplain, n);
  CHECK(cudaDeviceSynchronize());
  printf("cudaHostRegisterMapped: sum %ld, first %d last %d\n", sum(plain, n), plain[0], plain[n - 1]);
  plain[0] = 100;
  addIndex<<<1, 1>>>(dplain, 1);
  CHECK(cudaDeviceSynchronize());
  printf("host write then kernel: first %d\n", plain[0]);
  printf("registering it again: %s\n", cudaGetErrorName(cudaHostRegister(plain, 64, cudaHostRegisterMapped)));
  CHECK(cudaHostUnregister(plain));
  printf("after unregistering: sum %ld, still readable and writable: ", sum(plain, n));
  plain[1] = 9;
  printf("%d\n", plain[1] + neighbour);
  printf("unregistering twice: %s\n", cudaGetErrorName(cudaHostUnregister(plain)));
  cudaGetLastError();

  // Pinned memory from cudaMallocHost, passed to the kernel as is.
  int *pinned;
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  for (int i = 0; i < n; i++) pinned[i] = 3;
  addIndex<<<n / 256, 256>>>(pinned, n);
  CHECK(cudaDeviceSynchronize());
  printf("cudaMallocHost used by a kernel: sum %ld\n", sum(pinned, n));

  // What each pointer is.
  int *dev, *managed;
  CHECK(cudaMalloc(&dev, 64));
  CHECK(cudaMallocManaged(&managed, 64));
  int *ordinary = (int *)malloc(64);
  const char *names[] = {"device", "cudaMallocHost", "managed", "pageable"};
  int *ptrs[] = {dev, pinned, managed, ordinary};
  for (int i = 0; i < 4; i++) {
    cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, ptrs[i]);
    printf("%s: %s type %d, device pointer is the pointer: %s, host pointer is the pointer: %s\n", names[i], cudaGetErrorName(e), (int)a.type,
           a.devicePointer == ptrs[i] ? "yes" : "no", a.hostPointer == ptrs[i] ? "yes" : "no");
  }
  void *none = nullptr;
  printf("cudaHostGetDevicePointer of pageable memory: %s\n", cudaGetErrorName(cudaHostGetDevicePointer(&none, ordinary, 0)));
  cudaGetLastError();
  CHECK(cudaFreeHost(mapped));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(dev));
  CHECK(cudaFree(managed));
  free(plain);
  free(ordinary);
  printf("Test PASSED\n");
  return 0;
}
