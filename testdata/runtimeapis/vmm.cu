// The driver's virtual memory management API: reserve an address range,
// create physical allocations, map them into it, grant access, use it from
// kernels and copies, then unmap and free. Build: -arch=sm_90 -lcuda.
// ./vmm 1: a kernel touches the range after it was unmapped; ./vmm 2: a
// kernel touches a mapped range no access was granted to.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
static void say(const char *what, CUresult r) {
  const char *s = "?";
  cuGetErrorName(r, &s);
  printf("%s: %s\n", what, s);
}
__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}
__global__ void touch(int *p) { p[0] = 1; }
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  cudaFree(0);
  say("cuInit", cuInit(0));
  CUdevice dev;
  say("cuDeviceGet", cuDeviceGet(&dev, 0));
  int vmm = -1;
  cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, dev);
  printf("vmm supported %d\n", vmm);
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t gmin = 0, grec = 0;
  say("granularity", cuMemGetAllocationGranularity(&gmin, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  cuMemGetAllocationGranularity(&grec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  printf("minimum %zu recommended %zu\n", gmin, grec);
  size_t size = 2 * gmin;
  CUdeviceptr va = 0, va2 = 0;
  say("reserve", cuMemAddressReserve(&va, 2 * size, 0, 0, 0));
  printf("aligned %d\n", (int)(va % gmin == 0));
  CUmemGenericAllocationHandle h1, h2, hx;
  say("create 1", cuMemCreate(&h1, size, &prop, 0));
  say("create 2", cuMemCreate(&h2, size, &prop, 0));
  say("create unaligned size", cuMemCreate(&hx, gmin + 1, &prop, 0));
  if (mode == 2) {
    say("map", cuMemMap(va, size, 0, h1, 0));
    touch<<<1, 1>>>((int *)va);
    printf("no access: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  say("map 1", cuMemMap(va, size, 0, h1, 0));
  say("map 2", cuMemMap(va + size, size, 0, h2, 0));
  say("map again", cuMemMap(va, size, 0, h2, 0));
  say("map unaligned", cuMemMap(va + 4096, size, 0, h2, 0));
  CUmemAccessDesc d = {};
  d.location = prop.location;
  d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  say("access", cuMemSetAccess(va, 2 * size, &d, 1));
  int n = (int)(2 * size / 4);
  fill<<<(n + 255) / 256, 256>>>((int *)va, n, 7);
  printf("fill: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int *h = (int *)malloc(2 * size);
  printf("copy out: %s\n", cudaGetErrorName(cudaMemcpy(h, (void *)va, 2 * size, cudaMemcpyDeviceToHost)));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 7 + i;
  printf("wrong values %d\n", bad);
  int w[4] = {-1, -2, -3, -4}, r[4] = {0};
  say("cuMemcpyHtoD", cuMemcpyHtoD(va + size - 8, w, 16));
  say("cuMemcpyDtoH", cuMemcpyDtoH(r, va + size - 8, 16));
  printf("across the mappings %d %d %d %d\n", r[0], r[1], r[2], r[3]);
  // A second mapping of the first allocation: the same bytes.
  say("reserve 2", cuMemAddressReserve(&va2, size, 0, 0, 0));
  say("map 1 again", cuMemMap(va2, size, 0, h1, 0));
  say("access 2", cuMemSetAccess(va2, size, &d, 1));
  cudaMemcpy(r, (void *)(va2 + 20), 4, cudaMemcpyDeviceToHost);
  printf("through the second mapping %d\n", r[0]);
  fill<<<1, 1>>>((int *)va2, 1, 1000);
  cudaDeviceSynchronize();
  cudaMemcpy(r, (void *)va, 4, cudaMemcpyDeviceToHost);
  printf("written through the second, read through the first %d\n", r[0]);
  // A mapping of the second half of the first allocation (an offset).
  CUdeviceptr va3 = 0;
  cuMemAddressReserve(&va3, gmin, 0, 0, 0);
  say("map at an offset", cuMemMap(va3, gmin, gmin, h1, 0));
  cuMemSetAccess(va3, gmin, &d, 1);
  cudaMemcpy(r, (void *)(va3 + 4), 4, cudaMemcpyDeviceToHost);
  printf("at the offset %d\n", r[0]);
  cuMemUnmap(va3, gmin);
  cuMemAddressFree(va3, gmin);
  CUmemAllocationProp p2 = {};
  say("properties", cuMemGetAllocationPropertiesFromHandle(&p2, h1));
  printf("type %d location %d id %d\n", (int)p2.type, (int)p2.location.type, p2.location.id);
  CUmemGenericAllocationHandle h3;
  say("retain", cuMemRetainAllocationHandle(&h3, (void *)(va + size + 100)));
  printf("retained is h2 %d\n", (int)(h3 == h2));
  say("release retained", cuMemRelease(h3));
  cudaPointerAttributes pa;
  cudaError_t pe = cudaPointerGetAttributes(&pa, (void *)va);
  printf("attributes %s type %d\n", cudaGetErrorName(pe), (int)pa.type);
  // Released while mapped: the memory stays until it is unmapped.
  say("release 1", cuMemRelease(h1));
  cudaMemcpy(r, (void *)(va + 8), 4, cudaMemcpyDeviceToHost);
  printf("after release %d\n", r[0]);
  say("unmap 2nd", cuMemUnmap(va2, size));
  say("free 2nd", cuMemAddressFree(va2, size));
  say("unmap", cuMemUnmap(va, size));
  say("unmap 2", cuMemUnmap(va + size, size));
  say("unmap again", cuMemUnmap(va, size));
  if (mode == 1) {
    touch<<<1, 1>>>((int *)va);
    printf("unmapped: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  printf("copy to unmapped: %s\n", cudaGetErrorName(cudaMemcpy((void *)va, w, 4, cudaMemcpyHostToDevice)));
  cudaGetLastError();
  say("free", cuMemAddressFree(va, 2 * size));
  say("free again", cuMemAddressFree(va, 2 * size));
  say("release 2", cuMemRelease(h2));
  say("release 2 again", cuMemRelease(h2));
  printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  free(h);
  return 0;
}
