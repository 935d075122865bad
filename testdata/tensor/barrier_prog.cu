// libcu++'s <cuda/barrier> and <cuda/pipeline> as a user writes them:
// a block-scope cuda::barrier completed by per-thread and whole-block
// cuda::memcpy_async, arrival tokens, arrive_and_drop; a multi-stage
// cuda::pipeline over pipeline_shared_state; a producer/consumer pipeline
// (pipeline_role); and a thread-scope pipeline with
// pipeline_consumer_wait_prior. Integer data, so the printed checksums are
// exact. Recorded on the H100 by run3.sh (out/barrier_prog.txt).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define N 256

// 1. Per-thread memcpy_async completing on a barrier, read after
//    arrive_and_wait; then tokens (arrive / wait) for a second phase.
__global__ void k_barrier(const int* in, int* out, int tiles) {
  __shared__ int buf[2][N];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const int* src = in + (size_t)blockIdx.x * tiles * N;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    int s = t & 1;
    cuda::memcpy_async(&buf[s][threadIdx.x], &src[t * N + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    acc += buf[s][(threadIdx.x * 7 + t) % N] * (t + 1);
    auto tok = bar.arrive();
    bar.wait(static_cast<block_barrier::arrival_token&&>(tok));
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

// 2. Whole-block memcpy_async of a tile (aligned_size_t) on a barrier; the
//    last warp leaves the barrier with arrive_and_drop after the first tile,
//    and the other threads copy the next tiles themselves.
__global__ void k_group(const int* in, int* out, int tiles) {
  __shared__ alignas(16) int buf[N];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const int* src = in + (size_t)blockIdx.x * tiles * N;
  int acc = 0;
  for (int t = 0; t < tiles; t++) {
    if (t == 0)
      cuda::memcpy_async(block, buf, src, cuda::aligned_size_t<16>(N * sizeof(int)), bar);
    else
      for (int i = threadIdx.x; i < N; i += N - 32) cuda::memcpy_async(&buf[i], &src[t * N + i], sizeof(int), bar);
    bar.arrive_and_wait();
    acc ^= buf[(threadIdx.x * 13 + 5 * t) % N] + t;
    if (t == 0 && threadIdx.x >= N - 32) {
      (void)bar.arrive_and_drop();
      break;
    }
    bar.arrive_and_wait();
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

// 3. A STAGES-deep block pipeline: every thread produces and consumes.
template <int STAGES>
__global__ void k_pipeline(const int* in, int* out, int tiles) {
  __shared__ alignas(16) int buf[STAGES][N];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> pss;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &pss);
  const int* src = in + (size_t)blockIdx.x * tiles * N;
  int fetch = 0, acc = 0;
  for (int t = 0; t < tiles; t++) {
    for (; fetch < tiles && fetch < t + STAGES; fetch++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % STAGES], src + fetch * N, cuda::aligned_size_t<16>(N * sizeof(int)), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc = acc * 3 + buf[t % STAGES][(threadIdx.x + 31 * t) % N];
    pipe.consumer_release();
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

// 4. Producer/consumer roles: warp 0 copies, the other warps consume.
__global__ void k_roles(const int* in, int* out, int tiles) {
  const int W = N - 32;  // consumer threads
  __shared__ alignas(16) int buf[2][W];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> pss;
  auto block = cg::this_thread_block();
  bool producer = threadIdx.x < 32;
  auto pipe = cuda::make_pipeline(block, &pss, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int* src = in + (size_t)blockIdx.x * tiles * W;
  if (producer) {
    for (int t = 0; t < tiles; t++) {
      pipe.producer_acquire();
      for (int i = threadIdx.x; i < W; i += 32) cuda::memcpy_async(&buf[t % 2][i], &src[t * W + i], sizeof(int), pipe);
      pipe.producer_commit();
    }
    out[blockIdx.x * N + threadIdx.x] = -1;
  } else {
    int c = threadIdx.x - 32, acc = 0;
    for (int t = 0; t < tiles; t++) {
      pipe.consumer_wait();
      acc += buf[t % 2][c] * (t + 1) + buf[t % 2][(c + 1) % W];
      pipe.consumer_release();
    }
    out[blockIdx.x * N + threadIdx.x] = acc;
  }
}

// 5. A thread-scope pipeline: each thread streams its own column, two
//    copies in flight, pipeline_consumer_wait_prior<1>.
__global__ void k_thread_pipe(const int* in, int* out, int tiles) {
  __shared__ int buf[2][N];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int* src = in + (size_t)blockIdx.x * tiles * N;
  int acc = 0;
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[0][threadIdx.x], &src[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  for (int t = 0; t < tiles; t++) {
    if (t + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[(t + 1) & 1][threadIdx.x], &src[(t + 1) * N + threadIdx.x], sizeof(int), pipe);
      pipe.producer_commit();
      cuda::pipeline_consumer_wait_prior<1>(pipe);
    } else {
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    }
    acc = acc * 5 - buf[t & 1][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

static unsigned long long sum(const int* h, int n) {
  unsigned long long s = 1469598103934665603ull;
  for (int i = 0; i < n; i++) s = (s ^ (unsigned)h[i]) * 1099511628211ull;
  return s;
}

int main() {
  const int blocks = 4, tiles = 6, total = blocks * tiles * N;
  int *hin = new int[total], *hout = new int[blocks * N];
  for (int i = 0; i < total; i++) hin[i] = (int)((i * 2654435761u) >> 7) % 1000 - 300;
  int *din, *dout;
  cudaMalloc(&din, total * sizeof(int));
  cudaMalloc(&dout, blocks * N * sizeof(int));
  cudaMemcpy(din, hin, total * sizeof(int), cudaMemcpyHostToDevice);
  const char* names[] = {"barrier", "group+drop", "pipeline2", "pipeline3", "roles", "thread_pipe"};
  for (int k = 0; k < 6; k++) {
    cudaMemset(dout, 0, blocks * N * sizeof(int));
    switch (k) {
      case 0: k_barrier<<<blocks, N>>>(din, dout, tiles); break;
      case 1: k_group<<<blocks, N>>>(din, dout, tiles); break;
      case 2: k_pipeline<2><<<blocks, N>>>(din, dout, tiles); break;
      case 3: k_pipeline<3><<<blocks, N>>>(din, dout, tiles); break;
      case 4: k_roles<<<blocks, N>>>(din, dout, tiles); break;
      case 5: k_thread_pipe<<<blocks, N>>>(din, dout, tiles); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("%s: %s\n", names[k], cudaGetErrorString(e));
      return 1;
    }
    cudaMemcpy(hout, dout, blocks * N * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%-12s checksum %016llx  out[0]=%d out[%d]=%d out[%d]=%d\n", names[k], sum(hout, blocks * N), hout[0], N + 37,
           hout[N + 37], blocks * N - 1, hout[blocks * N - 1]);
  }
  cudaFree(din);
  cudaFree(dout);
  delete[] hin;
  delete[] hout;
  return 0;
}
