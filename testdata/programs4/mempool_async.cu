// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on the default
// pool and a created pool, release threshold, reuse across streams.
#include <cstdio>
#include <cstdint>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", #x, __LINE__, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void sum(const int *p, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)p[i]);
}

int main() {
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  printf("pools supported %d\n", supported);
  cudaMemPool_t def;
  CK(cudaDeviceGetDefaultMemPool(&def, 0));
  uint64_t thr = UINT64_MAX;
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr));
  uint64_t back = 0;
  CK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &back));
  printf("threshold max %d\n", back == UINT64_MAX);
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1)); CK(cudaStreamCreate(&s2));
  unsigned long long *acc;
  CK(cudaMallocAsync(&acc, 8, s1));
  CK(cudaMemsetAsync(acc, 0, 8, s1));
  for (int round = 0; round < 4; round++) {
    int n = 1000 * (round + 1);
    int *p;
    CK(cudaMallocAsync(&p, n * sizeof(int), s1));
    fill<<<(n + 255) / 256, 256, 0, s1>>>(p, n, round * 7);
    sum<<<(n + 255) / 256, 256, 0, s1>>>(p, n, acc);
    CK(cudaFreeAsync(p, s1));
  }
  unsigned long long h;
  CK(cudaMemcpyAsync(&h, acc, 8, cudaMemcpyDeviceToHost, s1));
  CK(cudaStreamSynchronize(s1));
  printf("sum %llu\n", h);
  uint64_t used = 0, reserved = 0;
  CK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  CK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReservedMemCurrent, &reserved));
  printf("used>=8 %d reserved>=used %d\n", used >= 8, reserved >= used);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CK(cudaMemPoolCreate(&pool, &props));
  int *q;
  CK(cudaMallocFromPoolAsync(&q, 4096 * sizeof(int), pool, s2));
  fill<<<16, 256, 0, s2>>>(q, 4096, -5);
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  CK(cudaEventRecord(ev, s2));
  CK(cudaStreamWaitEvent(s1, ev, 0));
  CK(cudaMemsetAsync(acc, 0, 8, s1));
  sum<<<16, 256, 0, s1>>>(q, 4096, acc);
  CK(cudaFreeAsync(q, s1));
  CK(cudaMemcpyAsync(&h, acc, 8, cudaMemcpyDeviceToHost, s1));
  CK(cudaStreamSynchronize(s1));
  printf("pool sum %llu\n", h);
  CK(cudaFreeAsync(acc, s1));
  CK(cudaStreamSynchronize(s1));
  CK(cudaMemPoolTrimTo(pool, 0));
  CK(cudaMemPoolDestroy(pool));
  void *bad = nullptr;
  cudaError_t e = cudaFreeAsync(bad, s1);
  printf("free null %s\n", cudaGetErrorName(e));
  CK(cudaStreamDestroy(s1)); CK(cudaStreamDestroy(s2));
  return 0;
}
