// The driver's limit on a cooperative grid: at most the occupancy
// calculator's active blocks per SM times the SM count. One block more is
// cudaErrorCooperativeLaunchTooLarge (not sticky); the largest grid runs,
// and grid.sync() there sees every block's arrival.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Every block adds one before the barrier; after it every block must see
// the grid's block count.
__global__ void count(unsigned *arrived, unsigned *wrong) {
  extern __shared__ char pad[];
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x == 0) { pad[0] = 1; atomicAdd(arrived, 1u); }
  g.sync();
  if (threadIdx.x == 0 && atomicAdd(arrived, 0u) != g.num_blocks()) atomicAdd(wrong, 1u);
}

static void report(const char *what, cudaError_t e) {
  printf("%s: %d %s (%s)\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main() {
  int sms = 0, perSM = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // 40 KiB of dynamic shared memory per block: five blocks fit an H100 SM.
  const int threads = 256;
  const size_t shmem = 40 * 1024;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, count, threads, shmem));
  printf("blocks per SM %d, SMs %d, largest cooperative grid %d\n", perSM, sms, perSM * sms);
  unsigned *arrived, *wrong;
  CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  CHECK(cudaMalloc(&wrong, sizeof(unsigned)));
  CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
  CHECK(cudaMemset(wrong, 0, sizeof(unsigned)));
  void *args[] = {&arrived, &wrong};

  cudaError_t e = cudaLaunchCooperativeKernel((void *)count, dim3(perSM * sms + 1), dim3(threads), args, shmem, 0);
  report("one block too many", e);
  report("cudaGetLastError", cudaGetLastError());
  report("then", cudaGetLastError());
  e = cudaLaunchCooperativeKernel((void *)count, dim3(sms, perSM + 1), dim3(threads), args, shmem, 0);
  report("2D grid too large", e);
  cudaGetLastError();
  e = cudaLaunchCooperativeKernel((void *)count, dim3(perSM * sms), dim3(threads), args, shmem * 6, 0);
  report("more shared memory than an SM has", e);
  cudaGetLastError();
  e = cudaLaunchCooperativeKernel((void *)count, dim3(1), dim3(2048), args, 0, 0);
  report("block of 2048 threads", e);
  cudaGetLastError();

  e = cudaLaunchCooperativeKernel((void *)count, dim3(perSM * sms), dim3(threads), args, shmem, 0);
  report("largest grid", e);
  CHECK(cudaDeviceSynchronize());
  unsigned a = 0, w = 0;
  CHECK(cudaMemcpy(&a, arrived, sizeof a, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&w, wrong, sizeof w, cudaMemcpyDeviceToHost));
  printf("arrived %u, blocks that saw a wrong count %u\n", a, w);
  bool ok = a == (unsigned)(perSM * sms) && w == 0;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
