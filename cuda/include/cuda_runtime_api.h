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
__WARPSIM_H cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
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
__WARPSIM_HD cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__WARPSIM_HD cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__WARPSIM_H cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset __WARPSIM_DEFAULT(0), enum cudaMemcpyKind kind __WARPSIM_DEFAULT(cudaMemcpyHostToDevice));
__WARPSIM_H cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __WARPSIM_DEFAULT(0), enum cudaMemcpyKind kind __WARPSIM_DEFAULT(cudaMemcpyDeviceToHost));
__WARPSIM_H cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__WARPSIM_H cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Streams and events. Work is asynchronous: launches, async copies and
 * memsets, event records and host functions are queued on their stream and
 * the call returns at once. Each stream runs in issue order. */
__WARPSIM_H cudaError_t cudaStreamCreate(cudaStream_t *pStream);
__WARPSIM_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
__WARPSIM_H cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
__WARPSIM_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
__WARPSIM_H cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__WARPSIM_H cudaError_t cudaStreamQuery(cudaStream_t stream);
__WARPSIM_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags __WARPSIM_DEFAULT(0));
/* Host functions and callbacks run on a runtime thread, in stream order.
 * They must not call the CUDA API (as in CUDA). */
__WARPSIM_H cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
__WARPSIM_H cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);
/* Stream-ordered allocation: allocates when issued, frees in stream order. */
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
__WARPSIM_H cudaError_t cudaFuncGetName(const char **name, const void *func);
__WARPSIM_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__WARPSIM_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);

/* ---- The runtime's further API: host memory, copies, graphs, pools ---- */
#ifndef __DRIVER_TYPES_H__
/* Defined here unless the headers' compatibility names define them. */
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
#endif
#ifndef cudaHostRegisterMapped
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#endif
#ifndef cudaDeviceBlockingSync
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceMask 0xff
#endif
#ifndef cudaMemAttachSingle
#define cudaMemAttachSingle 0x04
#endif
#ifndef CUDART_CB
#define CUDART_CB
#endif
__WARPSIM_H cudaError_t cudaGetDeviceFlags(unsigned int *flags);
__WARPSIM_H cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
__WARPSIM_H cudaError_t cudaSetValidDevices(int *deviceArr, int len);
__WARPSIM_H cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__WARPSIM_H cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
__WARPSIM_H cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
__WARPSIM_H cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
__WARPSIM_H cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__WARPSIM_H cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
__WARPSIM_H cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
__WARPSIM_H cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
__WARPSIM_H cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__WARPSIM_H cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_HD cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
__WARPSIM_H cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
__WARPSIM_H cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length __WARPSIM_DEFAULT(0), unsigned int flags __WARPSIM_DEFAULT(cudaMemAttachSingle));
__WARPSIM_H cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, int attribute, const void *devPtr, size_t count);
__WARPSIM_H cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, struct __warpsim_mem_location location, unsigned int flags, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct __warpsim_mem_location location);
__WARPSIM_H cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
__WARPSIM_H cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
__WARPSIM_H cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
__WARPSIM_H cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream __WARPSIM_DEFAULT(0), unsigned int flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize);

/* Stream and launch attributes. */
__WARPSIM_H cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, enum cudaLaunchAttributeID attr, const union cudaLaunchAttributeValue *value);
__WARPSIM_H cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, enum cudaLaunchAttributeID attr, union cudaLaunchAttributeValue *value_out);
__WARPSIM_H cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
__WARPSIM_H cudaError_t cudaCtxResetPersistingL2Cache(void);
__WARPSIM_H cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
__WARPSIM_H cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func, const cudaLaunchConfig_t *config);
__WARPSIM_H cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func, const cudaLaunchConfig_t *config);

