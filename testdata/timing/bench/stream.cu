// Streaming bandwidth at controlled residency: grid = R blocks per SM (one wave), residency forced to
// R by dynamic shared memory (R=0: no dynamic shared memory, 2048/block threads per SM), grid-stride
// loops over n floats. copy_k: b[i] = a[i]; readsum_k: sum of a, one atomicAdd per warp.
// Usage: stream [full|sim]. Output: stream kernel=K bytes=B block=BS R=R resident=RR grid=G smem=S event_ms=T gbps=X
#include "bench.h"

extern "C" __global__ void init_f32(float *a, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (float)(i & 1023);
}
extern "C" __global__ void copy_k(const float *__restrict__ a, float *__restrict__ b, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) b[i] = a[i];
}
extern "C" __global__ void readsum_k(const float *__restrict__ a, float *out, unsigned n) {
  float s = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += a[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

static float *A, *B;
static void run(const char *kname, size_t bytes, int block, int R) {
  unsigned n = (unsigned)(bytes / 4);
  int smem = R ? smem_for_resident(R) : 0;
  int res = strcmp(kname, "copy") == 0 ? resident(copy_k, block, smem) : resident(readsum_k, block, smem);
  int grid = num_sms() * res;
  float ms;
  if (strcmp(kname, "copy") == 0) ms = time_median([&] { copy_k<<<grid, block, smem>>>(A, B, n); });
  else ms = time_median([&] { readsum_k<<<grid, block, smem>>>(A, B, n); });
  double moved = strcmp(kname, "copy") == 0 ? 2.0 * bytes : (double)bytes;
  printf("stream kernel=%s bytes=%zu block=%d R=%d resident=%d grid=%d smem=%d event_ms=%.5f gbps=%.1f\n",
         kname, bytes, block, R, res, grid, smem, ms, ms > 0 ? moved / ms / 1e6 : 0.0);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  allow_smem(copy_k); allow_smem(readsum_k);
  size_t big = 256u << 20, small = 32u << 20;
  CK(cudaMalloc(&A, big)); CK(cudaMalloc(&B, big));
  init_f32<<<num_sms() * 8, 256>>>(A, (unsigned)(big / 4)); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  if (!g_full) {
    for (int R : {1, 2, 4, 8, 16}) run("copy", small, 128, R);
    for (int R : {1, 4, 16}) run("readsum", small, 128, R);
    for (int R : {1, 2, 4, 8}) run("copy", small, 256, R);
    return 0;
  }
  for (size_t bytes : {big, small, (size_t)(8u << 20)}) {
    for (int R : {1, 2, 4, 8, 16}) run("copy", bytes, 128, R);
    for (int R : {1, 2, 4, 8, 0}) run("copy", bytes, 256, R);
    for (int R : {1, 2, 4, 8, 16}) run("readsum", bytes, 128, R);
    for (int R : {1, 2, 4, 8, 0}) run("readsum", bytes, 256, R);
  }
  return 0;
}
