// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on the default
// pool, its attributes (release threshold, reserved and used memory, their
// high watermarks), cudaMemPoolTrimTo, a pool of one's own with
// cudaMallocFromPoolAsync, and errors.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * 3;
}
__global__ void total(const int *p, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)p[i]);
}

static void pool(const char *what, cudaMemPool_t mp) {
  unsigned long long th = 0, rc = 0, rh = 0, uc = 0, uh = 0;
  cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReleaseThreshold, &th);
  cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemCurrent, &rc);
  cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemHigh, &rh);
  cudaMemPoolGetAttribute(mp, cudaMemPoolAttrUsedMemCurrent, &uc);
  cudaMemPoolGetAttribute(mp, cudaMemPoolAttrUsedMemHigh, &uh);
  printf("%-28s threshold %llu reserved %llu (high %llu) used %llu (high %llu)\n", what, th, rc, rh, uc, uh);
}

int main() {
  cudaMemPool_t def, cur;
  cudaError_t e = cudaDeviceGetDefaultMemPool(&def, 0);
  printf("default pool: %s\n", cudaGetErrorName(e));
  cudaDeviceGetMemPool(&cur, 0);
  printf("current pool is default: %d\n", cur == def);
  int v = -1;
  cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0);
  printf("pools supported: %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolSupportedHandleTypes, 0);
  printf("supported handle types: %d\n", v);
  int reuse = -1;
  cudaMemPoolGetAttribute(def, cudaMemPoolReuseFollowEventDependencies, &reuse);
  printf("reuse follow event deps: %d\n", reuse);
  cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse);
  printf("reuse opportunistic: %d\n", reuse);
  cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowInternalDependencies, &reuse);
  printf("reuse internal deps: %d\n", reuse);
  pool("fresh", def);

  cudaStream_t s;
  cudaStreamCreate(&s);
  const int n = 1 << 20;
  int *a = nullptr, *b = nullptr;
  unsigned long long *out;
  cudaMalloc(&out, 8);
  e = cudaMallocAsync(&a, n * sizeof(int), s);
  printf("mallocAsync 4 MiB: %s\n", cudaGetErrorName(e));
  e = cudaMallocAsync(&b, 1000, s);
  printf("mallocAsync 1000 B: %s\n", cudaGetErrorName(e));
  pool("after two allocations", def);
  iota<<<n / 256, 256, 0, s>>>(a, n);
  cudaMemsetAsync(out, 0, 8, s);
  total<<<n / 256, 256, 0, s>>>(a, n, out);
  unsigned long long r = 0;
  cudaMemcpyAsync(&r, out, 8, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("sum %llu\n", r);
  cudaPointerAttributes pa;
  cudaPointerGetAttributes(&pa, a);
  printf("pool pointer type %d device %d\n", (int)pa.type, pa.device);
  cudaFreeAsync(a, s);
  cudaFreeAsync(b, s);
  cudaStreamSynchronize(s);
  pool("after free, synchronized", def);

  unsigned long long big = ~0ull;
  e = cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &big);
  printf("set threshold max: %s\n", cudaGetErrorName(e));
  cudaMallocAsync(&a, 64 << 20, s);
  cudaFreeAsync(a, s);
  cudaStreamSynchronize(s);
  pool("64 MiB freed, kept", def);
  e = cudaMemPoolTrimTo(def, 0);
  printf("trim to 0: %s\n", cudaGetErrorName(e));
  pool("after trim", def);
  unsigned long long zero = 0;
  e = cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemHigh, &zero);
  printf("reset reserved high: %s\n", cudaGetErrorName(e));
  e = cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero);
  printf("reset used high: %s\n", cudaGetErrorName(e));
  unsigned long long one = 1;
  e = cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &one);
  printf("set used current: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  pool("after resets", def);
  cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &zero);

  // A pool of one's own.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  e = cudaMemPoolCreate(&mine, &props);
  printf("pool create: %s\n", cudaGetErrorName(e));
  pool("new pool", mine);
  int *c = nullptr;
  e = cudaMallocFromPoolAsync(&c, 3 << 20, mine, s);
  printf("malloc from pool 3 MiB: %s\n", cudaGetErrorName(e));
  pool("new pool, one allocation", mine);
  cudaMemAccessDesc desc = {};
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  e = cudaMemPoolSetAccess(mine, &desc, 1);
  printf("set access for own device: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaMemAccessFlags fl;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  e = cudaMemPoolGetAccess(&fl, mine, &loc);
  printf("get access: %s flags %d\n", cudaGetErrorName(e), (int)fl);
  cudaFreeAsync(c, s);
  cudaStreamSynchronize(s);
  pool("new pool, freed", mine);
  e = cudaDeviceSetMemPool(0, mine);
  printf("set device pool: %s\n", cudaGetErrorName(e));
  cudaDeviceGetMemPool(&cur, 0);
  printf("current pool is mine: %d\n", cur == mine);
  cudaMallocAsync(&c, 4096, s);
  pool("mine after mallocAsync", mine);
  cudaFreeAsync(c, s);
  cudaStreamSynchronize(s);
  cudaDeviceSetMemPool(0, def);
  e = cudaMemPoolDestroy(mine);
  printf("pool destroy: %s\n", cudaGetErrorName(e));

  // Errors.
  e = cudaMallocAsync(&c, 0, s);
  printf("mallocAsync 0 bytes: %s null %d\n", cudaGetErrorName(e), c == nullptr);
  cudaGetLastError();
  e = cudaMallocAsync(nullptr, 16, s);
  printf("mallocAsync null out: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaFreeAsync(nullptr, s);
  printf("freeAsync null: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMallocAsync(&c, (size_t)1 << 50, s);
  printf("mallocAsync 1 PiB: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaStreamSynchronize(s);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