/* Stream capture and graphs: a graph replays as ordinary stream work. */
__WARPSIM_H cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
__WARPSIM_H cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
__WARPSIM_H cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies, const struct cudaGraphEdgeData *dependencyData, size_t numDependencies, enum cudaStreamCaptureMode mode);
/* CUDA 12's form; CUDA 13's (with edge data) is the C++ overload below. */
__WARPSIM_H cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *dependencies, const struct cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
__WARPSIM_H cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out __WARPSIM_DEFAULT(0), cudaGraph_t *graph_out __WARPSIM_DEFAULT(0), const cudaGraphNode_t **dependencies_out __WARPSIM_DEFAULT(0), size_t *numDependencies_out __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
__WARPSIM_H cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__WARPSIM_H cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
__WARPSIM_H cudaError_t cudaGraphDestroy(cudaGraph_t graph);
__WARPSIM_H cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams);
__WARPSIM_H cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__WARPSIM_H cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaMemsetParams *pMemsetParams);
__WARPSIM_H cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, const struct cudaHostNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaGraph_t childGraph);
__WARPSIM_H cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies);
__WARPSIM_H cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
__WARPSIM_H cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
__WARPSIM_H cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams);
__WARPSIM_H cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr);
__WARPSIM_H cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies);
__WARPSIM_H cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t numDependencies);
__WARPSIM_H cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, size_t *numEdges);
__WARPSIM_H cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, size_t *pNumDependentNodes);
/* CUDA 12.3's edge-data forms; CUDA 13 gives them the plain names (the C++
 * overloads below take both). Only default edges (all zero) are supported. */
__WARPSIM_H cudaError_t cudaGraphAddDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const struct cudaGraphEdgeData *edgeData, size_t numDependencies);
__WARPSIM_H cudaError_t cudaGraphRemoveDependencies_v2(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const struct cudaGraphEdgeData *edgeData, size_t numDependencies);
__WARPSIM_H cudaError_t cudaGraphGetEdges_v2(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, struct cudaGraphEdgeData *edgeData, size_t *numEdges);
__WARPSIM_H cudaError_t cudaGraphNodeGetDependencies_v2(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, struct cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
__WARPSIM_H cudaError_t cudaGraphNodeGetDependentNodes_v2(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, struct cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
/* CUDA 13's cudaGraphAddNode (12.3's cudaGraphAddNode_v2; the C++ overload
 * below takes 12.x's form without edge data) and conditional handles. */
__WARPSIM_H cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const struct cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams);
__WARPSIM_H cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const struct cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams);
__WARPSIM_H cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph, unsigned int defaultLaunchValue __WARPSIM_DEFAULT(0), unsigned int flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
__WARPSIM_H cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
__WARPSIM_H cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
__WARPSIM_H cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, size_t *pNumDependencies);
__WARPSIM_H cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__WARPSIM_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph);
__WARPSIM_H cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
__WARPSIM_H cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
__WARPSIM_H cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__WARPSIM_H cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, struct cudaGraphExecUpdateResultInfo *resultInfo);
__WARPSIM_H cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__WARPSIM_H cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
__WARPSIM_H cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
__WARPSIM_H cudaError_t cudaDeviceGraphMemTrim(int device);

/* Stream-ordered allocation and memory pools. */
__WARPSIM_H cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
__WARPSIM_H cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
__WARPSIM_H cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
__WARPSIM_H cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
__WARPSIM_H cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
__WARPSIM_H cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
__WARPSIM_H cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__WARPSIM_H cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
__WARPSIM_H cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
__WARPSIM_H cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count);
__WARPSIM_H cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool, struct cudaMemLocation *location);
__WARPSIM_H cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool, enum cudaMemAllocationHandleType handleType, unsigned int flags);
__WARPSIM_H cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle, enum cudaMemAllocationHandleType handleType, unsigned int flags);
__WARPSIM_H cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr);
__WARPSIM_H cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData);

/* CUDA IPC (warpsim_rt_ipc.c: within one process as the GPU answers; each
 * program has its own simulated GPU, so another process cannot map it). */
__WARPSIM_H cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
__WARPSIM_H cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
__WARPSIM_H cudaError_t cudaIpcCloseMemHandle(void *devPtr);
__WARPSIM_H cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
__WARPSIM_H cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);

#ifdef __cplusplus
} /* extern "C" */
/* The CUDA 12.2+ forms taking a cudaMemLocation, and CUDA 11's forms of
 * the graph calls whose signatures changed in CUDA 12. */
