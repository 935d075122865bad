// Shared helpers of the warpsim H100 calibration microbenchmarks (testdata/timing/bench).
// Every program prints one line per configuration: `name key=value ...`.
// Mode "full" runs every configuration; mode "sim" only those that have a warpsim launch file
// (same kernel, grid, block, dynamic shared memory and arguments). With BENCH_NCU=1 in the
// environment each configuration launches its measured kernel exactly once (for ncu); kernels whose
// name starts with init_ are setup, never measured.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

static bool g_ncu = getenv("BENCH_NCU") != nullptr;
static bool g_full = true;
static void bench_mode(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "sim") == 0) g_full = false;
}
// time_median runs prep() then launch() once as warm-up, then 10 times, each launch timed with CUDA
// events, and returns the median in milliseconds. Under ncu (BENCH_NCU) it launches once and returns 0.
template <class P, class F> static float time_median(P prep, F launch, int reps = 10) {
  // under ncu prep() (input restore) is skipped: it would add profiled kernels, and ncu restores
  // memory between its replays anyway; timing of these kernels does not depend on the values.
  if (g_ncu) { launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); return 0; }
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  prep(); launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    prep(); CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
  }
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return (t[(reps - 1) / 2] + t[reps / 2]) / 2;
}
template <class F> static float time_median(F launch, int reps = 10) { return time_median([] {}, launch, reps); }

static int num_sms() { int n; CK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0)); return n; }
// smem_for_resident gives the dynamic shared memory per block that leaves room for exactly R
// resident blocks per SM (H100: 233472 B per SM, 1024 B reserved per block, 128 B granularity).
static int smem_for_resident(int R) {
  int per_sm, reserved, optin;
  CK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  CK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0));
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  int s = per_sm / R - reserved; if (s > optin) s = optin; s &= ~127;
  if (s < 0) s = 0;
  return s;
}
template <class K> static void allow_smem(K k) {
  int optin; CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
}
template <class K> static int resident(K k, int block, int smem) {
  int n; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k, block, smem)); return n;
}
