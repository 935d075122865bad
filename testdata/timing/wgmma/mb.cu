// Runs wgmma.ptx (gen_wgmma.py) on the GPU through the driver API and prints
// per kernel the slowest warp's %clock64 cycles and cycles per iteration:
//   regs <kernel> regs=<r> maxthreads=<t>                (what the kernel may launch with)
//   wg <kernel> wgs=<warpgroups> iters=<n> cycles=<c> per_iter=<c/n>
//   bulk grid=<g> bytes=<b> first=<c> steady=<c> steady_max=<c>   (cp.async.bulk global->shared)
//   tile grid=<g> box=<w>x<h> bytes=<b> first=<c> steady=<c> steady_max=<c>   (cp.async.bulk.tensor.2d)
//   cpmbar grid=<g> bytes=512 first=<c> steady=<c> steady_max=<c>   (cp.async.cg + cp.async.mbarrier.arrive.noinc)
// first: the first round (its source evicted from the L2 beforehand: DRAM),
// steady: the mean of the 15 others over the grid's blocks (L2 hits),
// steady_max: the slowest block's.
// A launch that fails is reported ("FAIL <what>: <error>") and the rest goes
// on; a wgmma kernel launches with as many warpgroups (1..4) as its registers
// allow (cuFuncGetAttribute MAX_THREADS_PER_BLOCK).
// Usage: mb wgmma.cubin wg <type> | bulk | tile | cpmbar
// (one section a process, so that an error that spoils the context spoils
// only its own section.)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

static bool ok(CUresult e, const char* what) {
  if (e == CUDA_SUCCESS) return true;
  const char* s = "?"; cuGetErrorString(e, &s);
  printf("FAIL %s: %s\n", what, s); fflush(stdout);
  return false;
}

static CUdeviceptr flush; // 128 MiB written before a "first" round: evicts the source from the 50 MiB L2
static void evict() { cuMemsetD32(flush, 0x01010101u, (128u << 20) / 4); cuCtxSynchronize(); }

