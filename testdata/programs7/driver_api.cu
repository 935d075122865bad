// The driver API beside the runtime: cuInit, device queries, the primary
// context and the current context before and after the runtime starts,
// memory through both APIs, a PTX module loaded at run time with
// cuModuleLoadData, its function and global, cuLaunchKernel with
// kernelParams and with the extra buffer, and error names.
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

static const char *ptx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.global .align 4 .u32 hits;

.visible .entry saxpy(
  .param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
{
  .reg .pred p;
  .reg .b32 r<6>;
  .reg .f32 f<4>;
  .reg .b64 rd<8>;
  ld.param.u64 rd1, [x];
  ld.param.u64 rd2, [y];
  ld.param.f32 f1, [a];
  ld.param.u32 r1, [n];
  mov.u32 r2, %ctaid.x;
  mov.u32 r3, %ntid.x;
  mov.u32 r4, %tid.x;
  mad.lo.s32 r5, r2, r3, r4;
  setp.ge.u32 p, r5, r1;
  @p bra done;
  cvta.to.global.u64 rd3, rd1;
  cvta.to.global.u64 rd4, rd2;
  mul.wide.u32 rd5, r5, 4;
  add.s64 rd6, rd3, rd5;
  add.s64 rd7, rd4, rd5;
  ld.global.f32 f2, [rd6];
  ld.global.f32 f3, [rd7];
  fma.rn.f32 f3, f1, f2, f3;
  st.global.f32 [rd7], f3;
  atom.global.add.u32 r1, [hits], 1;
done:
  ret;
}
)PTX";

static const char *ename(CUresult r) {
  const char *s = nullptr;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "(unknown)";
  return s;
}

int main() {
  CUcontext c0 = (CUcontext)1;
  CUresult r = cuCtxGetCurrent(&c0);
  printf("cuCtxGetCurrent before cuInit: %s\n", ename(r));
  r = cuInit(0);
  printf("cuInit: %s\n", ename(r));
  r = cuInit(1);
  printf("cuInit(1): %s\n", ename(r));
  int ver = 0;
  cuDriverGetVersion(&ver);
  printf("driver version %d\n", ver);
  int n = 0;
  cuDeviceGetCount(&n);
  printf("device count %d\n", n);
  CUdevice dev = -1;
  r = cuDeviceGet(&dev, 0);
  printf("cuDeviceGet(0): %s %d\n", ename(r), dev);
  CUdevice dev1 = -1;
  r = cuDeviceGet(&dev1, 1);
  printf("cuDeviceGet(1): %s\n", ename(r));
  char name[256];
  cuDeviceGetName(name, sizeof name, dev);
  printf("name %s\n", name);
  int maj = 0, min = 0, sms = 0, warp = 0, tpb = 0, ua = 0, optin = 0;
  cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  cuDeviceGetAttribute(&tpb, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
  cuDeviceGetAttribute(&ua, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev);
  cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
  printf("cc %d.%d sms %d warp %d maxThreads %d unifiedAddressing %d smemOptin %d\n", maj, min, sms, warp, tpb, ua, optin);
  size_t total = 0;
  cuDeviceTotalMem(&total, dev);
  printf("total memory %zu MiB\n", total >> 20);
  int bad = 0;
  r = cuDeviceGetAttribute(&bad, (CUdevice_attribute)100000, dev);
  printf("attribute 100000: %s\n", ename(r));
  int canPeer = -1;
  r = cuDeviceCanAccessPeer(&canPeer, dev, dev);
  printf("peer self: %s %d\n", ename(r), canPeer);

  r = cuCtxGetCurrent(&c0);
  printf("current context after cuInit: %s %s\n", ename(r), c0 ? "set" : "null");
  CUcontext prim = nullptr;
  r = cuDevicePrimaryCtxRetain(&prim, dev);
  printf("primary retain: %s %s\n", ename(r), prim ? "set" : "null");
  r = cuCtxGetCurrent(&c0);
  printf("current after retain: %s %s\n", ename(r), c0 ? "set" : "null");
  cudaFree(0);
  r = cuCtxGetCurrent(&c0);
  printf("current after cudaFree(0): %s is primary %d\n", ename(r), c0 == prim);
  CUdevice cd = -1;
  r = cuCtxGetDevice(&cd);
  printf("context device: %s %d\n", ename(r), cd);

  CUmodule mod;
  r = cuModuleLoadData(&mod, ptx);
  printf("cuModuleLoadData: %s\n", ename(r));
  CUfunction fn;
  r = cuModuleGetFunction(&fn, mod, "saxpy");
  printf("get saxpy: %s\n", ename(r));
  CUfunction none;
  r = cuModuleGetFunction(&none, mod, "nope");
  printf("get nope: %s\n", ename(r));
  CUdeviceptr hits;
  size_t hitsBytes = 0;
  r = cuModuleGetGlobal(&hits, &hitsBytes, mod, "hits");
  printf("get global hits: %s %zu bytes\n", ename(r), hitsBytes);
  r = cuModuleGetGlobal(&hits, &hitsBytes, mod, "misses");
  printf("get global misses: %s\n", ename(r));

  const unsigned N = 3000;
  float hx[N], hy[N];
  for (unsigned i = 0; i < N; i++) {
    hx[i] = (float)i * 0.5f;
    hy[i] = 1.0f;
  }
  CUdeviceptr dx, dy;
  cuMemAlloc(&dx, N * 4);
  cudaMalloc((void **)&dy, N * 4);
  r = cuMemcpyHtoD(dx, hx, N * 4);
  printf("HtoD: %s\n", ename(r));
  cudaMemcpy((void *)dy, hy, N * 4, cudaMemcpyHostToDevice);
  cuMemsetD32(hits, 0, 1);
  float a = 2.0f;
  unsigned nn = N;
  void *params[] = {&dx, &dy, &a, &nn};
  r = cuLaunchKernel(fn, (N + 255) / 256, 1, 1, 256, 1, 1, 0, 0, params, nullptr);
  printf("launch with params: %s\n", ename(r));
  struct {
    CUdeviceptr x, y;
    float a;
    unsigned n;
  } buf = {dx, dy, 0.25f, N / 2};
  size_t bufSize = sizeof buf;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufSize, CU_LAUNCH_PARAM_END};
  r = cuLaunchKernel(fn, (N + 255) / 256, 1, 1, 256, 1, 1, 0, 0, nullptr, extra);
  printf("launch with extra: %s\n", ename(r));
  r = cuLaunchKernel(fn, 1, 1, 1, 2048, 1, 1, 0, 0, params, nullptr);
  printf("launch 2048 threads: %s\n", ename(r));
  r = cuCtxSynchronize();
  printf("synchronize: %s\n", ename(r));
  r = cuMemcpyDtoH(hy, dy, N * 4);
  unsigned h = 0;
  cuMemcpyDtoH(&h, hits, 4);
  printf("DtoH: %s y[0]=%g y[1]=%g y[1499]=%g y[1500]=%g y[2999]=%g hits %u\n", ename(r), hy[0], hy[1], hy[1499], hy[1500],
         hy[2999], h);
  size_t fr = 0, tot = 0;
  r = cuMemGetInfo(&fr, &tot);
  printf("cuMemGetInfo: %s free<=total %d\n", ename(r), fr <= tot);
  r = cuMemFree(dx);
  printf("cuMemFree: %s\n", ename(r));
  r = cuMemFree(dx);
  printf("cuMemFree twice: %s\n", ename(r));
  r = cuModuleUnload(mod);
  printf("unload: %s\n", ename(r));

  CUresult codes[] = {CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_NOT_INITIALIZED,
                      CUDA_ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_CONTEXT,
                      CUDA_ERROR_INVALID_PTX, CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_READY,
                      CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CUDA_ERROR_NOT_SUPPORTED,
                      CUDA_ERROR_UNKNOWN, (CUresult)12345};
  for (CUresult c : codes) {
    const char *nm = nullptr, *st = nullptr;
    CUresult r1 = cuGetErrorName(c, &nm), r2 = cuGetErrorString(c, &st);
    printf("%d: %s %s | %s\n", (int)c, ename(r1), nm ? nm : "(null)", st ? st : "(null)");
    (void)r2;
  }
  r = cuDevicePrimaryCtxRelease(dev);
  printf("primary release: %s\n", ename(r));
  return 0;
}
