// Launch overhead: an empty kernel launched back to back (events around 1000 launches), single
// launches (median of event pairs), the host round trip launch+synchronize (std::chrono), and grids
// of 132*N blocks. stamp_k records %globaltimer at each block's start to show block dispatch.
// Usage: launch [full|sim]. Output lines start with `launch`.
#include "bench.h"

extern "C" __global__ void empty_k() {}
extern "C" __global__ void stamp_k(unsigned long long *t) {
  if (threadIdx.x == 0) { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); t[blockIdx.x] = g; }
}

static float b2b(int grid, int block, int count) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  empty_k<<<grid, block>>>(); CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(a));
  for (int i = 0; i < count; i++) empty_k<<<grid, block>>>();
  CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
  float ms; CK(cudaEventElapsedTime(&ms, a, b)); return ms;
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  if (!g_full) {
    // sim configurations: one launch each
    int cfg[][2] = {{1, 32}, {sms, 256}, {sms * 16, 256}, {sms * 64, 256}, {sms * 16, 1024}};
    for (auto &c : cfg) {
      float ms = time_median([&] { empty_k<<<c[0], c[1]>>>(); });
      printf("launch kind=single grid=%d block=%d event_ms=%.5f\n", c[0], c[1], ms);
    }
    return 0;
  }
  for (int rep = 0; rep < 3; rep++) {
    float ms = b2b(1, 32, 1000);
    printf("launch kind=back_to_back grid=1 block=32 count=1000 total_ms=%.4f us_per_launch=%.3f\n", ms, ms);
  }
  {  // host round trip
    std::vector<double> t;
    for (int i = 0; i < 201; i++) {
      auto s = std::chrono::steady_clock::now();
      empty_k<<<1, 32>>>(); CK(cudaDeviceSynchronize());
      t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count());
    }
    std::sort(t.begin(), t.end());
    printf("launch kind=host_roundtrip grid=1 block=32 median_us=%.3f min_us=%.3f\n", t[100], t[0]);
  }
  {  // launch call cost on the host alone
    auto s = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; i++) empty_k<<<1, 32>>>();
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count();
    CK(cudaDeviceSynchronize());
    printf("launch kind=host_call grid=1 block=32 us_per_call=%.3f\n", us / 1000);
  }
  for (int block : {32, 256, 1024})
    for (int N : {1, 2, 4, 8, 16, 32, 64, 128, 512}) {
      int grid = sms * N;
      float one = time_median([&] { empty_k<<<grid, block>>>(); });
      float bb = b2b(grid, block, 100);
      printf("launch kind=grid grid=%d block=%d blocks_per_sm=%d single_event_ms=%.5f back_to_back_us=%.3f\n", grid, block, N, one, bb * 10);
    }
  {  // block dispatch: start times of the blocks of one launch
    unsigned long long *t; int grid = sms * 64; CK(cudaMalloc(&t, grid * 8));
    for (int block : {32, 256, 1024}) {
      stamp_k<<<grid, block>>>(t); CK(cudaDeviceSynchronize());
      stamp_k<<<grid, block>>>(t); CK(cudaDeviceSynchronize());
      std::vector<unsigned long long> h(grid); CK(cudaMemcpy(h.data(), t, grid * 8, cudaMemcpyDeviceToHost));
      std::sort(h.begin(), h.end());
      printf("launch kind=block_starts grid=%d block=%d span_ns=%llu first_wave_span_ns=%llu p50_ns=%llu\n", grid, block,
             h[grid - 1] - h[0], h[sms - 1] - h[0], h[grid / 2] - h[0]);
    }
  }
  return 0;
}
