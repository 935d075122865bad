// runner: loads one probe (a cubin ptxas made from ptx/NAME.ptx, or the PTX
// itself for the driver to compile), runs kernel `probe` on in/NAME.bin with
// one CTA of THREADS threads per test case and writes out/NAME.bin.
//   runner NAME THREADS CASES BYTES_IN_PER_CASE BYTES_OUT_PER_CASE IMAGE
// One process per variant, so that a fault in one leaves the others' context.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

static const char* name = "?";
#define CK(x)                                                               \
  do {                                                                      \
    CUresult r_ = (x);                                                      \
    if (r_ != CUDA_SUCCESS) {                                               \
      const char* s_ = "?";                                                 \
      cuGetErrorString(r_, &s_);                                            \
      fprintf(stderr, "%s: %s failed: %s\n", name, #x, s_);                 \
      return 1;                                                             \
    }                                                                       \
  } while (0)

static bool slurp(const char* path, std::vector<char>& b) {
  FILE* f = fopen(path, "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  return true;
}

int main(int argc, char** argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: runner NAME THREADS CASES IN OUT IMAGE\n");
    return 2;
  }
  name = argv[1];
  int threads = atoi(argv[2]), cases = atoi(argv[3]);
  long cin = atol(argv[4]), cout = atol(argv[5]);
  char path[1024];
  std::vector<char> in, img;
  snprintf(path, sizeof path, "in/%s.bin", name);
  if (!slurp(path, in) || (long)in.size() != cases * cin) {
    fprintf(stderr, "%s: %s: %zu bytes, want %ld\n", name, path, in.size(), cases * cin);
    return 1;
  }
  if (!slurp(argv[6], img)) {
    fprintf(stderr, "%s: cannot read %s\n", name, argv[6]);
    return 1;
  }
  img.push_back(0);
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  char log[8192] = "";
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[2] = {log, (void*)(size_t)sizeof log};
  CUresult lr = cuModuleLoadDataEx(&mod, img.data(), 2, opts, vals);
  if (lr != CUDA_SUCCESS) {
    fprintf(stderr, "%s: module load failed (%d): %s\n", name, (int)lr, log);
    return 1;
  }
  CK(cuModuleGetFunction(&fn, mod, "probe"));
  CUdeviceptr din, dout;
  size_t outBytes = (size_t)cases * cout;
  CK(cuMemAlloc(&din, in.size()));
  CK(cuMemAlloc(&dout, outBytes));
  CK(cuMemcpyHtoD(din, in.data(), in.size()));
  CK(cuMemsetD8(dout, 0xEE, outBytes));
  void* args[] = {&din, &dout};
  CK(cuLaunchKernel(fn, cases, 1, 1, threads, 1, 1, 0, 0, args, 0));
  CK(cuCtxSynchronize());
  std::vector<unsigned> out(outBytes / 4);
  CK(cuMemcpyDtoH(out.data(), dout, outBytes));
  snprintf(path, sizeof path, "out/%s.bin", name);
  FILE* f = fopen(path, "wb");
  if (!f || fwrite(out.data(), 1, outBytes, f) != outBytes) {
    fprintf(stderr, "%s: cannot write %s\n", name, path);
    return 1;
  }
  fclose(f);
  printf("%s: %d cases ok, first words %08x %08x\n", name, cases, out[0], out[1]);
  return 0;
}
