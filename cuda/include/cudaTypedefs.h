/* warpsim: cudaTypedefs.h, the PFN_ function-pointer types of the driver
 * API functions warpsim's cuda.h offers, as programs declare what
 * cudaGetDriverEntryPoint(ByVersion) returns:
 *   PFN_cuTensorMapEncodeTiled_v12000 encode; cudaGetDriverEntryPointByVersion(
 *     "cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q);
 * Each is the type of a pointer to the function (typeof), named with the
 * CUDA version that introduced that signature, and without the version. */
#ifndef __WARPSIM_CUDA_TYPEDEFS_H__
#define __WARPSIM_CUDA_TYPEDEFS_H__
/* NVIDIA's include guard. */
#define CUDATYPEDEFS_H
#include "cuda.h"

typedef CUresult (*PFN_cuCtxCreate_v11040)(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                                                  CUdevice dev);
#define PFN_cuCtxCreate PFN_cuCtxCreate_v11040
typedef __typeof__(&cuInit) PFN_cuInit_v2000;
#define PFN_cuInit PFN_cuInit_v2000
typedef __typeof__(&cuDriverGetVersion) PFN_cuDriverGetVersion_v2020;
#define PFN_cuDriverGetVersion PFN_cuDriverGetVersion_v2020
typedef __typeof__(&cuGetErrorName) PFN_cuGetErrorName_v6000;
#define PFN_cuGetErrorName PFN_cuGetErrorName_v6000
typedef __typeof__(&cuGetErrorString) PFN_cuGetErrorString_v6000;
#define PFN_cuGetErrorString PFN_cuGetErrorString_v6000
typedef __typeof__(&cuDeviceGet) PFN_cuDeviceGet_v2000;
#define PFN_cuDeviceGet PFN_cuDeviceGet_v2000
typedef __typeof__(&cuDeviceGetCount) PFN_cuDeviceGetCount_v2000;
#define PFN_cuDeviceGetCount PFN_cuDeviceGetCount_v2000
typedef __typeof__(&cuDeviceGetName) PFN_cuDeviceGetName_v2000;
#define PFN_cuDeviceGetName PFN_cuDeviceGetName_v2000
typedef __typeof__(&cuDeviceGetAttribute) PFN_cuDeviceGetAttribute_v2000;
#define PFN_cuDeviceGetAttribute PFN_cuDeviceGetAttribute_v2000
typedef __typeof__(&cuDeviceTotalMem) PFN_cuDeviceTotalMem_v3020;
#define PFN_cuDeviceTotalMem PFN_cuDeviceTotalMem_v3020
typedef __typeof__(&cuDeviceComputeCapability) PFN_cuDeviceComputeCapability_v2000;
#define PFN_cuDeviceComputeCapability PFN_cuDeviceComputeCapability_v2000
typedef __typeof__(&cuDeviceCanAccessPeer) PFN_cuDeviceCanAccessPeer_v4000;
#define PFN_cuDeviceCanAccessPeer PFN_cuDeviceCanAccessPeer_v4000
typedef __typeof__(&cuDevicePrimaryCtxRetain) PFN_cuDevicePrimaryCtxRetain_v7000;
#define PFN_cuDevicePrimaryCtxRetain PFN_cuDevicePrimaryCtxRetain_v7000
typedef __typeof__(&cuDevicePrimaryCtxRelease) PFN_cuDevicePrimaryCtxRelease_v11000;
#define PFN_cuDevicePrimaryCtxRelease PFN_cuDevicePrimaryCtxRelease_v11000
typedef __typeof__(&cuCtxDestroy) PFN_cuCtxDestroy_v4000;
#define PFN_cuCtxDestroy PFN_cuCtxDestroy_v4000
typedef __typeof__(&cuCtxGetCurrent) PFN_cuCtxGetCurrent_v4000;
#define PFN_cuCtxGetCurrent PFN_cuCtxGetCurrent_v4000
typedef __typeof__(&cuCtxSetCurrent) PFN_cuCtxSetCurrent_v4000;
#define PFN_cuCtxSetCurrent PFN_cuCtxSetCurrent_v4000
typedef __typeof__(&cuCtxGetDevice) PFN_cuCtxGetDevice_v2000;
#define PFN_cuCtxGetDevice PFN_cuCtxGetDevice_v2000
typedef __typeof__(&cuCtxSynchronize) PFN_cuCtxSynchronize_v2000;
#define PFN_cuCtxSynchronize PFN_cuCtxSynchronize_v2000
typedef __typeof__(&cuCtxEnablePeerAccess) PFN_cuCtxEnablePeerAccess_v4000;
#define PFN_cuCtxEnablePeerAccess PFN_cuCtxEnablePeerAccess_v4000
typedef __typeof__(&cuStreamCreate) PFN_cuStreamCreate_v2000;
#define PFN_cuStreamCreate PFN_cuStreamCreate_v2000
typedef __typeof__(&cuStreamSynchronize) PFN_cuStreamSynchronize_v2000;
#define PFN_cuStreamSynchronize PFN_cuStreamSynchronize_v2000
typedef __typeof__(&cuStreamDestroy) PFN_cuStreamDestroy_v4000;
#define PFN_cuStreamDestroy PFN_cuStreamDestroy_v4000
typedef __typeof__(&cuOccupancyMaxActiveBlocksPerMultiprocessor) PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050;
#define PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050
typedef __typeof__(&cuMemGetInfo) PFN_cuMemGetInfo_v3020;
#define PFN_cuMemGetInfo PFN_cuMemGetInfo_v3020
typedef __typeof__(&cuMemAlloc) PFN_cuMemAlloc_v3020;
#define PFN_cuMemAlloc PFN_cuMemAlloc_v3020
typedef __typeof__(&cuMemFree) PFN_cuMemFree_v3020;
#define PFN_cuMemFree PFN_cuMemFree_v3020
typedef __typeof__(&cuMemcpyHtoD) PFN_cuMemcpyHtoD_v3020;
#define PFN_cuMemcpyHtoD PFN_cuMemcpyHtoD_v3020
typedef __typeof__(&cuMemcpyDtoH) PFN_cuMemcpyDtoH_v3020;
#define PFN_cuMemcpyDtoH PFN_cuMemcpyDtoH_v3020
typedef __typeof__(&cuMemcpyDtoD) PFN_cuMemcpyDtoD_v3020;
#define PFN_cuMemcpyDtoD PFN_cuMemcpyDtoD_v3020
typedef __typeof__(&cuMemcpyHtoDAsync) PFN_cuMemcpyHtoDAsync_v3020;
#define PFN_cuMemcpyHtoDAsync PFN_cuMemcpyHtoDAsync_v3020
typedef __typeof__(&cuMemcpyDtoHAsync) PFN_cuMemcpyDtoHAsync_v3020;
#define PFN_cuMemcpyDtoHAsync PFN_cuMemcpyDtoHAsync_v3020
typedef __typeof__(&cuMemsetD8) PFN_cuMemsetD8_v3020;
#define PFN_cuMemsetD8 PFN_cuMemsetD8_v3020
typedef __typeof__(&cuMemsetD32) PFN_cuMemsetD32_v3020;
#define PFN_cuMemsetD32 PFN_cuMemsetD32_v3020
typedef __typeof__(&cuModuleLoad) PFN_cuModuleLoad_v2000;
#define PFN_cuModuleLoad PFN_cuModuleLoad_v2000
typedef __typeof__(&cuModuleLoadData) PFN_cuModuleLoadData_v2000;
#define PFN_cuModuleLoadData PFN_cuModuleLoadData_v2000
typedef __typeof__(&cuModuleLoadDataEx) PFN_cuModuleLoadDataEx_v2010;
#define PFN_cuModuleLoadDataEx PFN_cuModuleLoadDataEx_v2010
typedef __typeof__(&cuModuleLoadFatBinary) PFN_cuModuleLoadFatBinary_v2000;
#define PFN_cuModuleLoadFatBinary PFN_cuModuleLoadFatBinary_v2000
typedef __typeof__(&cuModuleUnload) PFN_cuModuleUnload_v2000;
#define PFN_cuModuleUnload PFN_cuModuleUnload_v2000
typedef __typeof__(&cuModuleGetFunction) PFN_cuModuleGetFunction_v2000;
#define PFN_cuModuleGetFunction PFN_cuModuleGetFunction_v2000
typedef __typeof__(&cuModuleGetGlobal) PFN_cuModuleGetGlobal_v3020;
#define PFN_cuModuleGetGlobal PFN_cuModuleGetGlobal_v3020
typedef __typeof__(&cuLaunchKernel) PFN_cuLaunchKernel_v4000;
#define PFN_cuLaunchKernel PFN_cuLaunchKernel_v4000
typedef __typeof__(&cuGetProcAddress) PFN_cuGetProcAddress_v12000;
#define PFN_cuGetProcAddress PFN_cuGetProcAddress_v12000
typedef __typeof__(&cuMemGetAllocationGranularity) PFN_cuMemGetAllocationGranularity_v10020;
#define PFN_cuMemGetAllocationGranularity PFN_cuMemGetAllocationGranularity_v10020
typedef __typeof__(&cuMemCreate) PFN_cuMemCreate_v10020;
#define PFN_cuMemCreate PFN_cuMemCreate_v10020
typedef __typeof__(&cuMemRelease) PFN_cuMemRelease_v10020;
#define PFN_cuMemRelease PFN_cuMemRelease_v10020
typedef __typeof__(&cuMemAddressReserve) PFN_cuMemAddressReserve_v10020;
#define PFN_cuMemAddressReserve PFN_cuMemAddressReserve_v10020
typedef __typeof__(&cuMemAddressFree) PFN_cuMemAddressFree_v10020;
#define PFN_cuMemAddressFree PFN_cuMemAddressFree_v10020
typedef __typeof__(&cuMemMap) PFN_cuMemMap_v10020;
#define PFN_cuMemMap PFN_cuMemMap_v10020
typedef __typeof__(&cuMemUnmap) PFN_cuMemUnmap_v10020;
#define PFN_cuMemUnmap PFN_cuMemUnmap_v10020
typedef __typeof__(&cuMemSetAccess) PFN_cuMemSetAccess_v10020;
#define PFN_cuMemSetAccess PFN_cuMemSetAccess_v10020
typedef __typeof__(&cuMemGetAccess) PFN_cuMemGetAccess_v10020;
#define PFN_cuMemGetAccess PFN_cuMemGetAccess_v10020
typedef __typeof__(&cuMemGetAllocationPropertiesFromHandle) PFN_cuMemGetAllocationPropertiesFromHandle_v10020;
#define PFN_cuMemGetAllocationPropertiesFromHandle PFN_cuMemGetAllocationPropertiesFromHandle_v10020
typedef __typeof__(&cuMemRetainAllocationHandle) PFN_cuMemRetainAllocationHandle_v11000;
#define PFN_cuMemRetainAllocationHandle PFN_cuMemRetainAllocationHandle_v11000
typedef __typeof__(&cuMemExportToShareableHandle) PFN_cuMemExportToShareableHandle_v10020;
#define PFN_cuMemExportToShareableHandle PFN_cuMemExportToShareableHandle_v10020
typedef __typeof__(&cuMemImportFromShareableHandle) PFN_cuMemImportFromShareableHandle_v10020;
#define PFN_cuMemImportFromShareableHandle PFN_cuMemImportFromShareableHandle_v10020
typedef __typeof__(&cuTensorMapEncodeTiled) PFN_cuTensorMapEncodeTiled_v12000;
#define PFN_cuTensorMapEncodeTiled PFN_cuTensorMapEncodeTiled_v12000
typedef __typeof__(&cuTensorMapEncodeIm2col) PFN_cuTensorMapEncodeIm2col_v12000;
#define PFN_cuTensorMapEncodeIm2col PFN_cuTensorMapEncodeIm2col_v12000
typedef __typeof__(&cuTensorMapReplaceAddress) PFN_cuTensorMapReplaceAddress_v12000;
#define PFN_cuTensorMapReplaceAddress PFN_cuTensorMapReplaceAddress_v12000

#endif
