// cluster_mb.cu: what a thread-block cluster's synchronization and distributed shared memory cost on the
// H100, measured with %clock64 inside the kernel (SM cycles) for the timing model:
//  sync   ITERS rounds of barrier.cluster.arrive + barrier.cluster.wait (cluster sizes 1..16, 1 and 4 warps a
//         block): cycles per round, the slowest block's; "cta" the same with __syncthreads for comparison.
//  chase  one thread follows a pointer chain through shared memory, local (rank itself) or its neighbour's
//         (rank ^ 1) through ld.shared::cluster: cycles per load.
//  atom   every thread of every block adds 1 to bins spread over the cluster's shared memory (bin = hash %
//         NBINS, owner = bin / per): cycles per atomicAdd per warp for local-only and distributed bins.
// Prints one line per measurement: "<what> cluster=<n> warps=<w> ... cycles_per=<x>".
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;
#define CHECK(call)                                                                                     \
  do {                                                                                                  \
    cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                            \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_), cudaGetErrorString(e_));   \
      return 1;                                                                                         \
    }                                                                                                   \
  } while (0)

#define ITERS 1024

__global__ void k_sync(long long *out, int cta) {
  __syncthreads();
  long long t0 = clock64();
  if (cta) {
    for (int i = 0; i < ITERS; i++) __syncthreads();
  } else {
    for (int i = 0; i < ITERS; i++) asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}

// chase: shared words hold the next index; rank 0 thread 0 walks ITERS steps in the target rank's memory.
__global__ void k_chase(long long *out, unsigned *sink, int remote) {
  __shared__ unsigned nxt[1024];
  cg::cluster_group cl = cg::this_cluster();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) nxt[i] = (i * 97 + 13) & 1023;
  cl.sync();
  if (threadIdx.x == 0) {
    unsigned rank = cl.block_rank();
    unsigned target = remote ? (rank ^ 1) : rank;
    unsigned base = (unsigned)__cvta_generic_to_shared(nxt), rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(base), "r"(target));
    unsigned j = 0;
    long long t0 = clock64();
    for (int i = 0; i < ITERS; i++) {
      unsigned v;
      asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(rb + j * 4) : "memory");
      j = v;
    }
    long long t1 = clock64();
    out[blockIdx.x] = t1 - t0;
    sink[blockIdx.x] = j;
  }
  cl.sync();
}

#define NBINS 1024
__global__ void k_atom(long long *out, unsigned *hist, int distributed) {
  extern __shared__ unsigned bins[];
  cg::cluster_group cl = cg::this_cluster();
  unsigned n = cl.num_blocks();
  unsigned per = distributed ? NBINS / n : NBINS;
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) bins[i] = 0;
  cl.sync();
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < ITERS / 4; i++) {
    x = x * 1664525u + 1013904223u;
    unsigned b = (x >> 8) % NBINS;
    unsigned *dst = distributed ? cl.map_shared_rank(bins, b / per) + b % per : bins + b;
    atomicAdd(dst, 1u);
  }
  long long t1 = clock64();
  cl.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&hist[i], bins[i]);
}

static int launch(void (*k)(long long *, unsigned *, int), void (*ks)(long long *, int), int blocks, int threads,
                  int cs, int smem, long long *dout, unsigned *daux, int arg) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks, 1, 1);
  cfg.blockDim = dim3(threads, 1, 1);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = cs;
  a[0].val.clusterDim.y = 1;
  a[0].val.clusterDim.z = 1;
  cfg.attrs = a;
  cfg.numAttrs = 1;
  cudaError_t e = ks ? cudaLaunchKernelEx(&cfg, ks, dout, arg) : cudaLaunchKernelEx(&cfg, k, dout, daux, arg);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("launch failed cluster=%d threads=%d: %s\n", cs, threads, cudaGetErrorName(e));
    cudaGetLastError();
    return 1;
  }
  return 0;
}

static double slowest(long long *dout, int blocks, double per) {
  long long h[256], m = 0;
  cudaMemcpy(h, dout, blocks * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks; i++) m = h[i] > m ? h[i] : m;
  return m / per;
}

int main() {
  long long *dout;
  unsigned *daux;
  CHECK(cudaMalloc(&dout, 256 * sizeof(long long)));
  CHECK(cudaMalloc(&daux, 4096 * sizeof(unsigned)));
  CHECK(cudaFuncSetAttribute(k_sync, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CHECK(cudaFuncSetAttribute(k_atom, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (int w = 1; w <= 4; w *= 4)
    for (int cs = 1; cs <= 16; cs *= 2) {
      int blocks = cs * 4;  // four clusters
      for (int cta = 0; cta <= 1; cta++) {
        if (launch(nullptr, k_sync, blocks, 32 * w, cs, 0, dout, daux, cta)) continue;
        launch(nullptr, k_sync, blocks, 32 * w, cs, 0, dout, daux, cta);  // warm
        printf("sync kind=%s cluster=%d warps=%d blocks=%d cycles_per=%.2f\n", cta ? "cta" : "cluster", cs, w, blocks,
               slowest(dout, blocks, ITERS));
      }
    }
  for (int cs = 2; cs <= 8; cs *= 2)
    for (int remote = 0; remote <= 1; remote++) {
      if (launch(k_chase, nullptr, cs * 4, 32, cs, 0, dout, daux, remote)) continue;
      launch(k_chase, nullptr, cs * 4, 32, cs, 0, dout, daux, remote);
      printf("chase remote=%d cluster=%d cycles_per=%.2f\n", remote, cs, slowest(dout, cs * 4, ITERS));
    }
  for (int w = 1; w <= 8; w *= 2)
    for (int cs = 1; cs <= 8; cs *= 2)
      for (int dist = 0; dist <= (cs > 1); dist++) {
        int per = dist ? NBINS / cs : NBINS;
        if (launch(k_atom, nullptr, 16, 32 * w, cs, per * 4, dout, daux, dist)) continue;
        launch(k_atom, nullptr, 16, 32 * w, cs, per * 4, dout, daux, dist);
        printf("atom distributed=%d cluster=%d warps=%d cycles_per_warp_atom=%.2f\n", dist, cs, w,
               slowest(dout, 16, ITERS / 4));
      }
  return 0;
}
