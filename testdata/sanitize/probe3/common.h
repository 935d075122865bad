// Shared by the sanitizer suite: report a CUDA call's status on stdout.
#include <cstdio>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)
