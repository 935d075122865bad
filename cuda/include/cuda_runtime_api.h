/* warpsim: the CUDA runtime API's C declarations. The warpsim runtime
 * (linked by `warpsim cc`) implements them on the simulator. Functions the
 * CUDA device runtime also offers to kernels are __host__ __device__. */
#ifndef __WARPSIM_CUDA_RUNTIME_API_H__
#define __WARPSIM_CUDA_RUNTIME_API_H__
#include "driver_types.h"

#ifdef __cplusplus
#define __WARPSIM_DEFAULT(v) = v
extern "C" {
#else
#define __WARPSIM_DEFAULT(v)
#endif

#define __WARPSIM_HD __host__ __device__
#define __WARPSIM_H __host__

/* Device management. */
__WARPSIM_H cudaError_t cudaGetDeviceCount(int *count);
__WARPSIM_HD cudaError_t cudaGetDevice(int *device);
__WARPSIM_H cudaError_t cudaSetDevice(int device);
__WARPSIM_H cudaError_t cudaSetDeviceFlags(unsigned int flags);
__WARPSIM_H cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__WARPSIM_HD cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__WARPSIM_HD cudaError_t cudaDeviceSynchronize(void);
__WARPSIM_H cudaError_t cudaDeviceReset(void);
__WARPSIM_H cudaError_t cudaThreadSynchronize(void);
__WARPSIM_H cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__WARPSIM_H cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
__WARPSIM_H cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
__WARPSIM_H cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__WARPSIM_H cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
__WARPSIM_H cudaError_t cudaDriverGetVersion(int *driverVersion);
__WARPSIM_H cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__WARPSIM_H cudaError_t cudaMemGetInfo(size_t *free, size_t *total);

/* Errors. */
__WARPSIM_HD cudaError_t cudaGetLastError(void);
__WARPSIM_HD cudaError_t cudaPeekAtLastError(void);
__WARPSIM_HD const char *cudaGetErrorString(cudaError_t error);
__WARPSIM_HD const char *cudaGetErrorName(cudaError_t error);

/* Memory. */
__WARPSIM_HD cudaError_t cudaMalloc(void **devPtr, size_t size);
__WARPSIM_HD cudaError_t cudaFree(void *devPtr);
__WARPSIM_H cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__WARPSIM_H cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags __WARPSIM_DEFAULT(cudaMemAttachGlobal));
__WARPSIM_H cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);
__WARPSIM_H cudaError_t cudaMallocHost(void **ptr, size_t size);
__WARPSIM_H cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
__WARPSIM_H cudaError_t cudaFreeHost(void *ptr);
__WARPSIM_H cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__WARPSIM_H cudaError_t cudaHostUnregister(void *ptr);
__WARPSIM_H cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
__WARPSIM_H cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
__WARPSIM_H cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__WARPSIM_HD cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__WARPSIM_H cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__WARPSIM_HD cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__WARPSIM_H cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset __WARPSIM_DEFAULT(0), enum cudaMemcpyKind kind __WARPSIM_DEFAULT(cudaMemcpyHostToDevice));
__WARPSIM_H cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __WARPSIM_DEFAULT(0), enum cudaMemcpyKind kind __WARPSIM_DEFAULT(cudaMemcpyDeviceToHost));
__WARPSIM_H cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__WARPSIM_H cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Streams and events. Work on every stream runs in issue order. */
__WARPSIM_H cudaError_t cudaStreamCreate(cudaStream_t *pStream);
__WARPSIM_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
__WARPSIM_H cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
__WARPSIM_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
__WARPSIM_H cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__WARPSIM_H cudaError_t cudaStreamQuery(cudaStream_t stream);
__WARPSIM_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags __WARPSIM_DEFAULT(0));
/* Host functions and callbacks run when issued: the stream's earlier work
 * has completed by then. They must not call the CUDA API (as in CUDA). */
__WARPSIM_H cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
__WARPSIM_H cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);
/* Stream-ordered allocation: allocates and frees when issued. */
__WARPSIM_H cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaEventCreate(cudaEvent_t *event);
__WARPSIM_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__WARPSIM_HD cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaEventSynchronize(cudaEvent_t event);
__WARPSIM_H cudaError_t cudaEventQuery(cudaEvent_t event);
__WARPSIM_H cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__WARPSIM_HD cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Kernels. */
__WARPSIM_H cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
__WARPSIM_HD cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__WARPSIM_H cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
__WARPSIM_H cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__WARPSIM_H cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
__WARPSIM_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__WARPSIM_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);

/* Profiler control (cuda_profiler_api.h): accepted, no effect. */
__WARPSIM_H cudaError_t cudaProfilerStart(void);
__WARPSIM_H cudaError_t cudaProfilerStop(void);

/* Device-side launches (dynamic parallelism, -rdc=true): clang-22 lowers
 * kernel<<<…>>> in device code to these two calls. */
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension, dim3 blockDimension, unsigned int sharedMemSize, cudaStream_t stream);

/* Called by clang's host code for kernel<<<grid, block, shmem, stream>>>. */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __WARPSIM_DEFAULT(0), void *stream __WARPSIM_DEFAULT(0));

#undef __WARPSIM_HD
#undef __WARPSIM_H
#ifdef __cplusplus
}
#endif
#undef __WARPSIM_DEFAULT
/* --- compatibility names (headers helper) --- */
/* NVIDIA's include guard, and the calling-convention macros of its headers. */
#define __CUDA_RUNTIME_API_H__
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDART_DEVICE
#define CUDART_DEVICE __device__
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* The cache and shared-memory bank configuration of the device: warpsim
 * answers what an H100 answers (no preference, 4-byte banks). */
__host__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__host__ cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
/* The texture and surface object API (texture_types.h): declared so code
 * that names it compiles; warpsim's runtime does not offer it, so a program
 * that calls it does not link. */
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
__host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height
#ifdef __cplusplus
  = 0
#endif
  , unsigned int flags
#ifdef __cplusplus
  = 0
#endif
);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
#ifdef __cplusplus
}
#endif
/* --- end of compatibility names (headers helper) --- */

#endif
