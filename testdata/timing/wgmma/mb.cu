// Runs wgmma.ptx (gen_wgmma.py) on the GPU through the driver API and prints
// per kernel the slowest warp's %clock64 cycles and cycles per iteration:
//   wg <kernel> wgs=<warpgroups> iters=<n> cycles=<c> per_iter=<c/n>
//   bulk bytes=<b> first=<c> steady=<c>      (cp.async.bulk global->shared)
//   tile box=<w>x<h> bytes=<b> first=<c> steady=<c>   (cp.async.bulk.tensor.2d)
//   cpmbar bytes=512 first=<c> steady=<c>   (cp.async.cg + cp.async.mbarrier.arrive.noinc)
// Usage: mb wgmma.cubin|wgmma.ptx
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(e_, &s_); printf("CUDA error %s: %s\n", #x, s_); return 1; } } while (0)
#define CKC(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(e_, &s_); printf("CUDA error %s: %s\n", #x, s_); continue; } } while (0)

int main(int argc, char** argv) {
  cudaFree(0);
  CUmodule mod;
  CK(cuModuleLoad(&mod, argv[1]));
  CUdeviceptr out, src;
  CK(cuMemAlloc(&out, 4096)); CK(cuMemAlloc(&src, 4 << 20)); CK(cuMemsetD8(src, 0, 4 << 20));
  const char* types[] = {"f16", "bf16", "tf32", "e4m3", "s8"};
  const int ns[] = {8, 64, 128, 256};
  const char* modes[] = {"lat", "thr"};
  for (int ti = 0; ti < 5; ti++) for (int ni = 0; ni < 4; ni++) for (int mi = 0; mi < 2; mi++) {
    char name[64]; snprintf(name, sizeof name, "wg_%s_n%d_%s", types[ti], ns[ni], modes[mi]);
    CUfunction f; CKC(cuModuleGetFunction(&f, mod, name));
    for (int wgs = 1; wgs <= 4; wgs *= 4) for (unsigned iters = 16; iters <= 128; iters *= 8) {
      void* args[] = {&out, &iters};
      bool bad = false;
      for (int rep = 0; rep < 2 && !bad; rep++) {
        CUresult e = cuLaunchKernel(f, 1, 1, 1, 128 * wgs, 1, 1, 0, 0, args, 0);
        if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
        if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", name, s); bad = true; }
      }
      if (bad) return 1;
      long long c[16]; CK(cuMemcpyDtoH(c, out, 8 * 4 * wgs));
      long long mx = 0; for (int i = 0; i < 4 * wgs; i++) if (c[i] > mx) mx = c[i];
      printf("wg %-16s wgs=%d iters=%3u cycles=%8lld per_iter=%8.2f\n", name, wgs, iters, mx, (double)mx / iters);
    }
  }
  fflush(stdout);
  CUfunction fb; CK(cuModuleGetFunction(&fb, mod, "bulk"));
  CK(cuFuncSetAttribute(fb, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536));
  for (unsigned bytes = 1024; bytes <= 65536; bytes *= 2) {
    unsigned iters = 16; void* args[] = {&out, &src, &iters, &bytes};
    CK(cuMemsetD8(src, 0, 4 << 20)); // first: from L2 or DRAM after the memset
    CK(cuLaunchKernel(fb, 1, 1, 1, 32, 1, 1, 65536, 0, args, 0)); CK(cuCtxSynchronize());
    long long c[2]; CK(cuMemcpyDtoH(c, out, 16));
    printf("bulk bytes=%6u first=%6lld steady=%8.2f\n", bytes, c[0], (double)c[1] / (iters - 1));
  }
  fflush(stdout);
  CUfunction ft; CK(cuModuleGetFunction(&ft, mod, "tile"));
  CK(cuFuncSetAttribute(ft, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536));
  const int boxes[][2] = {{16, 16}, {32, 16}, {32, 32}, {64, 32}, {64, 64}, {128, 64}, {64, 128}};
  for (int bi = 0; bi < 7; bi++) {
    CUtensorMap map; memset(&map, 0, sizeof map);
    cuuint64_t dims[2] = {1024, 1024}; cuuint64_t strides[1] = {2048};
    cuuint32_t box[2] = {(cuuint32_t)boxes[bi][0], (cuuint32_t)boxes[bi][1]}; cuuint32_t es[2] = {1, 1};
    CKC(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)src, dims, strides, box, es,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    unsigned iters = 16, bytes = boxes[bi][0] * boxes[bi][1] * 2; void* args[] = {&out, &map, &iters, &bytes};
    CK(cuMemsetD8(src, 0, 4 << 20));
    CK(cuLaunchKernel(ft, 1, 1, 1, 32, 1, 1, 65536, 0, args, 0)); CK(cuCtxSynchronize());
    long long c[2]; CK(cuMemcpyDtoH(c, out, 16));
    printf("tile box=%dx%d bytes=%6u first=%6lld steady=%8.2f\n", boxes[bi][0], boxes[bi][1], bytes, c[0], (double)c[1] / (iters - 1));
  }
  fflush(stdout);
  CUfunction fc; CK(cuModuleGetFunction(&fc, mod, "cpmbar"));
  { unsigned iters = 16; void* args[] = {&out, &src, &iters};
    CK(cuMemsetD8(src, 0, 4 << 20));
    CK(cuLaunchKernel(fc, 1, 1, 1, 32, 1, 1, 1024, 0, args, 0)); CK(cuCtxSynchronize());
    long long c[2]; CK(cuMemcpyDtoH(c, out, 16));
    printf("cpmbar bytes=512 first=%6lld steady=%8.2f\n", c[0], (double)c[1] / (iters - 1)); }
  return 0;
}
