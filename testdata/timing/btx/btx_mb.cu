// btx_mb.cu: the held-out kernels testdata/tensor/barrier_tx.cu (k_tx<1>, k_tx<0>: cuda::barrier with bulk copies,
// the copies before or after expect_tx) and testdata/tensor/barrier_prog.cu's k_barrier (a 4-byte memcpy_async a
// thread on a cuda::barrier), unchanged but for %clock64 stamps: lane 0 of every warp stores, per round, the cycles
// since the kernel's start at the round's start (t0), after the first wait (t1) and after the round's second
// barrier phase (t2). Launched as the programs launch them (3 blocks of 128 threads and 5 tiles; 4 blocks of 256 and
// 6 tiles), after a 128 MiB write that flushes the L2 (as Nsight Compute's cache control), twice; the second
// launch is printed:
//   <kernel> round=<r> t0=<> t1=<> t2=<>     (block 0, the slowest warp of each)
//   <kernel> total=<the slowest warp's last t2, every block> first=<the earliest t0 of round 0>
// Also testdata/tensor/gemm_wmma.cu's gemm (16 blocks of one warp, 64x64 f16, wmma 16x16x16) with a stamp at the
// start, after each k step's mma_sync and after the store (k_gemm; "gemm step=<j> t=<slowest block>", total).
// With the argument "ncu" each kernel runs once more with no flush and no printing but its name (Nsight Compute).
#include <cuda/barrier>
#include <mma.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
#define TILE 1024
#define N 256
#define MAXR 8
#define MAXW 8

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
// st: [block][round][3][MAXW]
__device__ __forceinline__ void put(long long *st, int r, int k, long long v) {
  if ((threadIdx.x & 31) == 0) st[((blockIdx.x * MAXR + r) * 3 + k) * MAXW + threadIdx.x / 32] = v;
}

