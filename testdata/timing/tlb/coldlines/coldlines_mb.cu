// coldlines_mb.cu: what a cold global read costs on the H100 beyond one DRAM latency, for the held-out kernels'
// first copy stages (issue 18). Two kernels, each launched with the L2 flushed (a 256 MiB memset before every
// launch, cold=1) and again without the flush (cold=0: the lines in the L2, the translations in the TLBs).
//
// k_chase: lane 0 of block 0 chases 32 dependent 4-byte loads (ld.global.cg: the L1 is not allocated), the
//   address of each the last one's value (0) plus its step's offset: step j reads offset (j%16)*STRIDE for
//   j < 16, then (j%16)*STRIDE + 4096 (another line of the same page, not read yet) for j >= 16. A %clock64 stamp
//   before each load (after the add that takes the last load's value and an ld.shared at the sum), and one after
//   the last.
//   Each cold launch reads a 512 MiB region of its own (a warm one the region of the launch before it).
//   Stride 128 B to 32 MiB: whether the first read of a page costs more than a read of another line of a page
//   already read (address translation), and how a lone line's latency scatters.
//   Prints: chase stride=S cold=K lat=<32 step times, cycles> (the mean of REPS launches, each step t[j+1]-t[j]).
//
// k_burst: every thread of GRID blocks of THREADS issues N 16-byte loads (ld.global.cg.v4) back to back, the
//   block's loads contiguous (a warp instruction reads 4 lines; the block THREADS*N*16 bytes), each block its own
//   1 MiB-aligned region (a cold launch's 256 MiB region its own), then adds the values (all 0) into one register. Lane 0 of every warp stamps %clock64
//   after a bar.sync (t0), after issuing the loads (t1), after an ld.shared at the sum (t2).
//   Whether the last of n lines from DRAM comes one DRAM latency after its issue or later (a per-line spread, a
//   per-SM rate), against the same burst from the L2.
//   Prints: burst threads=T n=N grid=G cold=K issue=<mean>/<max> done=<mean>/<max> (cycles after t0, over
//   the warps; the mean of REPS launches).
//
// Built with nvcc 13 -O3 -gencode arch=compute_90a,code=sm_90a; run.sh beside this file ran it plainly and under
// Nsight Compute (`./coldlines_mb ncu`: one launch each, the flush left to ncu's --cache-control all).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define REPS 3
#define STEPS 32

// wait(v): an ld.shared whose address is v, so that what follows issues after v is there (ptxas's IADD waits
// for its operand at issue anyway; this makes the same PTX wait in a model that lets arithmetic run ahead of a
// load it reads).
__device__ __forceinline__ void wait(unsigned v, unsigned sh) {
  unsigned d;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(d) : "r"(sh + (v & 4)) : "memory");
}

__device__ __forceinline__ long long stamp() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}

__global__ void k_chase(long long *out, const char *src, unsigned long long stride) {
  __shared__ unsigned sbuf[8];
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  sbuf[threadIdx.x] = 0;
  unsigned sh = (unsigned)__cvta_generic_to_shared(sbuf);
  unsigned v = 0;
  long long t[STEPS + 1];
#pragma unroll
  for (int j = 0; j < STEPS; j++) {
    unsigned long long off = (unsigned long long)(j & 15) * stride + (j >= 16 ? 4096 : 0);
    const char *p = src + off + v;
    t[j] = stamp();
    unsigned x;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
    asm volatile("add.u32 %0, %0, %1;" : "+r"(v) : "r"(x) : "memory");
    wait(v, sh);
  }
  t[STEPS] = stamp();
#pragma unroll
  for (int j = 0; j < STEPS; j++) out[j] = t[j + 1] - t[j];
  out[STEPS] = v;
}

template <int N>
__global__ void k_burst(long long *out, const char *src) {
  __shared__ unsigned sbuf[8];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  const char *base = src + ((size_t)blockIdx.x << 20);
  if (t < 8) sbuf[t] = 0;
  unsigned sh = (unsigned)__cvta_generic_to_shared(sbuf);
  unsigned acc = 0;
  __syncthreads();
  long long t0 = stamp(), t1, t2;
  unsigned r[N][4];
#pragma unroll
  for (int j = 0; j < N; j++)
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[j][0]), "=r"(r[j][1]), "=r"(r[j][2]), "=r"(r[j][3])
                 : "l"(base + ((size_t)j * blockDim.x + t) * 16)
                 : "memory");
  t1 = stamp();
#pragma unroll
  for (int j = 0; j < N; j++)
    asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(acc) : "r"(r[j][0]), "r"(r[j][3]) : "memory");
  wait(acc, sh);
  t2 = stamp();
  if (lane == 0) {
    long long *o = out + ((size_t)blockIdx.x * nw + warp) * 4;
    o[0] = t1 - t0;
    o[1] = t2 - t0;
    o[2] = acc;
  }
}

