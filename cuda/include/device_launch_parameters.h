/* warpsim: the built-in variables threadIdx, blockIdx, blockDim, gridDim and
 * warpSize. Each field read is a PTX special-register read (%tid.x …),
 * through clang's __nvvm_read_ptx_sreg_* builtins; the property declspec is
 * the shape clang's CUDA mode expects for these variables. */
#ifndef __WARPSIM_DEVICE_LAUNCH_PARAMETERS_H__
#define __WARPSIM_DEVICE_LAUNCH_PARAMETERS_H__
/* NVIDIA's include-guard name, which programs test. */
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include "vector_types.h"
#ifndef __WARPSIM_HOST_ONLY__

#define __WARPSIM_SREG(FIELD, READ)                                             \
  __declspec(property(get = __get_##FIELD)) unsigned int FIELD;                \
  static __device__ __forceinline__ unsigned int __get_##FIELD(void) { return READ(); }

#define __WARPSIM_NO_COPY(T)                                                    \
  __device__ T() = delete;                                                     \
  __device__ T(const T &) = delete;                                            \
  __device__ void operator=(const T &) const = delete;                         \
  __device__ T *operator&() const = delete

#define __WARPSIM_BUILTIN(T, X, Y, Z)                                           \
  struct T {                                                                   \
    __WARPSIM_SREG(x, X)                                                       \
    __WARPSIM_SREG(y, Y)                                                       \
    __WARPSIM_SREG(z, Z)                                                       \
    __device__ operator dim3() const { return dim3(x, y, z); }                 \
    __device__ operator uint3() const { return uint3{x, y, z}; }               \
  private:                                                                     \
    __WARPSIM_NO_COPY(T);                                                      \
  };

/* The type names are the ones clang's diagnostics know. */
__WARPSIM_BUILTIN(__cuda_builtin_threadIdx_t, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_tid_y, __nvvm_read_ptx_sreg_tid_z)
__WARPSIM_BUILTIN(__cuda_builtin_blockIdx_t, __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_ctaid_y, __nvvm_read_ptx_sreg_ctaid_z)
__WARPSIM_BUILTIN(__cuda_builtin_blockDim_t, __nvvm_read_ptx_sreg_ntid_x, __nvvm_read_ptx_sreg_ntid_y, __nvvm_read_ptx_sreg_ntid_z)
__WARPSIM_BUILTIN(__cuda_builtin_gridDim_t, __nvvm_read_ptx_sreg_nctaid_x, __nvvm_read_ptx_sreg_nctaid_y, __nvvm_read_ptx_sreg_nctaid_z)

extern const __device__ __attribute__((weak)) __cuda_builtin_threadIdx_t threadIdx;
extern const __device__ __attribute__((weak)) __cuda_builtin_blockIdx_t blockIdx;
extern const __device__ __attribute__((weak)) __cuda_builtin_blockDim_t blockDim;
extern const __device__ __attribute__((weak)) __cuda_builtin_gridDim_t gridDim;

/* Every NVIDIA architecture has 32 lanes per warp (PTX's WARP_SZ). */
__device__ const int warpSize = 32;

#undef __WARPSIM_SREG
#undef __WARPSIM_NO_COPY
#undef __WARPSIM_BUILTIN
#endif /* __WARPSIM_HOST_ONLY__ */
#endif
