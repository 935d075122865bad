// launchcost.cu: a kernel's fixed cost on the H200 (issue 19, helper h200l; eighteenth round).
// The H100's launch family (../bench/launch.cu) measured it as the duration Nsight Compute gives an
// empty grid; this program repeats that method with more configurations and repeats, so the H200's
// figure is a median, not one 32-ns-quantised launch:
//   e_g1_bT     empty_k<<<1, T>>>, T = 32..1024 (one block, growing);
//   e_gN_b32    empty_k<<<N, 32>>>, N = 1..8448 (blocks, growing);
//   e_gN_b256 / e_g2112_b1024   the H100's launch family's grids;
//   s_gN_bT     store_k: thread 0 of each block stores one word (what a kernel's end waits for);
//   w_g1_b64    copy_k<<<1, 64>>>: 64 threads load and store one float each (the seed lessons' smallest
//               kernels, without their arithmetic).
// Each configuration prints one `cfg` line. Under Nsight Compute (BENCH_NCU=1) each is launched REPS
// times back to back with a synchronize between (ncu profiles each launch); otherwise its CUDA-event
// median over 21 launches and its back-to-back time per launch (100 launches between two events).
// Mode `host` adds the host-side figures: 1000 back-to-back empty launches, the host call alone, the
// launch+synchronize round trip, and a CUDA graph of 1000 empty kernels (the GPU's own gap between
// kernels without the host's).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

extern "C" __global__ void empty_k() {}
extern "C" __global__ void store_k(int *p) {
  if (threadIdx.x == 0) p[blockIdx.x] = blockIdx.x + 1;
}
extern "C" __global__ void copy_k(const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];
}

static const int REPS = 5;
static bool g_ncu = getenv("BENCH_NCU") != nullptr;

template <class F> static void measure(const char *name, const char *kernel, int grid, int block, F launch) {
  if (g_ncu) {
    for (int r = 0; r < REPS; r++) { launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
    printf("cfg name=%s kernel=%s grid=%d block=%d reps=%d\n", name, kernel, grid, block, REPS);
    fflush(stdout);
    return;
  }
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  launch(); CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < 21; r++) {
    CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventRecord(a));
  for (int r = 0; r < 100; r++) launch();
  CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
  float bb; CK(cudaEventElapsedTime(&bb, a, b));
  printf("cfg name=%s kernel=%s grid=%d block=%d event_ms=%.5f event_min_ms=%.5f b2b_us=%.3f\n", name, kernel, grid,
         block, t[10], t[0], bb * 10);
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
}

int main(int argc, char **argv) {
  bool host = argc > 1 && strcmp(argv[1], "host") == 0;
  int *p; float *a, *b;
  CK(cudaMalloc(&p, 8448 * sizeof(int)));
  CK(cudaMalloc(&a, 64 * sizeof(float))); CK(cudaMalloc(&b, 64 * sizeof(float)));
  CK(cudaMemset(a, 0, 64 * sizeof(float)));
  char name[64];
  for (int t : {32, 64, 128, 256, 512, 1024}) {
    snprintf(name, sizeof name, "e_g1_b%d", t);
    measure(name, "empty_k", 1, t, [&] { empty_k<<<1, t>>>(); });
  }
  for (int n : {2, 4, 8, 16, 33, 66, 132, 264, 528, 1056, 2112, 4224, 8448}) {
    snprintf(name, sizeof name, "e_g%d_b32", n);
    measure(name, "empty_k", n, 32, [&] { empty_k<<<n, 32>>>(); });
  }
  for (int n : {132, 2112, 8448}) {
    snprintf(name, sizeof name, "e_g%d_b256", n);
    measure(name, "empty_k", n, 256, [&] { empty_k<<<n, 256>>>(); });
  }
  measure("e_g2112_b1024", "empty_k", 2112, 1024, [&] { empty_k<<<2112, 1024>>>(); });
  int sg[][2] = {{1, 32}, {1, 1024}, {132, 32}, {2112, 256}};
  for (auto &c : sg) {
    snprintf(name, sizeof name, "s_g%d_b%d", c[0], c[1]);
    measure(name, "store_k", c[0], c[1], [&] { store_k<<<c[0], c[1]>>>(p); });
  }
  measure("w_g1_b64", "copy_k", 1, 64, [&] { copy_k<<<1, 64>>>(a, b); });
  if (host) {
    for (int rep = 0; rep < 3; rep++) {
      cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
      CK(cudaEventRecord(e0));
      for (int i = 0; i < 1000; i++) empty_k<<<1, 32>>>();
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      printf("host kind=back_to_back grid=1 block=32 count=1000 us_per_launch=%.3f\n", ms);
    }
    {
      std::vector<double> t;
      for (int i = 0; i < 201; i++) {
        auto s = std::chrono::steady_clock::now();
        empty_k<<<1, 32>>>(); CK(cudaDeviceSynchronize());
        t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count());
      }
      std::sort(t.begin(), t.end());
      printf("host kind=host_roundtrip grid=1 block=32 median_us=%.3f min_us=%.3f\n", t[100], t[0]);
    }
    {
      auto s = std::chrono::steady_clock::now();
      for (int i = 0; i < 1000; i++) empty_k<<<1, 32>>>();
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count();
      CK(cudaDeviceSynchronize());
      printf("host kind=host_call grid=1 block=32 us_per_call=%.3f\n", us / 1000);
    }
    for (int g : {1, 132, 2112}) {
      cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
      cudaGraph_t gr; cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      for (int i = 0; i < 1000; i++) empty_k<<<g, 32, 0, st>>>();
      CK(cudaStreamEndCapture(st, &gr));
      CK(cudaGraphInstantiate(&ge, gr, 0));
      CK(cudaGraphLaunch(ge, st)); CK(cudaStreamSynchronize(st));
      cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
      for (int rep = 0; rep < 3; rep++) {
        CK(cudaEventRecord(e0, st)); CK(cudaGraphLaunch(ge, st)); CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        printf("host kind=graph grid=%d block=32 count=1000 us_per_kernel=%.3f\n", g, ms);
      }
    }
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