static void wgSection(CUmodule mod, CUdeviceptr out, const char* type) {
  const int ns[] = {8, 64, 128, 256};
  const char* modes[] = {"lat", "thr"};
  for (int ni = 0; ni < 4; ni++) for (int mi = 0; mi < 2; mi++) {
    char name[64]; snprintf(name, sizeof name, "wg_%s_n%d_%s", type, ns[ni], modes[mi]);
    CUfunction f;
    if (!ok(cuModuleGetFunction(&f, mod, name), name)) continue;
    int regs = 0, maxThr = 0;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    cuFuncGetAttribute(&maxThr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    printf("regs %-16s regs=%d maxthreads=%d\n", name, regs, maxThr);
    for (int wgs = 1; wgs <= 4; wgs++) {
      if (128 * wgs > maxThr) { printf("SKIP %s wgs=%d: %d registers allow %d threads\n", name, wgs, regs, maxThr); continue; }
      for (unsigned iters = 16; iters <= 128; iters *= 8) {
        void* args[] = {&out, &iters};
        bool good = true;
        for (int rep = 0; rep < 2 && good; rep++) {
          char what[96]; snprintf(what, sizeof what, "%s wgs=%d iters=%u", name, wgs, iters);
          good = ok(cuLaunchKernel(f, 1, 1, 1, 128 * wgs, 1, 1, 0, 0, args, 0), what) && ok(cuCtxSynchronize(), what);
        }
        if (!good) continue;
        long long c[16];
        if (!ok(cuMemcpyDtoH(c, out, 8 * 4 * wgs), "copy")) continue;
        long long mx = 0; for (int i = 0; i < 4 * wgs; i++) if (c[i] > mx) mx = c[i];
        printf("wg %-16s wgs=%d iters=%3u cycles=%8lld per_iter=%8.2f\n", name, wgs, iters, mx, (double)mx / iters);
      }
    }
    fflush(stdout);
  }
}

// report prints a copy kernel's rounds: p_out[2*b], p_out[2*b+1] per block b.
static void report(const char* head, CUdeviceptr out, int grid, unsigned iters) {
  long long c[2 * 132];
  if (!ok(cuMemcpyDtoH(c, out, 16 * grid), "copy")) return;
  double sum = 0, mx = 0, first = 0;
  for (int b = 0; b < grid; b++) {
    double s = (double)c[2 * b + 1] / (iters - 1);
    sum += s; if (s > mx) mx = s; first += c[2 * b];
  }
  printf("%s first=%6.0f steady=%8.2f steady_max=%8.2f\n", head, first / grid, sum / grid, mx);
  fflush(stdout);
}

int main(int argc, char** argv) {
  if (argc < 3) { printf("usage: mb wgmma.cubin wg <type> | bulk | tile | cpmbar\n"); return 2; }
  cudaFree(0);
  CUmodule mod;
  if (!ok(cuModuleLoad(&mod, argv[1]), "cuModuleLoad")) return 1;
  CUdeviceptr out, src;
  if (!ok(cuMemAlloc(&out, 16 * 132), "alloc") || !ok(cuMemAlloc(&src, 4 << 20), "alloc") || !ok(cuMemAlloc(&flush, 128u << 20), "alloc")) return 1;
  cuMemsetD8(src, 0, 4 << 20);
  const char* sec = argv[2];
  const int grids[] = {1, 132};
  if (!strcmp(sec, "wg") && argc > 3) {
    wgSection(mod, out, argv[3]);
  } else if (!strcmp(sec, "bulk")) {
    CUfunction fb;
    if (!ok(cuModuleGetFunction(&fb, mod, "bulk"), "bulk")) return 1;
    ok(cuFuncSetAttribute(fb, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536), "bulk smem");
    for (int gi = 0; gi < 2; gi++)
      for (unsigned bytes = 1024; bytes <= 65536; bytes *= 2) {
        unsigned iters = 16; void* args[] = {&out, &src, &iters, &bytes};
        evict();
        char what[64]; snprintf(what, sizeof what, "bulk grid=%d bytes=%6u", grids[gi], bytes);
        if (ok(cuLaunchKernel(fb, grids[gi], 1, 1, 32, 1, 1, 65536, 0, args, 0), what) && ok(cuCtxSynchronize(), what))
          report(what, out, grids[gi], iters);
      }
  } else if (!strcmp(sec, "tile")) {
    CUfunction ft;
    if (!ok(cuModuleGetFunction(&ft, mod, "tile"), "tile")) return 1;
    ok(cuFuncSetAttribute(ft, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536), "tile smem");
    const int boxes[][2] = {{16, 16}, {32, 16}, {32, 32}, {64, 32}, {64, 64}, {128, 64}, {64, 128}, {128, 128}, {256, 128}};
    for (int gi = 0; gi < 2; gi++)
      for (int bi = 0; bi < 9; bi++) {
        CUtensorMap map; memset(&map, 0, sizeof map);
        cuuint64_t dims[2] = {1024, 1024}; cuuint64_t strides[1] = {2048};
        cuuint32_t box[2] = {(cuuint32_t)boxes[bi][0], (cuuint32_t)boxes[bi][1]}; cuuint32_t es[2] = {1, 1};
        char what[80]; snprintf(what, sizeof what, "tile grid=%d box=%dx%d bytes=%6d", grids[gi], boxes[bi][0], boxes[bi][1], boxes[bi][0] * boxes[bi][1] * 2);
        if (!ok(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)src, dims, strides, box, es,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), what))
          continue;
        unsigned iters = 16, bytes = boxes[bi][0] * boxes[bi][1] * 2; void* args[] = {&out, &map, &iters, &bytes};
        evict();
        if (ok(cuLaunchKernel(ft, grids[gi], 1, 1, 32, 1, 1, 65536, 0, args, 0), what) && ok(cuCtxSynchronize(), what))
          report(what, out, grids[gi], iters);
      }
  } else if (!strcmp(sec, "cpmbar")) {
    CUfunction fc;
    if (!ok(cuModuleGetFunction(&fc, mod, "cpmbar"), "cpmbar")) return 1;
    for (int gi = 0; gi < 2; gi++) {
      unsigned iters = 16; void* args[] = {&out, &src, &iters};
      evict();
      char what[64]; snprintf(what, sizeof what, "cpmbar grid=%d bytes=512", grids[gi]);
      if (ok(cuLaunchKernel(fc, grids[gi], 1, 1, 32, 1, 1, 1024, 0, args, 0), what) && ok(cuCtxSynchronize(), what))
        report(what, out, grids[gi], iters);
    }
  } else {
    printf("unknown section %s\n", sec); return 2;
  }
  return 0;
}
