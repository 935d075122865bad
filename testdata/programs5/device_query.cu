// deviceQuery-style dump: the properties and attributes people print.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  printf("devices: %d\n", count);
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  printf("driver major %d runtime %d.%d\n", drv / 1000, rt / 1000, (rt % 100) / 10);
  int dev = -1;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, dev));
  printf("name: %s\n", p.name);
  printf("compute capability: %d.%d\n", p.major, p.minor);
  printf("totalGlobalMem GiB (rounded): %zu\n", (p.totalGlobalMem + (1ull << 29)) >> 30);
  printf("sharedMemPerBlock: %zu\n", p.sharedMemPerBlock);
  printf("sharedMemPerBlockOptin: %zu\n", p.sharedMemPerBlockOptin);
  printf("sharedMemPerMultiprocessor: %zu\n", p.sharedMemPerMultiprocessor);
  printf("reservedSharedMemPerBlock: %zu\n", p.reservedSharedMemPerBlock);
  printf("regsPerBlock: %d regsPerMultiprocessor: %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
  printf("warpSize: %d\n", p.warpSize);
  printf("memPitch: %zu\n", p.memPitch);
  printf("maxThreadsPerBlock: %d\n", p.maxThreadsPerBlock);
  printf("maxThreadsDim: %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  printf("maxGridSize: %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("totalConstMem: %zu\n", p.totalConstMem);
  printf("textureAlignment: %zu texturePitchAlignment: %zu surfaceAlignment: %zu\n", p.textureAlignment, p.texturePitchAlignment, p.surfaceAlignment);
  printf("multiProcessorCount: %d\n", p.multiProcessorCount);
  printf("maxThreadsPerMultiProcessor: %d maxBlocksPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  printf("integrated: %d canMapHostMemory: %d\n", p.integrated, p.canMapHostMemory);
  printf("concurrentKernels: %d asyncEngineCount: %d\n", p.concurrentKernels, p.asyncEngineCount);
  printf("unifiedAddressing: %d managedMemory: %d concurrentManagedAccess: %d\n", p.unifiedAddressing, p.managedMemory, p.concurrentManagedAccess);
  printf("memoryBusWidth: %d\n", p.memoryBusWidth);
  printf("l2CacheSize: %d persistingL2CacheMaxSize: %d accessPolicyMaxWindowSize: %d\n", p.l2CacheSize, p.persistingL2CacheMaxSize, p.accessPolicyMaxWindowSize);
  printf("streamPrioritiesSupported: %d\n", p.streamPrioritiesSupported);
  printf("globalL1CacheSupported: %d localL1CacheSupported: %d\n", p.globalL1CacheSupported, p.localL1CacheSupported);
  printf("cooperativeLaunch: %d\n", p.cooperativeLaunch);
  printf("isMultiGpuBoard: %d computePreemptionSupported: %d\n", p.isMultiGpuBoard, p.computePreemptionSupported);
  printf("maxTexture1D: %d maxTexture2D: %d %d maxTexture3D: %d %d %d\n", p.maxTexture1D, p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2]);
  printf("maxSurface2D: %d %d\n", p.maxSurface2D[0], p.maxSurface2D[1]);
  printf("memoryPoolsSupported: %d clusterLaunch: %d\n", p.memoryPoolsSupported, p.clusterLaunch);
  printf("hostRegisterSupported: %d ipcEventSupported: %d\n", p.hostRegisterSupported, p.ipcEventSupported);

  struct { cudaDeviceAttr a; const char *n; } attrs[] = {
    {cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock"},
    {cudaDevAttrMaxBlockDimX, "MaxBlockDimX"},
    {cudaDevAttrMaxBlockDimZ, "MaxBlockDimZ"},
    {cudaDevAttrMaxGridDimX, "MaxGridDimX"},
    {cudaDevAttrMaxGridDimY, "MaxGridDimY"},
    {cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock"},
    {cudaDevAttrTotalConstantMemory, "TotalConstantMemory"},
    {cudaDevAttrWarpSize, "WarpSize"},
    {cudaDevAttrMaxRegistersPerBlock, "MaxRegistersPerBlock"},
    {cudaDevAttrClockRate, "ClockRate"},
    {cudaDevAttrMultiProcessorCount, "MultiProcessorCount"},
    {cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor"},
    {cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor"},
    {cudaDevAttrMemoryClockRate, "MemoryClockRate"},
    {cudaDevAttrGlobalMemoryBusWidth, "GlobalMemoryBusWidth"},
    {cudaDevAttrL2CacheSize, "L2CacheSize"},
    {cudaDevAttrMaxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor"},
    {cudaDevAttrConcurrentKernels, "ConcurrentKernels"},
    {cudaDevAttrEccEnabled, "EccEnabled"},
    {cudaDevAttrUnifiedAddressing, "UnifiedAddressing"},
    {cudaDevAttrComputeMode, "ComputeMode"},
    {cudaDevAttrAsyncEngineCount, "AsyncEngineCount"},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor"},
    {cudaDevAttrMaxRegistersPerMultiprocessor, "MaxRegistersPerMultiprocessor"},
    {cudaDevAttrManagedMemory, "ManagedMemory"},
    {cudaDevAttrCooperativeLaunch, "CooperativeLaunch"},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin"},
    {cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor"},
    {cudaDevAttrReservedSharedMemoryPerBlock, "ReservedSharedMemoryPerBlock"},
    {cudaDevAttrMaxPersistingL2CacheSize, "MaxPersistingL2CacheSize"},
    {cudaDevAttrMaxAccessPolicyWindowSize, "MaxAccessPolicyWindowSize"},
    {cudaDevAttrMemoryPoolsSupported, "MemoryPoolsSupported"},
    {cudaDevAttrClusterLaunch, "ClusterLaunch"},
    {cudaDevAttrGlobalL1CacheSupported, "GlobalL1CacheSupported"},
    {cudaDevAttrLocalL1CacheSupported, "LocalL1CacheSupported"},
    {cudaDevAttrStreamPrioritiesSupported, "StreamPrioritiesSupported"},
    {cudaDevAttrCanMapHostMemory, "CanMapHostMemory"},
    {cudaDevAttrIntegrated, "Integrated"},
    {cudaDevAttrKernelExecTimeout, "KernelExecTimeout"},
    {cudaDevAttrTextureAlignment, "TextureAlignment"},
    {cudaDevAttrMaxPitch, "MaxPitch"},
    {cudaDevAttrSingleToDoublePrecisionPerfRatio, "SingleToDoublePrecisionPerfRatio"},
    {cudaDevAttrHostNativeAtomicSupported, "HostNativeAtomicSupported"},
    {cudaDevAttrComputePreemptionSupported, "ComputePreemptionSupported"},
  };
  for (auto &a : attrs) {
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, a.a, dev);
    printf("attr %-34s (%3d) = %d %s\n", a.n, (int)a.a, v, e == cudaSuccess ? "" : cudaGetErrorName(e));
  }
  size_t freeB = 0, totalB = 0;
  CHECK(cudaMemGetInfo(&freeB, &totalB));
  printf("cudaMemGetInfo total == totalGlobalMem: %d, free <= total: %d\n", totalB == p.totalGlobalMem, freeB <= totalB);
  int v;
  cudaError_t e = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 7);
  printf("attribute of device 7: %s\n", cudaGetErrorName(e));
  e = cudaGetDeviceProperties(&p, count);
  printf("properties of device %d: %s\n", count, cudaGetErrorName(e));
  e = cudaSetDevice(count);
  printf("cudaSetDevice(%d): %s; last error: %s\n", count, cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
  return 0;
}