template <bool ARRIVE_TX>
__global__ void k_tx(const int *in, int *out, int tiles, long long *st) {
  long long start = stamp();
  __shared__ alignas(128) int smem[2][TILE];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int *src = in + (size_t)blockIdx.x * tiles * TILE;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    put(st, t, 0, stamp() - start);
    int s = t & 1;
    block_barrier::arrival_token tok;
    if (threadIdx.x == 0) {
      if (!ARRIVE_TX) cuda::device::barrier_expect_tx(bar, TILE * sizeof(int));
      cuda::device::memcpy_async_tx(smem[s], src + t * TILE, cuda::aligned_size_t<16>(TILE / 2 * sizeof(int)), bar);
      cuda::device::memcpy_async_tx(smem[s] + TILE / 2, src + t * TILE + TILE / 2,
                                    cuda::aligned_size_t<16>(TILE / 2 * sizeof(int)), bar);
      tok = ARRIVE_TX ? cuda::device::barrier_arrive_tx(bar, 1, TILE * sizeof(int)) : bar.arrive();
    } else {
      tok = bar.arrive();
    }
    bar.wait(static_cast<block_barrier::arrival_token &&>(tok));
    put(st, t, 1, stamp() - start);
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) acc += smem[s][(i * 3 + t) % TILE] * (t + 1);
    bar.arrive_and_wait();
    put(st, t, 2, stamp() - start);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_barrier(const int *in, int *out, int tiles, long long *st) {
  long long start = stamp();
  __shared__ int buf[2][N];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const int *src = in + (size_t)blockIdx.x * tiles * N;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    put(st, t, 0, stamp() - start);
    int s = t & 1;
    cuda::memcpy_async(&buf[s][threadIdx.x], &src[t * N + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    put(st, t, 1, stamp() - start);
    acc += buf[s][(threadIdx.x * 7 + t) % N] * (t + 1);
    auto tok = bar.arrive();
    bar.wait(static_cast<block_barrier::arrival_token &&>(tok));
    put(st, t, 2, stamp() - start);
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

#define GN 64
__global__ void k_gemm(const half *a, const half *b, float *c, long long *st) {
  long long start = stamp();
  using namespace nvcuda;
  int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  long long *sb = st + (blockIdx.y * gridDim.x + blockIdx.x) * MAXW;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < GN; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * GN + k, GN);
    wmma::load_matrix_sync(fb, b + tn * GN + k, GN);
    wmma::mma_sync(fc, fa, fb, fc);
    long long t = stamp() - start;
    if (threadIdx.x == 0) sb[k / 16] = t;
  }
  wmma::store_matrix_sync(c + tm * GN + tn, fc, GN, wmma::mem_row_major);
  long long t = stamp() - start;
  if (threadIdx.x == 0) sb[4] = t;
}

__global__ void k_flush(int4 *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = make_int4((int)i, 1, 2, 3);
}

int main(int argc, char **argv) {
  int ncu = argc > 1 && !strcmp(argv[1], "ncu");
  const int total = 4 * 8 * TILE;
  int *hin = new int[total];
  for (int i = 0; i < total; i++) hin[i] = (int)((i * 2246822519u) >> 9) % 2001 - 1000;
  int *din, *dout;
  long long *st, *h = new long long[4 * MAXR * 3 * MAXW];
  int4 *fl;
  const size_t nfl = (128u << 20) / sizeof(int4);
  cudaMalloc(&din, total * sizeof(int));
  cudaMalloc(&dout, 4 * N * sizeof(int));
  cudaMalloc(&st, 4 * MAXR * 3 * MAXW * sizeof(long long));
  cudaMalloc(&fl, nfl * sizeof(int4));
  cudaMemcpy(din, hin, total * sizeof(int), cudaMemcpyHostToDevice);
  const char *names[] = {"k_tx1", "k_tx0", "k_barrier"};
  const int blocks[] = {3, 3, 4}, threads[] = {128, 128, 256}, tiles[] = {5, 5, 6};
  for (int k = 0; k < 3; k++) {
    for (int rep = 0; rep < (ncu ? 1 : 2); rep++) {
      cudaMemset(st, 0, 4 * MAXR * 3 * MAXW * sizeof(long long));
      if (!ncu) k_flush<<<264, 1024>>>(fl, nfl);
      cudaDeviceSynchronize();
      if (k == 0) k_tx<true><<<blocks[k], threads[k]>>>(din, dout, tiles[k], st);
      if (k == 1) k_tx<false><<<blocks[k], threads[k]>>>(din, dout, tiles[k], st);
      if (k == 2) k_barrier<<<blocks[k], threads[k]>>>(din, dout, tiles[k], st);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        printf("%s: %s\n", names[k], cudaGetErrorString(e));
        return 1;
      }
    }
    if (ncu) {
      printf("%s ok\n", names[k]);
      continue;
    }
    cudaMemcpy(h, st, 4 * MAXR * 3 * MAXW * sizeof(long long), cudaMemcpyDeviceToHost);
    int nw = threads[k] / 32;
    long long tot = 0, first = -1;
    for (int b = 0; b < blocks[k]; b++)
      for (int w = 0; w < nw; w++) {
        long long v = h[((b * MAXR + tiles[k] - 1) * 3 + 2) * MAXW + w], f = h[((b * MAXR) * 3) * MAXW + w];
        tot = v > tot ? v : tot;
        first = first < 0 || f < first ? f : first;
      }
    for (int r = 0; r < tiles[k]; r++) {
      long long m[3] = {0, 0, 0};
      for (int j = 0; j < 3; j++)
        for (int w = 0; w < nw; w++) {
          long long v = h[(r * 3 + j) * MAXW + w];
          m[j] = v > m[j] ? v : m[j];
        }
      printf("%s round=%d t0=%lld t1=%lld t2=%lld\n", names[k], r, m[0], m[1], m[2]);
    }
    printf("%s total=%lld first=%lld\n", names[k], tot, first);
  }
  half *ga, *gb;
  float *gc;
  cudaMalloc(&ga, GN * GN * sizeof(half));
  cudaMalloc(&gb, GN * GN * sizeof(half));
  cudaMalloc(&gc, GN * GN * sizeof(float));
  cudaMemset(ga, 0x3c, GN * GN * sizeof(half));
  cudaMemset(gb, 0x3a, GN * GN * sizeof(half));
  for (int rep = 0; rep < (ncu ? 1 : 2); rep++) {
    cudaMemset(st, 0, 4 * MAXR * 3 * MAXW * sizeof(long long));
    if (!ncu) k_flush<<<264, 1024>>>(fl, nfl);
    cudaDeviceSynchronize();
    k_gemm<<<dim3(GN / 16, GN / 16), 32>>>(ga, gb, gc, st);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("k_gemm: %s\n", cudaGetErrorString(e));
      return 1;
    }
  }
  if (ncu) {
    printf("k_gemm ok\n");
    return 0;
  }
  cudaMemcpy(h, st, 16 * MAXW * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int j = 0; j < 5; j++) {
    long long m = 0;
    for (int b = 0; b < 16; b++) m = h[b * MAXW + j] > m ? h[b * MAXW + j] : m;
    printf("gemm step=%d t=%lld\n", j, m);
  }
  return 0;
}
