// check.h: the error check the cluster programs share.
#include <cstdio>
#include <cstdlib>
#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_),  \
             cudaGetErrorString(e_));                                      \
      exit(1);                                                             \
    }                                                                      \
  } while (0)
