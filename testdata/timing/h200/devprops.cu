// devprops.cu: what the H200's driver reports (issue 19, helper h200p). Two outputs:
//   props.txt           every field of cudaGetDeviceProperties that CUDA 13 still has, and the attributes the
//                       arch preset takes (clocks: cudaDevAttrClockRate / MemoryClockRate), one key=value a line;
//   occupancy_driver.txt the format of arch/testdata/h100_occupancy_driver.txt: a DEVICE and a CLOCKS line, then
//                       for six kernels (heavy4/32/64/128: that many live float accumulators a thread; shared8k:
//                       8 KiB of static shared memory; light: a copy) ptxas's registers, static shared memory and
//                       cudaOccupancyMaxPotentialBlockSize's answer, and for every block size 32..maxThreads
//                       (step 32) cudaOccupancyMaxActiveBlocksPerMultiprocessor at 11 dynamic shared sizes.
// Usage: devprops props > props.txt; devprops occ > occupancy_driver.txt
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); return 1;} } while (0)

template <int N> __global__ void heavy(float *o, const float *in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; i++) acc[i] = in[threadIdx.x + i];
  for (int k = 0; k < n; k++) {
    float x = in[k];
#pragma unroll
    for (int i = 0; i < N; i++) acc[i] = fmaf(acc[i], x, acc[(i + 1) % N]);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; i++) s += acc[i] * (float)(i + 1);
  o[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void shared8k(float *o, const float *in) {
  __shared__ float t[2048];
  t[threadIdx.x % 2048] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  o[blockIdx.x * blockDim.x + threadIdx.x] = t[(threadIdx.x + 1) % 2048];
}
__global__ void light(float *o, const float *in) { o[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; }

static const int DYN[] = {0, 1024, 4096, 12288, 16384, 32768, 49152, 65536, 100000, 150000, 200000};

template <class K> static int occ(const char *name, K k, int optin) {
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, (const void *)k));
  CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - (int)fa.sharedSizeBytes));
  int minGrid = 0, bs = 0;
  CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, k, 0, 0));
  printf("KERNEL %s regs %d static_smem %zu local %zu maxThreadsPerBlock %d potentialBlockSize %d minGrid %d\n", name,
         fa.numRegs, fa.sharedSizeBytes, fa.localSizeBytes, fa.maxThreadsPerBlock, bs, minGrid);
  for (int b = 32; b <= fa.maxThreadsPerBlock; b += 32) {
    printf("OCC %s regs=%d bs=%d", name, fa.numRegs, b);
    for (int d : DYN) {
      int n = 0;
      cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, b, d);
      if (e != cudaSuccess) { cudaGetLastError(); n = -1; }
      printf(" %d:%d", d, n);
    }
    printf("\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  int clk = 0, mclk = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0));
  if (argc > 1 && !strcmp(argv[1], "occ")) {
    printf("# cudaOccupancyMaxActiveBlocksPerMultiprocessor on an %s (CUDA %d, testdata/timing/h200/devprops.cu).\n", p.name, CUDART_VERSION);
    printf("# KERNEL rows: registers per thread and static shared memory of the compiled kernel.\n");
    printf("# OCC rows: block size, then dynamic_shared_bytes:active_blocks_per_SM (-1 = launch not possible).\n");
    printf("DEVICE name=%s cc=%d.%d sms=%d maxThreadsPerSM=%d maxBlocksPerSM=%d regsPerSM=%d regsPerBlock=%d smemPerSM=%zu "
           "smemPerBlock=%zu smemPerBlockOptin=%zu reservedSmemPerBlock=%zu warpSize=%d l2=%d memBusWidth=%d clockKHz=0 memClockKHz=0\n",
           p.name, p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
           p.regsPerMultiprocessor, p.regsPerBlock, p.sharedMemPerMultiprocessor, p.sharedMemPerBlock, p.sharedMemPerBlockOptin,
           p.reservedSharedMemPerBlock, p.warpSize, p.l2CacheSize, p.memoryBusWidth);
    printf("CLOCKS sm_khz=%d mem_khz=%d\n", clk, mclk);
    int optin = (int)p.sharedMemPerBlockOptin;
    if (occ("heavy4", heavy<4>, optin) || occ("heavy32", heavy<32>, optin) || occ("heavy64", heavy<64>, optin) ||
        occ("heavy128", heavy<128>, optin) || occ("shared8k", shared8k, optin) || occ("light", light, optin)) return 1;
    return 0;
  }
#ifndef ONLY_OCC
#define P(f) printf("%s=%lld\n", #f, (long long)p.f);
  printf("name=%s\n", p.name);
  printf("uuid="); for (int i = 0; i < 16; i++) printf("%02x", (unsigned char)p.uuid.bytes[i]); printf("\n");
  P(totalGlobalMem) P(sharedMemPerBlock) P(regsPerBlock) P(warpSize) P(memPitch) P(maxThreadsPerBlock)
  P(maxThreadsDim[0]) P(maxThreadsDim[1]) P(maxThreadsDim[2]) P(maxGridSize[0]) P(maxGridSize[1]) P(maxGridSize[2])
  P(totalConstMem) P(major) P(minor) P(textureAlignment) P(texturePitchAlignment) P(multiProcessorCount)
  P(integrated) P(canMapHostMemory) P(concurrentKernels) P(ECCEnabled) P(pciBusID) P(pciDeviceID) P(pciDomainID)
  P(asyncEngineCount) P(unifiedAddressing) P(memoryBusWidth) P(l2CacheSize) P(persistingL2CacheMaxSize)
  P(maxThreadsPerMultiProcessor) P(streamPrioritiesSupported) P(globalL1CacheSupported) P(localL1CacheSupported)
  P(sharedMemPerMultiprocessor) P(regsPerMultiprocessor) P(managedMemory) P(isMultiGpuBoard) P(multiGpuBoardGroupID)
  P(hostNativeAtomicSupported) P(pageableMemoryAccess) P(concurrentManagedAccess) P(computePreemptionSupported)
  P(canUseHostPointerForRegisteredMem) P(cooperativeLaunch) P(sharedMemPerBlockOptin)
  P(pageableMemoryAccessUsesHostPageTables) P(directManagedMemAccessFromHost) P(maxBlocksPerMultiProcessor)
  P(accessPolicyMaxWindowSize) P(reservedSharedMemPerBlock) P(hostRegisterSupported) P(sparseCudaArraySupported)
  P(hostRegisterReadOnlySupported) P(timelineSemaphoreInteropSupported) P(memoryPoolsSupported)
  P(gpuDirectRDMASupported) P(memoryPoolSupportedHandleTypes) P(deferredMappingCudaArraySupported)
  P(ipcEventSupported) P(clusterLaunch) P(unifiedFunctionPointers)
  printf("attr_clockRate_kHz=%d\nattr_memoryClockRate_kHz=%d\n", clk, mclk);
  printf("mem_bandwidth_GBps=%.1f\n", 2.0 * mclk * 1e3 * (p.memoryBusWidth / 8) / 1e9);
#endif
  int drv, rt; CK(cudaDriverGetVersion(&drv)); CK(cudaRuntimeGetVersion(&rt));
  printf("driver=%d runtime=%d\n", drv, rt);
  size_t fr, tot; CK(cudaMemGetInfo(&fr, &tot)); printf("mem_total=%zu mem_free=%zu\n", tot, fr);
  return 0;
}
