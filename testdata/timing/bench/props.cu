// Device properties and the clocks the driver reports (deviceQuery-like), one key=value per line.
#include "bench.h"
int main() {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  int v; 
  printf("props name=\"%s\" cc=%d.%d sms=%d\n", p.name, p.major, p.minor, p.multiProcessorCount);
#define A(x) CK(cudaDeviceGetAttribute(&v, x, 0)); printf("attr %s=%d\n", #x, v);
  A(cudaDevAttrClockRate) A(cudaDevAttrMemoryClockRate) A(cudaDevAttrGlobalMemoryBusWidth) A(cudaDevAttrL2CacheSize)
  A(cudaDevAttrMaxSharedMemoryPerMultiprocessor) A(cudaDevAttrMaxSharedMemoryPerBlockOptin) A(cudaDevAttrReservedSharedMemoryPerBlock)
  A(cudaDevAttrMaxRegistersPerMultiprocessor) A(cudaDevAttrMaxThreadsPerMultiProcessor) A(cudaDevAttrMaxBlocksPerMultiprocessor)
  A(cudaDevAttrMultiProcessorCount)
  A(cudaDevAttrConcurrentKernels) A(cudaDevAttrAsyncEngineCount)
  int drv, rt; CK(cudaDriverGetVersion(&drv)); CK(cudaRuntimeGetVersion(&rt));
  printf("versions driver=%d runtime=%d\n", drv, rt);
  size_t fr, tot; CK(cudaMemGetInfo(&fr, &tot)); printf("mem total=%zu free=%zu\n", tot, fr);
  return 0;
}
