// Shared by the barrier-misuse probes: run one launch, report how it ended.
// A launch still running after 8 s is reported as HANG (a deadlock) and the
// program ends (the driver then tears the context down).
#include <chrono>
#include <cstdio>
#include <unistd.h>
static void waitLaunch(const char *what) {
  auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    cudaError_t e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady) {
      printf("%s -> %s\n", what, cudaGetErrorName(e));
      return;
    }
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(8)) {
      printf("%s -> HANG\n", what);
      fflush(stdout);
      _exit(0);
    }
    usleep(1000);
  }
}
__device__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