typedef void (*burstfn)(long long *, const char *);

int main(int argc, char **argv) {
  bool ncu = argc > 1 && !strcmp(argv[1], "ncu");
  // fresh: run2.sh's held-out bursts (FRESH.md), no chase.
  bool fresh = argc > 1 && !strcmp(argv[1], "fresh");
  const size_t FLUSH = 256 << 20, SRC = (size_t)4 << 30;
  char *flush, *src;
  long long *out;
  if (cudaMalloc(&flush, FLUSH) || cudaMalloc(&src, SRC) || cudaMalloc(&out, 132 * 8 * 4 * sizeof(long long))) {
    printf("error: cudaMalloc\n");
    return 1;
  }
  cudaMemset(src, 0, SRC);
  cudaDeviceSynchronize();
  int reps = ncu ? 1 : REPS, v = 1;
  char *base = src;
  static long long h[132 * 8 * 4];
  const unsigned long long strides[] = {128, 4096ull * 2, 65536, 2ull << 20, 32ull << 20};
  for (unsigned long long s : strides)
    for (int cold = 1; cold >= 0 && !fresh; cold--) {
      double lat[STEPS] = {0};
      for (int rep = 0; rep < reps + (cold ? 0 : 1); rep++) {
        if (cold) {
          if (!ncu) cudaMemset(flush, v & 255, FLUSH);
          base = src + ((size_t)(v++ % 8) << 29);  // a 512 MiB region of its own: pages no launch read just before
        }
        cudaDeviceSynchronize();
        k_chase<<<1, 32>>>(out, base, s);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
        if (!cold && rep == 0) continue;  // warm: the first launch brings the lines into the L2
        cudaMemcpy(h, out, sizeof(long long) * (STEPS + 1), cudaMemcpyDeviceToHost);
        for (int j = 0; j < STEPS; j++) lat[j] += (double)h[j] / reps;
      }
      printf("chase stride=%llu cold=%d lat=", s, cold);
      for (int j = 0; j < STEPS; j++) printf("%s%.0f", j ? "," : "", lat[j]);
      printf("\n");
      fflush(stdout);
    }
  const int cfg0[][2] = {{32, 1}, {32, 2}, {32, 4}, {32, 8}, {32, 16}, {128, 1}, {128, 4}, {128, 16}, {256, 4}, {256, 8}};
  const int cfg1[][2] = {{64, 8}, {64, 16}, {192, 4}, {192, 8}, {512, 2}, {512, 4}, {1024, 1}, {1024, 2}, {96, 16}, {384, 4}};
  const int grids0[] = {1, 4, 132}, grids1[] = {1, 2};
  for (int ci = 0; ci < 10; ci++)
    for (int gi = 0; gi < (fresh ? 2 : 3); gi++)
      for (int cold = 1; cold >= 0; cold--) {
        const int *c = fresh ? cfg1[ci] : cfg0[ci];
        int g = fresh ? grids1[gi] : grids0[gi];
        int threads = c[0], n = c[1], nw = threads / 32;
        burstfn fn = n == 1 ? k_burst<1> : n == 2 ? k_burst<2> : n == 4 ? k_burst<4> : n == 8 ? k_burst<8> : k_burst<16>;
        double is = 0, im = 0, ds = 0, dm = 0;
        for (int rep = 0; rep < reps + (cold ? 0 : 1); rep++) {
          if (cold) {
            if (!ncu) cudaMemset(flush, v & 255, FLUSH);
            base = src + ((size_t)(v++ % 16) << 28);
          }
          cudaDeviceSynchronize();
          fn<<<g, threads>>>(out, base);
          cudaError_t e = cudaDeviceSynchronize();
          if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
          if (!cold && rep == 0) continue;
          cudaMemcpy(h, out, sizeof(long long) * g * nw * 4, cudaMemcpyDeviceToHost);
          double a = 0, am = 0, b = 0, bm = 0;
          for (int i = 0; i < g * nw; i++) {
            a += h[4 * i];
            b += h[4 * i + 1];
            if (h[4 * i] > am) am = h[4 * i];
            if (h[4 * i + 1] > bm) bm = h[4 * i + 1];
          }
          is += a / (g * nw) / reps;
          im += am / reps;
          ds += b / (g * nw) / reps;
          dm += bm / reps;
        }
        printf("burst threads=%d n=%d grid=%d cold=%d issue=%.0f/%.0f done=%.0f/%.0f\n", threads, n, g, cold, is, im, ds,
               dm);
        fflush(stdout);
      }
  return 0;
}
