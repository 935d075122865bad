// Device-runtime probes, one program for nvcc and `warpsim cc`:
//   CDP1 (device-side cudaDeviceSynchronize, sm_35..sm_80):
//     nvcc -arch=sm_80 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -DCDP1 cdp_probe.cu -lcudadevrt
//     warpsim cc -arch=sm_35 -rdc=true -DCDP1 cdp_probe.cu
//   CDP2 (sm_90; what an H100 runs): the same without -DCDP1.
// Each section prints one line; the simulator's test compares them with the
// H100's recording (CDP2) and with the CUDA programming guide's rules (CDP1).
#include <cstdio>
#include <initializer_list>
#include <cuda_runtime.h>

// 1. Recursive quicksort in the style of the CUDA samples' cdpSimpleQuicksort:
// one thread partitions, the halves are sorted by child grids in their own
// non-blocking streams; with CDP1 the parent then waits for them.
#define QS_MAX_DEPTH 16
#define QS_SMALL 32
__device__ int qsSyncErrors;
__device__ void selectionSort(unsigned *d, int l, int r) {
  for (int i = l; i <= r; i++) {
    int m = i;
    for (int j = i + 1; j <= r; j++) if (d[j] < d[m]) m = j;
    unsigned t = d[i]; d[i] = d[m]; d[m] = t;
  }
}
__global__ void quicksort(unsigned *d, int l, int r, int depth) {
  if (depth >= QS_MAX_DEPTH - 1 || r - l <= QS_SMALL) { selectionSort(d, l, r); return; }
  unsigned pivot = d[(l + r) / 2];
  int i = l, j = r;
  while (i <= j) {
    while (d[i] < pivot) i++;
    while (d[j] > pivot) j--;
    if (i <= j) { unsigned t = d[i]; d[i] = d[j]; d[j] = t; i++; j--; }
  }
  if (l < j) { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); quicksort<<<1, 1, 0, s>>>(d, l, j, depth + 1); cudaStreamDestroy(s); }
  if (i < r) { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); quicksort<<<1, 1, 0, s>>>(d, i, r, depth + 1); cudaStreamDestroy(s); }
#ifdef CDP1
  if (cudaDeviceSynchronize() != cudaSuccess) atomicAdd(&qsSyncErrors, 1);
#endif
}

// 2. Nesting depth: each level launches the next; the first failing launch
// records its depth and error.
__global__ void depthProbe(int depth, int maxDepth, int *reached, int *failDepth, int *failCode) {
  atomicMax(reached, depth);
  if (depth < maxDepth) {
    depthProbe<<<1, 1>>>(depth + 1, maxDepth, reached, failDepth, failCode);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { *failDepth = depth; *failCode = (int)e; }
  }
}

#ifdef CDP1
// 3. Synchronization depth: each level launches the next and synchronizes;
// codes[d] is what cudaDeviceSynchronize returned at depth d.
__global__ void syncProbe(int depth, int maxDepth, int *codes) {
  if (depth < maxDepth) {
    syncProbe<<<1, 1>>>(depth + 1, maxDepth, codes);
    codes[depth] = (int)cudaDeviceSynchronize();
  }
}
#endif

// 4. Pending launches: one thread launches n children; launch errors are counted.
__global__ void floodChild(int *ran) { atomicAdd(ran, 1); }
__global__ void flood(int n, int *ran, int *failed, int *firstCode) {
  for (int i = 0; i < n; i++) {
    floodChild<<<1, 1>>>(ran);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { if (*failed == 0) *firstCode = (int)e; (*failed)++; }
  }
}

// 5. Device streams and events: A writes x in s1, an event recorded after it
// makes s2 wait, B in s2 reads x. Then the last-error rules: a bad launch
// (grid of 0 blocks) sets the thread's error; peek keeps it, get clears it.
__global__ void writeX(int *x) { *x = 41; }
__global__ void readX(int *x, int *y) { *y = *x + 1; }
__global__ void streamsEvents(int *x, int *y, int *codes) {
  cudaStream_t s1, s2; cudaEvent_t e;
  codes[0] = cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  codes[1] = cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  codes[2] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  writeX<<<1, 1, 0, s1>>>(x);
  codes[3] = cudaEventRecord(e, s1);
  codes[4] = cudaStreamWaitEvent(s2, e, 0);
  readX<<<1, 1, 0, s2>>>(x, y);
  codes[5] = cudaGetLastError();
  codes[6] = cudaEventDestroy(e);
  codes[7] = cudaStreamDestroy(s1);
  codes[8] = cudaStreamDestroy(s2);
  writeX<<<0, 1>>>(x);
  codes[9] = cudaPeekAtLastError();
  codes[10] = cudaPeekAtLastError();
  codes[11] = cudaGetLastError();
  codes[12] = cudaGetLastError();
}

static int *dalloc(int n) { int *p; cudaMalloc(&p, n * sizeof(int)); cudaMemset(p, 0, n * sizeof(int)); return p; }
static int get(int *p) { int v = -1; cudaMemcpy(&v, p, sizeof(int), cudaMemcpyDeviceToHost); return v; }

int main() {
  cudaError_t e;
#ifdef CDP1
  printf("build: CDP1\n");
  cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, QS_MAX_DEPTH);
#else
  printf("build: CDP2\n");
#endif
  {
    const int n = 2048;
    unsigned h[n], *d; unsigned s = 2463534242u; unsigned long long sum = 0;
    for (int i = 0; i < n; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; h[i] = s % 10007; sum += h[i]; }
    cudaMalloc(&d, sizeof h); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    quicksort<<<1, 1>>>(d, 0, n - 1, 0); e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int sorted = 1; unsigned long long sum2 = 0;
    for (int i = 0; i < n; i++) { sum2 += h[i]; if (i && h[i - 1] > h[i]) sorted = 0; }
    int se = -1; cudaMemcpyFromSymbol(&se, qsSyncErrors, sizeof se);
    printf("quicksort %d: sync=%s sorted=%d sum_kept=%d device_sync_errors=%d\n", n, cudaGetErrorName(e), sorted, sum == sum2, se);
    cudaGetLastError();
  }
  for (int maxDepth : {20, 30}) {
    int *reached = dalloc(1), *fd = dalloc(1), *fc = dalloc(1);
    cudaMemset(fd, 0xff, 4);
    depthProbe<<<1, 1>>>(0, maxDepth, reached, fd, fc); e = cudaDeviceSynchronize();
    printf("depthProbe to %d: sync=%s reached %d first failing launch at depth %d code %d\n", maxDepth, cudaGetErrorName(e), get(reached), get(fd), get(fc));
    cudaGetLastError();
  }
#ifdef CDP1
  for (int limit : {2, 4}) {
    cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, limit);
    int *codes = dalloc(8);
    cudaMemset(codes, 0xff, 8 * 4);
    syncProbe<<<1, 1>>>(0, 6, codes); e = cudaDeviceSynchronize();
    int h[8]; cudaMemcpy(h, codes, sizeof h, cudaMemcpyDeviceToHost);
    printf("syncProbe sync depth limit %d: sync=%s codes by depth", limit, cudaGetErrorName(e));
    for (int i = 0; i < 6; i++) printf(" %d", h[i]);
    printf("\n");
    cudaGetLastError();
  }
  cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 2);
#endif
  for (int n : {2048, 2049, 5000}) {
    int *ran = dalloc(1), *failed = dalloc(1), *fc = dalloc(1);
    flood<<<1, 1>>>(n, ran, failed, fc); e = cudaDeviceSynchronize();
    printf("flood %d: sync=%s ran %d failed %d first code %d\n", n, cudaGetErrorName(e), get(ran), get(failed), get(fc));
    cudaGetLastError();
  }
  {
    int *x = dalloc(1), *y = dalloc(1), *codes = dalloc(13);
    streamsEvents<<<1, 1>>>(x, y, codes); e = cudaDeviceSynchronize();
    int h[13]; cudaMemcpy(h, codes, sizeof h, cudaMemcpyDeviceToHost);
    printf("streamsEvents: sync=%s y=%d codes", cudaGetErrorName(e), get(y));
    for (int i = 0; i < 13; i++) printf(" %d", h[i]);
    printf("\n");
  }
  return 0;
}
