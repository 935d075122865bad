/* warpsim_rt_entry.c: driver entry points (cudaGetDriverEntryPoint,
 * cudaGetDriverEntryPointByVersion, cuGetProcAddress), the way programs
 * reach driver functions such as cuTensorMapEncodeTiled without linking
 * libcuda (the CUDA programming guide's TMA example does). The table lists
 * every driver function this runtime implements (cuda.h); included by
 * warpsim_rt.c after the driver's files. */

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *symbolStatus);

static const struct {
  const char *name;
  void *fn;
} ws_driver_entries[] = {
    {"cuInit", (void *)cuInit},
    {"cuDriverGetVersion", (void *)cuDriverGetVersion},
    {"cuGetErrorName", (void *)cuGetErrorName},
    {"cuGetErrorString", (void *)cuGetErrorString},
    {"cuDeviceGet", (void *)cuDeviceGet},
    {"cuDeviceGetCount", (void *)cuDeviceGetCount},
    {"cuDeviceGetName", (void *)cuDeviceGetName},
    {"cuDeviceGetAttribute", (void *)cuDeviceGetAttribute},
    {"cuDeviceTotalMem", (void *)cuDeviceTotalMem},
    {"cuDeviceComputeCapability", (void *)cuDeviceComputeCapability},
    {"cuDeviceCanAccessPeer", (void *)cuDeviceCanAccessPeer},
    {"cuDevicePrimaryCtxRetain", (void *)cuDevicePrimaryCtxRetain},
    {"cuDevicePrimaryCtxRelease", (void *)cuDevicePrimaryCtxRelease},
    {"cuCtxCreate", (void *)cuCtxCreate},
    {"cuCtxDestroy", (void *)cuCtxDestroy},
    {"cuCtxGetCurrent", (void *)cuCtxGetCurrent},
    {"cuCtxSetCurrent", (void *)cuCtxSetCurrent},
    {"cuCtxGetDevice", (void *)cuCtxGetDevice},
    {"cuCtxSynchronize", (void *)cuCtxSynchronize},
    {"cuCtxEnablePeerAccess", (void *)cuCtxEnablePeerAccess},
    {"cuStreamCreate", (void *)cuStreamCreate},
    {"cuStreamSynchronize", (void *)cuStreamSynchronize},
    {"cuStreamDestroy", (void *)cuStreamDestroy},
    {"cuMemGetInfo", (void *)cuMemGetInfo},
    {"cuMemAlloc", (void *)cuMemAlloc},
    {"cuMemFree", (void *)cuMemFree},
    {"cuMemcpyHtoD", (void *)cuMemcpyHtoD},
    {"cuMemcpyDtoH", (void *)cuMemcpyDtoH},
    {"cuMemcpyDtoD", (void *)cuMemcpyDtoD},
    {"cuMemcpyHtoDAsync", (void *)cuMemcpyHtoDAsync},
    {"cuMemcpyDtoHAsync", (void *)cuMemcpyDtoHAsync},
    {"cuMemsetD8", (void *)cuMemsetD8},
    {"cuMemsetD32", (void *)cuMemsetD32},
    {"cuModuleLoadData", (void *)cuModuleLoadData},
    {"cuModuleLoadDataEx", (void *)cuModuleLoadDataEx},
    {"cuModuleLoadFatBinary", (void *)cuModuleLoadFatBinary},
    {"cuModuleLoad", (void *)cuModuleLoad},
    {"cuModuleUnload", (void *)cuModuleUnload},
    {"cuModuleGetFunction", (void *)cuModuleGetFunction},
    {"cuModuleGetGlobal", (void *)cuModuleGetGlobal},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", (void *)cuOccupancyMaxActiveBlocksPerMultiprocessor},
    {"cuLaunchKernel", (void *)cuLaunchKernel},
    {"cuMemGetAllocationGranularity", (void *)cuMemGetAllocationGranularity},
    {"cuMemCreate", (void *)cuMemCreate},
    {"cuMemRelease", (void *)cuMemRelease},
    {"cuMemAddressReserve", (void *)cuMemAddressReserve},
    {"cuMemAddressFree", (void *)cuMemAddressFree},
    {"cuMemMap", (void *)cuMemMap},
    {"cuMemSetAccess", (void *)cuMemSetAccess},
    {"cuMemGetAccess", (void *)cuMemGetAccess},
    {"cuMemUnmap", (void *)cuMemUnmap},
    {"cuMemGetAllocationPropertiesFromHandle", (void *)cuMemGetAllocationPropertiesFromHandle},
    {"cuMemRetainAllocationHandle", (void *)cuMemRetainAllocationHandle},
    {"cuMemExportToShareableHandle", (void *)cuMemExportToShareableHandle},
    {"cuMemImportFromShareableHandle", (void *)cuMemImportFromShareableHandle},
    {"cuTensorMapEncodeTiled", (void *)cuTensorMapEncodeTiled},
    {"cuTensorMapReplaceAddress", (void *)cuTensorMapReplaceAddress},
    {"cuTensorMapEncodeIm2col", (void *)cuTensorMapEncodeIm2col},
    {"cuGetProcAddress", (void *)cuGetProcAddress},
};

/* ws_driver_entry finds a driver function by base name (a versioned name,
 * cuMemAlloc_v2, finds cuMemAlloc); null when this runtime lacks it. */
static void *ws_driver_entry(const char *symbol) {
  if (symbol == NULL) return NULL;
  size_t n = strlen(symbol);
  const char *v = strstr(symbol, "_v");
  if (v != NULL && v[2] >= '0' && v[2] <= '9') n = (size_t)(v - symbol);
  for (size_t i = 0; i < sizeof ws_driver_entries / sizeof ws_driver_entries[0]; i++)
    if (strlen(ws_driver_entries[i].name) == n && strncmp(ws_driver_entries[i].name, symbol, n) == 0)
      return ws_driver_entries[i].fn;
  return NULL;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *symbolStatus) {
  (void)flags;
  if (symbol == NULL || pfn == NULL) return CUDA_ERROR_INVALID_VALUE;
  if (cudaVersion > CUDA_VERSION) {
    /* The driver refuses a version newer than itself. */
    *pfn = NULL;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pfn = ws_driver_entry(symbol);
  if (symbolStatus != NULL)
    *symbolStatus = *pfn != NULL ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn != NULL ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                             unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *driverStatus) {
  (void)flags;
  if (symbol == NULL || funcPtr == NULL) return cudaErrorInvalidValue;
  *funcPtr = NULL;
  if (cudaVersion > CUDA_VERSION) {
    if (driverStatus != NULL) *driverStatus = cudaDriverEntryPointVersionNotSufficent;
    return cudaSuccess;
  }
  *funcPtr = ws_driver_entry(symbol);
  if (driverStatus != NULL)
    *driverStatus = *funcPtr != NULL ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *driverStatus) {
  return cudaGetDriverEntryPointByVersion(symbol, funcPtr, CUDA_VERSION, flags, driverStatus);
}
