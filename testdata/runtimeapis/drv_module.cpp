// The driver API's modules, as cuda-samples' *Drv programs use them: load
// the PTX file made by `warpsim cc -fatbin` (argv[1]), get functions and a
// global, launch with kernelParams and with `extra`, on memory from
// cuMemAlloc and from cuMemCreate/cuMemMap. Self-checking: every result
// is compared with the host's own arithmetic.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
static int fails;
static void check(const char *what, CUresult r, CUresult want = CUDA_SUCCESS) {
  const char *s = "?";
  cuGetErrorName(r, &s);
  if (r != want) fails++;
  printf("%s: %s%s\n", what, s, r == want ? "" : " (unexpected)");
}
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  check("cuInit", cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  check("cuDeviceGet", cuDeviceGet(&dev, 0));
  CUctxCreateParams cp = {};
  check("cuCtxCreate", cuCtxCreate(&ctx, &cp, 0, dev));
  CUmodule mod;
  check("cuModuleLoad", cuModuleLoad(&mod, argv[1]));
  check("cuModuleLoad of a missing file", cuModuleLoad(&mod, "no-such-file.fatbin"), CUDA_ERROR_FILE_NOT_FOUND);
  CUmodule bad;
  check("cuModuleLoadData of binary code", cuModuleLoadData(&bad, "\x7f" "ELF\x02\x01\x01"), CUDA_ERROR_INVALID_IMAGE);
  CUfunction axpy, fill, none;
  check("cuModuleGetFunction axpy", cuModuleGetFunction(&axpy, mod, "axpy"));
  check("cuModuleGetFunction fill", cuModuleGetFunction(&fill, mod, "fill"));
  check("cuModuleGetFunction of no kernel", cuModuleGetFunction(&none, mod, "nothing"), CUDA_ERROR_NOT_FOUND);
  CUdeviceptr scale;
  size_t bytes = 0;
  check("cuModuleGetGlobal", cuModuleGetGlobal(&scale, &bytes, mod, "scale"));
  int two = 2;
  check("cuMemcpyHtoD to the global", cuMemcpyHtoD(scale, &two, sizeof two));

  const int n = 1000;
  float hx[n], hy[n], out[n];
  for (int i = 0; i < n; i++) hx[i] = (float)i, hy[i] = 0.5f * i;
  CUdeviceptr x, y;
  check("cuMemAlloc", cuMemAlloc(&x, sizeof hx));
  check("cuMemAlloc", cuMemAlloc(&y, sizeof hy));
  cuMemcpyHtoD(x, hx, sizeof hx);
  cuMemcpyHtoD(y, hy, sizeof hy);
  int nn = n;
  void *args[] = {&x, &y, &nn};
  check("cuLaunchKernel", cuLaunchKernel(axpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
  check("cuCtxSynchronize", cuCtxSynchronize());
  cuMemcpyDtoH(out, y, sizeof out);
  int bad1 = 0;
  for (int i = 0; i < n; i++) bad1 += out[i] != 2.0f * i + 0.5f * i;
  printf("axpy (scale %zu bytes): %s\n", bytes, bad1 ? "FAIL" : "PASS");

  // fill through `extra` into memory mapped with cuMemMap.
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  size_t g = 0;
  cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CUdeviceptr va;
  CUmemGenericAllocationHandle h;
  check("cuMemAddressReserve", cuMemAddressReserve(&va, g, 0, 0, 0));
  check("cuMemCreate", cuMemCreate(&h, g, &prop, 0));
  check("cuMemMap", cuMemMap(va, g, 0, h, 0));
  CUmemAccessDesc d = {prop.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  check("cuMemSetAccess", cuMemSetAccess(va, g, &d, 1));
  struct { CUdeviceptr p; int n, v; } pk = {va, n, 40};
  size_t pks = sizeof pk;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &pk, CU_LAUNCH_PARAM_BUFFER_SIZE, &pks, CU_LAUNCH_PARAM_END};
  check("cuLaunchKernel with extra", cuLaunchKernel(fill, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, NULL, extra));
  int got[n];
  check("cuMemcpyDtoH", cuMemcpyDtoH(got, va, sizeof got));
  int bad2 = 0;
  for (int i = 0; i < n; i++) bad2 += got[i] != 40 + i;
  printf("fill: %s\n", bad2 ? "FAIL" : "PASS");
  // A stream, asynchronous copies and occupancy; no sharing between processes.
  CUstream st;
  check("cuStreamCreate", cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
  int back[4] = {0}, four[4] = {1, 2, 3, 4};
  check("cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(va, four, sizeof four, st));
  check("cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(back, va, sizeof back, st));
  check("cuStreamSynchronize", cuStreamSynchronize(st));
  check("cuStreamDestroy", cuStreamDestroy(st));
  int blocks = 0;
  check("cuOccupancyMaxActiveBlocksPerMultiprocessor", cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
  printf("async copies: %s, blocks per SM %s\n", back[3] == 4 ? "PASS" : "FAIL", blocks > 0 ? "PASS" : "FAIL");
  bad2 += back[3] != 4 || blocks <= 0;
  int ipc = -1, fd = -1;
  check("cuDeviceGetAttribute", cuDeviceGetAttribute(&ipc, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
  check("cuMemExportToShareableHandle", cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), CUDA_ERROR_NOT_SUPPORTED);
  printf("IPC handles supported %d\n", ipc);
  cuMemUnmap(va, g);
  cuMemRelease(h);
  cuMemAddressFree(va, g);
  check("cuModuleUnload", cuModuleUnload(mod));
  check("cuCtxDestroy", cuCtxDestroy(ctx));
  printf("%s\n", fails || bad1 || bad2 ? "Result = FAIL" : "Result = PASS");
  return fails || bad1 || bad2;
}
