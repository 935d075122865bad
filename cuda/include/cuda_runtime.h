/* warpsim: what a CUDA program includes. Everything nvcc's cuda_runtime.h
 * offers that warpsim supports: the runtime API, built-in variables, device
 * functions, the math library, and the C++ conveniences (typed cudaMalloc,
 * symbol copies, occupancy templates). `warpsim cc` force-includes it into
 * every .cu file, as nvcc does. */
#ifndef __WARPSIM_CUDA_RUNTIME_H__
#define __WARPSIM_CUDA_RUNTIME_H__
/* NVIDIA's include guard: code such as cuda-samples' helper_cuda.h tests it
 * to see whether the runtime API is there. */
#define __CUDA_RUNTIME_H__
#include "__warpsim_defines.h"
/* What nvcc's cuda_runtime.h makes visible through its common headers
 * (crt/common_functions.h, math_functions.h, driver_types.h): programs call
 * memset, memcpy, time, printf, exit, assert … without including them. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <assert.h>
#ifdef __cplusplus
#ifndef __WARPSIM_HOST_ONLY__
/* Device-side new and delete (clang's <new> wrapper) call malloc and free:
 * the device's must be declared first (device_functions.h declares them
 * again). */
extern "C" {
__device__ void *malloc(size_t) __attribute__((nothrow));
__device__ void free(void *) __attribute__((nothrow));
}
#endif
#include <new>
#endif
#include "vector_types.h"
#include "driver_types.h"
#include "texture_types.h"
#include "driver_functions.h"
#include "cuda_runtime_api.h"
#include "cuda_device_runtime_api.h"
#include "device_launch_parameters.h"
#include "device_functions.h"
#include "math_functions.h"

#if defined(__cplusplus) && !defined(__WARPSIM_HOST_ONLY__)
/* CUDA ≥ 11.6's device-runtime name for a device-side cudaDeviceSynchronize
 * (CUB calls it). */
static __inline__ __host__ __device__ cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void) { return cudaDeviceSynchronize(); }
#endif

#ifdef __cplusplus
/* cuda_runtime.h's C++ overload (simpleIPC calls it). */
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **p, size_t size) {
  return ::cudaMalloc((void **)(void *)p, size);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **p, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)p, size, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocHost(T **p, size_t size) {
  return ::cudaMallocHost((void **)(void *)p, size);
}
template <class T> static __inline__ __host__ cudaError_t cudaHostAlloc(T **p, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)p, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocManaged(T **p, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)p, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h) {
  return ::cudaMallocPitch((void **)(void *)p, pitch, w, h);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **p, const T &symbol) {
  return ::cudaGetSymbolAddress(p, (const void *)&symbol);
}
template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache c) {
  return ::cudaFuncSetCacheConfig((const void *)func, c);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T func, int blockSize, size_t smem) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)func, blockSize, smem);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, T func, int blockSize, size_t smem, unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, (const void *)func, blockSize, smem, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args, size_t smem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, grid, block, args, smem, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveClusters(int *n, T *func, const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxActiveClusters(n, (const void *)func, config);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialClusterSize(int *n, T *func, const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxPotentialClusterSize(n, (const void *)func, config);
}
/* cudaLaunchKernelEx: the arguments converted to the kernel's parameter
 * types, as CUDA's template does. */
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...), ActTypes &&...args) {
  return [&](ExpTypes... coerced) {
    void *pArgs[sizeof...(ExpTypes) + 1] = {(void *)&coerced...};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}
template <class T> static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0, unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncGetName(const char **name, T *func) {
  return ::cudaFuncGetName(name, (const void *)func);
}
template <class T> static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned int flags) {
  return ::cudaEventCreateWithFlags(e, flags);
}

/* The block size with the highest occupancy, searched as CUDA's template
 * does: every multiple of the warp size up to the limits, ties to the larger
 * block. blockSizeToDynamicSMemSize maps a block size to its dynamic
 * shared memory. */
template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  if (!minGridSize || !blockSize || !func) return cudaErrorInvalidValue;
  struct cudaFuncAttributes attr;
  cudaError_t err = ::cudaFuncGetAttributes(&attr, (const void *)func);
  if (err != cudaSuccess) return err;
  int dev = 0, sms = 0, maxPerSM = 0, maxPerBlock = 0, warp = 32;
  ::cudaGetDevice(&dev);
  ::cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  ::cudaDeviceGetAttribute(&maxPerSM, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  ::cudaDeviceGetAttribute(&maxPerBlock, cudaDevAttrMaxThreadsPerBlock, dev);
  ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  int limit = attr.maxThreadsPerBlock < maxPerBlock ? attr.maxThreadsPerBlock : maxPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
  int bestThreads = 0, bestSize = 0, bestBlocks = 0;
  for (int size = (limit / warp) * warp; size > 0; size -= warp) {
    int blocks = 0;
    err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)func, size, blockSizeToDynamicSMemSize(size));
    if (err != cudaSuccess) return err;
    if (blocks * size > bestThreads) { bestThreads = blocks * size; bestSize = size; bestBlocks = blocks; }
    if (bestThreads == maxPerSM) break;
  }
  *blockSize = bestSize;
  *minGridSize = bestBlocks * sms;
  return cudaSuccess;
}
/* The WithFlags forms: cudaOccupancyDefault (0) is the only flag that
 * changes nothing here; cudaOccupancyDisableCachingOverride (1) concerns the
 * L1 carveout of older GPUs and is accepted as CUDA's template passes it. */
template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0, unsigned int flags = 0) {
  if (flags > 1) return cudaErrorInvalidValue;
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit);
}
struct __warpsim_constant_smem { size_t n; __host__ size_t operator()(int) const { return n; } };
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(minGridSize, blockSize, func, __warpsim_constant_smem{dynamicSMemSize}, blockSizeLimit);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0, unsigned int flags = 0) {
  if (flags > 1) return cudaErrorInvalidValue;
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(minGridSize, blockSize, func, __warpsim_constant_smem{dynamicSMemSize}, blockSizeLimit);
}
#endif

#endif
