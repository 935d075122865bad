// cluster_time.cu: how the H100's block scheduler places thread-block
// clusters. A kernel whose blocks each spin a fixed number of cycles is
// launched with k = 1 block per SM (150 KiB of dynamic shared memory, 128
// blocks) and k = 2 (100 KiB, 256 blocks), without clusters and in
// clusters of 2, 4, 8 and 16 blocks. Each block records its SM (%smid)
// and its start and end (%globaltimer, ns). Prints, per launch: the
// cudaEvent time, cudaOccupancyMaxActiveClusters, the blocks that started
// before any block ended (the first wave) and the distinct SMs they used,
// then one line per block: "blk <block> <smid> <start> <end>" (ns from
// the launch's first start).
// (Recorded with ../check.h beside it; the same CHECK is included here.)
#include <cstdio>
#include <cstdlib>
#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_),  \
             cudaGetErrorString(e_));                                      \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin(unsigned long long *rec, long long cycles) {
  extern __shared__ unsigned char smem[];
  unsigned long long t0 = gtime();
  long long c0 = clock64();
  if (threadIdx.x == 0) smem[0] = 1;
  while (clock64() - c0 < cycles) {
  }
  __syncthreads();
  unsigned long long t1 = gtime();
  if (threadIdx.x == 0) {
    unsigned b = blockIdx.x;
    rec[3 * b] = smid();
    rec[3 * b + 1] = t0;
    rec[3 * b + 2] = t1;
  }
}

static cudaLaunchAttribute attr[1];

static cudaLaunchConfig_t config(int blocks, size_t smem, int cluster) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks, 1, 1);
  cfg.blockDim = dim3(32, 1, 1);
  cfg.dynamicSmemBytes = smem;
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster > 0 ? cluster : 1;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = cluster > 0 ? 1 : 0;
  return cfg;
}

int main() {
  const long long cycles = 40000;
  unsigned long long *drec;
  static unsigned long long h[3 * 256];
  CHECK(cudaMalloc(&drec, sizeof(h)));
  CHECK(cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, 150 * 1024));
  CHECK(cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  struct { int k, blocks; size_t smem; } shapes[2] = {{1, 128, 150 * 1024}, {2, 256, 100 * 1024}};
  int clusters[5] = {0, 2, 4, 8, 16};
  for (int s = 0; s < 2; s++) {
    for (int c = 0; c < 5; c++) {
      int cl = clusters[c];
      cudaLaunchConfig_t cfg = config(shapes[s].blocks, shapes[s].smem, cl);
      int active = -1;
      if (cl > 0) CHECK(cudaOccupancyMaxActiveClusters(&active, spin, &cfg));
      CHECK(cudaLaunchKernelEx(&cfg, spin, drec, cycles)); // warm-up
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemset(drec, 0, sizeof(h)));
      CHECK(cudaEventRecord(e0));
      CHECK(cudaLaunchKernelEx(&cfg, spin, drec, cycles));
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      CHECK(cudaGetLastError());
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      CHECK(cudaMemcpy(h, drec, sizeof(h), cudaMemcpyDeviceToHost));
      int nb = shapes[s].blocks;
      unsigned long long first = ~0ull, firstEnd = ~0ull;
      for (int b = 0; b < nb; b++) {
        if (h[3 * b + 1] < first) first = h[3 * b + 1];
        if (h[3 * b + 2] < firstEnd) firstEnd = h[3 * b + 2];
      }
      int wave1 = 0, sms = 0;
      bool seen[256] = {};
      for (int b = 0; b < nb; b++) {
        if (h[3 * b + 1] < firstEnd) {
          wave1++;
          if (h[3 * b] < 256 && !seen[h[3 * b]]) seen[h[3 * b]] = true, sms++;
        }
      }
      printf("launch k=%d blocks=%d smem=%zu cluster=%d event_us=%.2f max_active_clusters=%d first_wave_blocks=%d first_wave_sms=%d\n",
             shapes[s].k, nb, shapes[s].smem, cl, ms * 1000, active, wave1, sms);
      for (int b = 0; b < nb; b++)
        printf("blk %d %llu %llu %llu\n", b, h[3 * b], h[3 * b + 1] - first, h[3 * b + 2] - first);
    }
  }
  return 0;
}
