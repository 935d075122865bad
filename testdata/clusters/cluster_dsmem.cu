// cluster_dsmem.cu: blocks of a cluster exchanging data through
// distributed shared memory: a histogram whose bins are spread over the
// shared memory of the cluster's blocks (cooperative_groups
// map_shared_rank and atomicAdd on the mapped pointer), a float reduction
// whose rank 0 reads the other blocks' partial sums, and the PTX forms:
// mapa, ld/st/atom/red.shared::cluster, barrier.cluster.arrive(.relaxed)/
// wait, fence.acq_rel.cluster, cluster-scoped atomics, isspacep.
#include <cooperative_groups.h>
#include "check.h"
namespace cg = cooperative_groups;

#define NBINS 256

__global__ void histogram(const unsigned *in, int n, unsigned *hist) {
  extern __shared__ unsigned bins[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned per = NBINS / cluster.num_blocks();
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) bins[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned b = in[i] % NBINS;
    unsigned *dst = cluster.map_shared_rank(bins, b / per);
    atomicAdd(dst + b % per, 1u);
  }
  cluster.sync();
  unsigned base = cluster.block_rank() * per;
  for (unsigned i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&hist[base + i], bins[i]);
}

__global__ void __cluster_dims__(4, 1, 1) reduce(const float *in, float *out) {
  __shared__ float part[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && t < 32) {
    // lane r reads rank r's partial sum (r < 4), then lane 0 adds them in order.
    float v = 0;
    if (t < cluster.num_blocks()) v = *cluster.map_shared_rank(&part[0], t);
    float s0 = __shfl_sync(0xffffffff, v, 0), s1 = __shfl_sync(0xffffffff, v, 1);
    float s2 = __shfl_sync(0xffffffff, v, 2), s3 = __shfl_sync(0xffffffff, v, 3);
    if (t == 0) out[blockIdx.x / 4] = ((s0 + s1) + s2) + s3;
  }
  cluster.sync();  // no block may exit while another reads its shared memory
}

__global__ void __cluster_dims__(2, 1, 1) ptxforms(unsigned *out, unsigned *gcount) {
  __shared__ unsigned buf[128];
  unsigned t = threadIdx.x, rank, peer, local, remote, v, old, fromGeneric, spc, spcta;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  peer = rank ^ 1;
  buf[t] = rank * 1000 + t;
  buf[64 + t] = 0;
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  local = (unsigned)__cvta_generic_to_shared(&buf[t]);
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(peer));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
  // generic form: mapa.u64 on a generic address
  unsigned long long g = (unsigned long long)&buf[t], gr;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(gr) : "l"(g), "r"(peer));
  fromGeneric = *(volatile unsigned *)gr;
  asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(spc) : "l"(gr));
  asm volatile("{ .reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(spcta) : "l"(gr));
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  // peer's buf[64 + t] = rank * 7 + t; every thread adds to peer's buf[64] and buf[65]
  unsigned r64, r65;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r64) : "r"((unsigned)__cvta_generic_to_shared(&buf[64 + t])), "r"(peer));
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(r64), "r"(rank * 7 + t) : "memory");
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r64) : "r"((unsigned)__cvta_generic_to_shared(&buf[64])), "r"(peer));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r65) : "r"((unsigned)__cvta_generic_to_shared(&buf[65])), "r"(peer));
  asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(r64), "r"(t + 1) : "memory");
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(r65) : "memory");
  unsigned oldsum = old;
  for (int o = 16; o > 0; o >>= 1) oldsum += __shfl_xor_sync(0xffffffff, oldsum, o);
  __shared__ unsigned warpOld[2];
  if ((t & 31) == 0) warpOld[t / 32] = oldsum;
  asm volatile("atom.relaxed.cluster.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(gcount) : "memory");
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  unsigned *o = out + (blockIdx.x * 64 + t) * 8;
  o[0] = v; o[1] = fromGeneric; o[2] = spc; o[3] = spcta; o[4] = buf[64 + t];
  o[5] = buf[64]; o[6] = buf[65]; o[7] = warpOld[0] + warpOld[1];
}

int main() {
  // histogram of 50000 pseudo-random values, cluster sizes 1, 2, 4, 8
  const int n = 50000;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned x = 12345;
  for (int i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    h[i] = (x >> 8) ^ (x >> 20);
  }
  unsigned *din, *dhist;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dhist, NBINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(din, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  for (int cs = 1; cs <= 8; cs *= 2) {
    CHECK(cudaMemset(dhist, 0, NBINS * sizeof(unsigned)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(16, 1, 1);
    cfg.blockDim = dim3(128, 1, 1);
    cfg.dynamicSmemBytes = NBINS / cs * sizeof(unsigned);
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cs;
    a[0].val.clusterDim.y = 1;
    a[0].val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, histogram, (const unsigned *)din, n, dhist));
    CHECK(cudaDeviceSynchronize());
    unsigned hh[NBINS], total = 0, sum = 0;
    CHECK(cudaMemcpy(hh, dhist, sizeof hh, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NBINS; i++) total += hh[i], sum = sum * 31 + hh[i];
    printf("histogram cluster %d: total %u hash %08x\n", cs, total, sum);
    if (cs == 4)
      for (int i = 0; i < NBINS; i += 16) {
        for (int j = 0; j < 16; j++) printf(" %u", hh[i + j]);
        printf("\n");
      }
  }
  // float reduction: 32 blocks of 256 in clusters of 4
  const int m = 32 * 256;
  float *hf = (float *)malloc(m * sizeof(float));
  for (int i = 0; i < m; i++) {
    x = x * 1664525u + 1013904223u;
    hf[i] = (float)(int)(x >> 9) / 3.0f * ((x & 1) ? 1e-3f : 1.0f);
  }
  float *dfi, *dfo, ho[8];
  CHECK(cudaMalloc(&dfi, m * sizeof(float)));
  CHECK(cudaMalloc(&dfo, 8 * sizeof(float)));
  CHECK(cudaMemcpy(dfi, hf, m * sizeof(float), cudaMemcpyHostToDevice));
  reduce<<<32, 256>>>(dfi, dfo);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(ho, dfo, sizeof ho, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++) printf("reduce cluster %d: %a\n", i, ho[i]);
  // PTX forms: 4 blocks of 64 in clusters of 2
  unsigned *dout, *dcount, hout[4 * 64 * 8], hcount;
  CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMalloc(&dcount, sizeof(unsigned)));
  CHECK(cudaMemset(dcount, 0, sizeof(unsigned)));
  ptxforms<<<4, 64>>>(dout, dcount);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hcount, dcount, sizeof hcount, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; b++)
    for (int t = 0; t < 64; t += 9) {
      unsigned *o = hout + (b * 64 + t) * 8;
      printf("ptxforms block %d thread %2d: ld %u generic %u isspacep.cluster %u isspacep.cta %u st %u red %u atom %u oldsum %u\n",
             b, t, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
    }
  printf("global cluster-scoped atomics: %u\n", hcount);
  return 0;
}
