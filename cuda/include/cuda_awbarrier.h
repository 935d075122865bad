/* warpsim: nvcuda::experimental::awbarrier, the arrive-wait barrier of
 * cuda_awbarrier.h, on the __mbarrier primitives. */
#ifndef __WARPSIM_CUDA_AWBARRIER_H__
#define __WARPSIM_CUDA_AWBARRIER_H__
#include "cuda_awbarrier_primitives.h"

#if defined(__cplusplus)
namespace nvcuda {
namespace experimental {
class awbarrier {
 public:
  class arrival_token {
   public:
    __device__ arrival_token() : t_(0) {}
    __device__ explicit arrival_token(__mbarrier_token_t t) : t_(t) {}
    __device__ uint32_t pending_count() const { return __mbarrier_token_pending_count(t_); }
    __mbarrier_token_t t_;
  };
  __device__ arrival_token arrive() { return arrival_token(__mbarrier_arrive(&bar_)); }
  __device__ arrival_token arrive_and_drop() { return arrival_token(__mbarrier_arrive_and_drop(&bar_)); }
  __device__ bool timed_wait(arrival_token t, uint32_t hint_cycles) {
    (void)hint_cycles;
    return __mbarrier_test_wait(&bar_, t.t_);
  }
  __device__ void wait(arrival_token t) {
    while (!__mbarrier_test_wait(&bar_, t.t_)) {
    }
  }
  __device__ void arrive_and_wait() { wait(arrive()); }
  __device__ static uint32_t max() { return __mbarrier_maximum_count(); }
  __mbarrier_t bar_;
};
__device__ inline void init(awbarrier *bar, uint32_t expected_count) { __mbarrier_init(&bar->bar_, expected_count); }
__device__ inline void inval(awbarrier *bar) { __mbarrier_inval(&bar->bar_); }
}  // namespace experimental
}  // namespace nvcuda
#endif
#endif
