// coldcp_mb.cu: how long a block's copy stages from global into shared memory take on the H100 with the data in
// DRAM only (the L2 flushed before the launch, as Nsight Compute does) and with it in the L2 (the same launch
// repeated): the copies of Triton's f16 matmuls (16-byte chunks, 8 KB a stage on 4 warps, 32 KB on 8 warps).
// One block or four (each its own data), one stage or three issued back to back (one commit group each, then
// cp.async.wait_group 2, 1, 0 as a pipeline's prologue and loop wait for them), the chunks contiguous (pat=0) or
// in rows of 64 bytes 256 bytes apart (pat=1: a 64-element f16 tile row of a K=128 matrix, Triton's A tile).
//   MODE 0: cp.async.cg 16 bytes; 1: cp.async.ca 16 bytes; 2: ld.global.v4 then st.shared.v4 (each stage in turn).
// Lane 0 of each warp stamps %clock64: after a bar.sync (t0), after issuing every stage's copies, after each
// stage's wait, after a closing bar.sync. Prints, for each configuration, the mean over warps (and blocks) and
// the slowest warp of each stamp minus t0, mean of REPS launches:
//   coldcp mode=M pat=P threads=T chunks=C stages=S grid=G cold=K issued=<mean>/<max> w0=<mean>/<max> ... bar=<mean>/<max>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define REPS 3
#define NST 8  // stamps a warp: t0, issued, up to 3 waits (or stages), bar; padded

template <int N>
__device__ __forceinline__ void waitg() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

__device__ __forceinline__ unsigned goff(int i, int pat) { return pat ? (i >> 2) * 256 + (i & 3) * 16 : i * 16; }

template <int MODE, int STAGES>
__global__ void k_stage(long long *out, const char *src, int chunks, int pat) {
  extern __shared__ __align__(1024) char buf[];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  int per = chunks * blockDim.x;                   // 16-byte chunks a stage
  size_t region = (size_t)per * 16 * (pat ? 4 : 1);  // bytes a stage spans in global memory
  const char *base = src + (size_t)blockIdx.x * STAGES * region;
  unsigned sbase = (unsigned)__cvta_generic_to_shared(buf);
  long long ts[NST];
#pragma unroll
  for (int k = 0; k < NST; k++) ts[k] = 0;
  __syncthreads();
  ts[0] = clock64();
  if (MODE < 2) {
#pragma unroll
    for (int s = 0; s < STAGES; s++) {
      for (int j = 0; j < chunks; j++) {
        int i = j * blockDim.x + t;
        const char *g = base + s * region + goff(i, pat);
        unsigned d = sbase + (s * per + i) * 16;
        if (MODE == 0)
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(g) : "memory");
        else
          asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(d), "l"(g) : "memory");
      }
      asm volatile("cp.async.commit_group;" ::: "memory");
    }
    ts[1] = clock64();
#pragma unroll
    for (int s = 0; s < STAGES; s++) {
      switch (STAGES - 1 - s) {
      case 2: waitg<2>(); break;
      case 1: waitg<1>(); break;
      default: waitg<0>(); break;
      }
      ts[2 + s] = clock64();
    }
  } else {
    ts[1] = ts[0];
#pragma unroll
    for (int s = 0; s < STAGES; s++) {
      for (int j0 = 0; j0 < chunks; j0 += 4) {
        unsigned r[4][4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
          int i = (j0 + q) * blockDim.x + t;
          const char *g = base + s * region + goff(i, pat);
          if (j0 + q < chunks)
            asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                         : "=r"(r[q][0]), "=r"(r[q][1]), "=r"(r[q][2]), "=r"(r[q][3]) : "l"(g) : "memory");
        }
#pragma unroll
        for (int q = 0; q < 4; q++) {
          int i = (j0 + q) * blockDim.x + t;
          unsigned d = sbase + (s * per + i) * 16;
          if (j0 + q < chunks)
            asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(d), "r"(r[q][0]), "r"(r[q][1]), "r"(r[q][2]),
                         "r"(r[q][3]) : "memory");
        }
      }
      ts[2 + s] = clock64();
    }
  }
  __syncthreads();
  ts[2 + STAGES] = clock64();
  if (lane == 0) {
    long long *o = out + ((size_t)blockIdx.x * nw + warp) * NST;
#pragma unroll
    for (int k = 0; k < NST; k++) o[k] = ts[k];
  }
}

typedef void (*kfn)(long long *, const char *, int, int);

int main() {
  const size_t FLUSH = 256 << 20, SRC = 16 << 20;
  char *flush, *src;
  long long *out;
  cudaMalloc(&flush, FLUSH);
  cudaMalloc(&src, SRC);
  cudaMalloc(&out, 4 * 8 * NST * sizeof(long long));
  cudaMemset(src, 1, SRC);
  kfn fns[3][2] = {{k_stage<0, 1>, k_stage<0, 3>}, {k_stage<1, 1>, k_stage<1, 3>}, {k_stage<2, 1>, k_stage<2, 3>}};
  for (int m = 0; m < 3; m++)
    for (int s = 0; s < 2; s++) cudaFuncSetAttribute(fns[m][s], cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  const int tc[2][2] = {{128, 4}, {256, 8}};
  long long h[4 * 8 * NST];
  int v = 0;
  for (int m = 0; m < 3; m++)
    for (int pat = 0; pat < 2; pat++)
      for (int c = 0; c < 2; c++)
        for (int si = 0; si < 2; si++)
          for (int grid = 1; grid <= 4; grid += 3)
            for (int cold = 1; cold >= 0; cold--) {
              int threads = tc[c][0], chunks = tc[c][1], stages = si ? 3 : 1, nw = threads / 32;
              int smem = stages * chunks * threads * 16;
              double mean[NST] = {0}, mx[NST] = {0};
              for (int rep = 0; rep < REPS + (cold ? 0 : 1); rep++) {
                if (cold) cudaMemset(flush, v++ & 255, FLUSH);
                cudaDeviceSynchronize();
                fns[m][si]<<<grid, threads, smem>>>(out, src, chunks, pat);
                cudaError_t e = cudaDeviceSynchronize();
                if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
                if (!cold && rep == 0) continue;  // warm: the first launch brings the data into the L2
                cudaMemcpy(h, out, sizeof(long long) * grid * nw * NST, cudaMemcpyDeviceToHost);
                for (int k = 1; k < 3 + stages; k++) {
                  double sum = 0, w = 0;
                  for (int i = 0; i < grid * nw; i++) {
                    double d = (double)(h[i * NST + k] - h[i * NST]);
                    sum += d;
                    if (d > w) w = d;
                  }
                  mean[k] += sum / (grid * nw) / REPS;
                  mx[k] += w / REPS;
                }
              }
              printf("coldcp mode=%d pat=%d threads=%d chunks=%d stages=%d grid=%d cold=%d issued=%.0f/%.0f", m, pat,
                     threads, chunks, stages, grid, cold, mean[1], mx[1]);
              for (int k = 0; k < stages; k++) printf(" w%d=%.0f/%.0f", k, mean[2 + k], mx[2 + k]);
              printf(" bar=%.0f/%.0f\n", mean[2 + stages], mx[2 + stages]);
            }
  return 0;
}
