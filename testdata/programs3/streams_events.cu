// Streams and events around tensor-core and FP8 kernels, as an application
// overlapping work does: two non-blocking streams, a wmma GEMM on one and an
// FP8 quantize/dequantize on the other, joined by cudaStreamWaitEvent; async
// copies from pinned memory; event queries and timing (printed only as a
// sanity check, not the value); a host callback; stream priorities.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>
using namespace nvcuda;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

constexpr int N = 64;

__global__ void to_half(const float* x, half* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = __float2half(x[i]);
}

__global__ void wmma_sq(const half* a, float* c) {  // c = a * a^T
  int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * N + k, N);
    wmma::load_matrix_sync(fb, a + tn * N + k, N);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + tm * N + tn, fc, N, wmma::mem_row_major);
}

__global__ void fp8_roundtrip(const float* x, float* y, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_fp8_e4m3 q(x[i] * scale);
    y[i] = float(q) / scale;
  }
}

__global__ void combine(const float* c, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * N) out[i] = c[i] - y[i] * y[(i * 17) % (N * N)];
}

static void CUDART_CB done(void* p) { *(int*)p = 1; }

int main() {
  int lo, hi;
  CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
  printf("priority range %d..%d\n", lo, hi);
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithPriority(&s1, cudaStreamNonBlocking, hi));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  int prio = 99;
  CHECK(cudaStreamGetPriority(s1, &prio));
  printf("s1 priority %d\n", prio);
  float *hx, *hout;
  CHECK(cudaMallocHost(&hx, N * N * 4));
  CHECK(cudaHostAlloc(&hout, N * N * 4, cudaHostAllocDefault));
  for (int i = 0; i < N * N; i++) hx[i] = sinf(i * 0.013f) * 2.0f + (i % 9) * 0.01f;
  float *dx, *dc, *dy, *dout; half* dh;
  CHECK(cudaMalloc(&dx, N * N * 4)); CHECK(cudaMalloc(&dc, N * N * 4)); CHECK(cudaMalloc(&dy, N * N * 4));
  CHECK(cudaMalloc(&dout, N * N * 4)); CHECK(cudaMalloc(&dh, N * N * 2));
  cudaEvent_t start, copied, gemmDone, stop;
  CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&gemmDone, cudaEventDisableTiming));
  CHECK(cudaEventRecord(start, s1));
  CHECK(cudaMemcpyAsync(dx, hx, N * N * 4, cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(copied, s1));
  to_half<<<N * N / 256, 256, 0, s1>>>(dx, dh, N * N);
  wmma_sq<<<dim3(N / 16, N / 16), 32, 0, s1>>>(dh, dc);
  CHECK(cudaEventRecord(gemmDone, s1));
  CHECK(cudaStreamWaitEvent(s2, copied, 0));
  fp8_roundtrip<<<N * N / 128, 128, 0, s2>>>(dx, dy, N * N, 64.0f);
  CHECK(cudaStreamWaitEvent(s2, gemmDone, 0));
  combine<<<N * N / 256, 256, 0, s2>>>(dc, dy, dout);
  CHECK(cudaMemcpyAsync(hout, dout, N * N * 4, cudaMemcpyDeviceToHost, s2));
  int flag = 0;
  CHECK(cudaLaunchHostFunc(s2, done, &flag));
  CHECK(cudaEventRecord(stop, s2));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaStreamSynchronize(s2));
  printf("host callback ran: %d\n", flag);
  printf("event query: %s, stream query: %s\n", cudaGetErrorName(cudaEventQuery(stop)), cudaGetErrorName(cudaStreamQuery(s1)));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("elapsed time positive: %s\n", ms > 0 ? "yes" : "no");
  cudaError_t e = cudaEventElapsedTime(&ms, start, copied);
  printf("elapsed on a no-timing event: %s\n", cudaGetErrorName(e));
  unsigned h = 0;
  for (int i = 0; i < N * N; i++) { unsigned u; memcpy(&u, &hout[i], 4); h = (h ^ u) * 16777619u; }
  printf("out hash %08x out[0]=%a out[4095]=%a\n", h, hout[0], hout[N * N - 1]);
  CHECK(cudaStreamDestroy(s1)); CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFreeHost(hx)); CHECK(cudaFreeHost(hout));
  CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop)); CHECK(cudaEventDestroy(copied)); CHECK(cudaEventDestroy(gemmDone));
  return 0;
}
