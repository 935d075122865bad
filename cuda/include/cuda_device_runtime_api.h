/* warpsim: the CUDA device runtime's declarations for device code (dynamic
 * parallelism, -rdc=true). cuda_runtime_api.h declares the runtime calls
 * kernels may make (__host__ __device__): cudaDeviceSynchronize (CDP1: sm_35
 * to sm_80 only; a module calling it from the device fails to load on sm_90
 * and later with cudaErrorUnsupportedDevSideSync), cudaGetLastError,
 * cudaPeekAtLastError, cudaStreamCreateWithFlags (cudaStreamNonBlocking),
 * cudaStreamDestroy, cudaEventCreateWithFlags (cudaEventDisableTiming),
 * cudaEventRecord, cudaStreamWaitEvent, cudaEventDestroy. This file adds the
 * launch entry points nvcc's CDP1 code calls and CUDA 12's special streams. */
#ifndef __WARPSIM_CUDA_DEVICE_RUNTIME_API_H__
#define __WARPSIM_CUDA_DEVICE_RUNTIME_API_H__
#include "cuda_runtime_api.h"

/* CUDA 12 (CDP2): launches into these streams wait for nothing; a tail launch
 * runs when the launching grid completes. */
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)

/* A conditional graph node's handle is the device address of the word that
 * holds its value (cuda/shim/warpsim_rt_graphs.c reads it when the launch
 * reaches the node). */
__WARPSIM_DI__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) {
  *(volatile unsigned int *)handle = value;
}

#ifdef __cplusplus
extern "C" {
#endif
/* Launch by parameter buffer, as nvcc lowers kernel<<<…>>> in device code. */
__device__ void *cudaGetParameterBufferV2(void *func, dim3 gridDimension, dim3 blockDimension, unsigned int sharedMemSize);
__device__ cudaError_t cudaLaunchDeviceV2(void *parameterBuffer, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif
