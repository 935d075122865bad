// bw.cu: the H200's DRAM bandwidth at footprints far past the L2 (issue 19, helper h200p), CUDA events at the
// clocks as found (no ncu), median of 10 after a warm-up. For each size (64 MiB to 4 GiB a buffer): a read of
// float4s (grid-stride, every SM full, the sum stored only if it is -1), a write of float4s, a copy kernel and
// cudaMemcpy device to device. One line each: kind size_mib ms GB/s (bytes read + written over the time).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
__global__ void rd(const float4 *__restrict__ a, size_t n, float *o) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { float4 v = a[i]; s += v.x + v.y + v.z + v.w; }
  if (s == -1.0f) o[0] = s;
}
__global__ void wr(float4 *__restrict__ b, size_t n, float x) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = make_float4(x, x, x, x);
}
__global__ void cp(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
template <class F> static float med(F f) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  f(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < 10; r++) { CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return (t[4] + t[5]) / 2;
}
int main() {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  size_t maxb = (size_t)4 << 30;
  float4 *A, *B; float *O; CK(cudaMalloc(&A, maxb)); CK(cudaMalloc(&B, maxb)); CK(cudaMalloc(&O, 4));
  CK(cudaMemset(A, 0x3f, maxb)); CK(cudaMemset(B, 0x3f, maxb));
  int grid = sms * 8, block = 256;
  for (size_t mib : {64, 256, 1024, 4096}) {
    size_t bytes = mib << 20, n = bytes / 16;
    float t;
    t = med([&] { rd<<<grid, block>>>(A, n, O); }); printf("read %zu %.4f %.0f\n", mib, t, bytes / t / 1e6);
    t = med([&] { wr<<<grid, block>>>(B, n, 1.5f); }); printf("write %zu %.4f %.0f\n", mib, t, bytes / t / 1e6);
    t = med([&] { cp<<<grid, block>>>(A, B, n); }); printf("copy %zu %.4f %.0f\n", mib, t, 2 * bytes / t / 1e6);
    t = med([&] { CK(cudaMemcpyAsync(B, A, bytes, cudaMemcpyDeviceToDevice)); }); printf("memcpy %zu %.4f %.0f\n", mib, t, 2 * bytes / t / 1e6);
  }
  return 0;
}
