/* warpsim: nvcuda::experimental::pipeline and memcpy_async of
 * cuda_pipeline.h, on the pipeline primitives (PTX cp.async). */
#ifndef __WARPSIM_CUDA_PIPELINE_H__
#define __WARPSIM_CUDA_PIPELINE_H__
#include "cuda_pipeline_primitives.h"
#include "cuda_awbarrier.h"

#if defined(__cplusplus)
namespace nvcuda {
namespace experimental {
class pipeline {
 public:
  __device__ pipeline() : current_(0) {}
  __device__ unsigned int commit() {
    __pipeline_commit();
    return current_++;
  }
  __device__ void commit_and_wait() {
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __device__ void wait(unsigned int batch) {
    unsigned prior = current_ - 1 - batch;
    __pipeline_wait_prior(current_ > batch ? prior : 0);
  }
  template <unsigned int N>
  __device__ void wait_prior() { __pipeline_wait_prior(N); }
  __device__ void arrive_on(awbarrier &bar) { __pipeline_arrive_on(&bar.bar_); }

 private:
  unsigned int current_;
};

/* Copies one T (4, 8 or 16 bytes, or a multiple) asynchronously. */
template <class T>
__device__ void memcpy_async(T &dst, const T &src, pipeline &pipe) {
  (void)pipe;
  const size_t n = sizeof(T);
  char *d = (char *)&dst;
  const char *s = (const char *)&src;
  if (n % 16 == 0) {
    for (size_t i = 0; i < n; i += 16) __pipeline_memcpy_async(d + i, s + i, 16);
  } else if (n % 8 == 0) {
    for (size_t i = 0; i < n; i += 8) __pipeline_memcpy_async(d + i, s + i, 8);
  } else {
    for (size_t i = 0; i < n; i += 4) __pipeline_memcpy_async(d + i, s + i, 4);
  }
}
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T *dst, const T *src, pipeline &pipe) {
  for (size_t i = 0; i < (DstN < SrcN ? DstN : SrcN); i++) memcpy_async(dst[i], src[i], pipe);
}
}  // namespace experimental
}  // namespace nvcuda
#endif
#endif