static __inline__ __host__ cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc, unsigned int flags, cudaStream_t stream = 0) {
  struct __warpsim_mem_location l = {(int)loc.type, loc.id};
  return cudaMemPrefetchAsync_v2(p, n, l, flags, stream);
}
static __inline__ __host__ cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise advice, struct cudaMemLocation loc) {
  struct __warpsim_mem_location l = {(int)loc.type, loc.id};
  return cudaMemAdvise_v2(p, n, advice, l);
}
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, cudaGraphNode_t *errorNode, char *log, size_t logSize) {
  if (errorNode) *errorNode = 0;
  if (log && logSize) log[0] = 0;
  return cudaGraphInstantiate(exec, graph, 0ull);
}
static __inline__ __host__ cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphNode_t *errorNode, enum cudaGraphExecUpdateResult *result) {
  struct cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(exec, graph, &info);
  if (errorNode) *errorNode = info.errorNode;
  if (result) *result = info.result;
  return e;
}
static __inline__ __host__ cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, struct cudaGraphNodeParams *params) {
  return cudaGraphAddNode(node, g, deps, (const struct cudaGraphEdgeData *)0, n, params);
}
static __inline__ __host__ cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const struct cudaGraphEdgeData *edges, size_t n) {
  return cudaGraphAddDependencies_v2(g, from, to, edges, n);
}
static __inline__ __host__ cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const struct cudaGraphEdgeData *edges, size_t n) {
  return cudaGraphRemoveDependencies_v2(g, from, to, edges, n);
}
static __inline__ __host__ cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t *from, cudaGraphNode_t *to, struct cudaGraphEdgeData *edges, size_t *n) {
  return cudaGraphGetEdges_v2(g, from, to, edges, n);
}
static __inline__ __host__ cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps, struct cudaGraphEdgeData *edges, size_t *n) {
  return cudaGraphNodeGetDependencies_v2(node, deps, edges, n);
}
static __inline__ __host__ cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *out, struct cudaGraphEdgeData *edges, size_t *n) {
  return cudaGraphNodeGetDependentNodes_v2(node, out, edges, n);
}
static __inline__ __host__ cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps, const struct cudaGraphEdgeData *edges, size_t n, unsigned int flags) {
  return cudaStreamUpdateCaptureDependencies_v2(s, deps, edges, n, flags);
}
static __inline__ __host__ cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, enum cudaStreamCaptureStatus *status, unsigned long long *id, cudaGraph_t *graph, const cudaGraphNode_t **deps, const struct cudaGraphEdgeData **edges, size_t *n) {
  if (edges) *edges = 0;
  return cudaStreamGetCaptureInfo(s, status, id, graph, deps, n);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **p, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)p, size, pool, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args, size_t smem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, grid, block, args, smem, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *n, T func, int numBlocks, int blockSize) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(n, (const void *)func, numBlocks, blockSize);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(T **p, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)p, size, pool, stream);
}
extern "C" {
#endif

/* Profiler control (cuda_profiler_api.h): accepted, no effect. */
__WARPSIM_H cudaError_t cudaProfilerStart(void);
__WARPSIM_H cudaError_t cudaProfilerStop(void);

/* Driver entry points: the address of a driver API function warpsim's
 * runtime implements (cuda.h), by its base name ("cuTensorMapEncodeTiled").
 * A name it lacks gives cudaSuccess, a null pointer and
 * cudaDriverEntryPointSymbolNotFound, as CUDA does for an unknown symbol
 * (the enum and flags are in driver_types.h). */
__WARPSIM_H cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                                enum cudaDriverEntryPointQueryResult *driverStatus __WARPSIM_DEFAULT(0));
__WARPSIM_H cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                         unsigned long long flags,
                                                         enum cudaDriverEntryPointQueryResult *driverStatus __WARPSIM_DEFAULT(0));

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
#ifdef __cplusplus
}
#endif
/* --- end of compatibility names (headers helper) --- */

/* CUDA arrays, texture and surface objects. */
#include "__warpsim_texture_api.h"

#endif
