// What one grid.sync() costs: a cooperative grid of 132 blocks of 256
// threads runs a loop of N grid barriers, timed with events, for N = 0 and
// N = 1000 (or $N); the difference over N is the time of one. The timing
// model's grid barrier cost is calibrated on it (TestGridSyncTime).
#include "../check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void loop(int n, int *sink) {
  cg::grid_group g = cg::this_grid();
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += i ^ threadIdx.x;
    g.sync();
  }
  if (acc == 12345678) sink[0] = acc;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int *sink;
  CHECK(cudaMalloc(&sink, sizeof(int)));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float ms[2];
  int counts[2] = {0, 1000};
  if (getenv("N")) counts[1] = atoi(getenv("N"));
  for (int rep = 0; rep < 2; rep++) {  // the first pass warms up
    for (int k = 0; k < 2; k++) {
      int n = counts[k];
      void *args[] = {&n, &sink};
      CHECK(cudaEventRecord(a));
      CHECK(cudaLaunchCooperativeKernel((void *)loop, dim3(sms), dim3(256), args, 0, 0));
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      CHECK(cudaEventElapsedTime(&ms[k], a, b));
    }
  }
  printf("%d blocks of 256: 0 syncs %.3f ms, %d syncs %.3f ms, one grid.sync() %.3f us\n", sms, ms[0], counts[1], ms[1],
         (ms[1] - ms[0]) * 1000.0f / counts[1]);
  return 0;
}
