/* warpsim: cuda.h. warpsim offers the runtime API, not the driver API;
 * this header gives programs that include <cuda.h> for CUDA_VERSION and the
 * common types what they look for. */
#ifndef __WARPSIM_CUDA_H__
#define __WARPSIM_CUDA_H__
#include "cuda_runtime.h"
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef unsigned long long CUdeviceptr;
#include "__warpsim_tensormap.h"
#endif
