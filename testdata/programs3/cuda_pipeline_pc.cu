// libcu++ <cuda/pipeline>: a block-scoped pipeline shared by the whole
// block (producer_acquire / memcpy_async / producer_commit, then
// consumer_wait / consumer_release), double-buffered, computing a row-wise
// scaled sum of a matrix; and a thread-scope pipeline (cuda::make_pipeline()).
#include <cstdio>
#include <cstring>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

constexpr int COLS = 512, CHUNK = 128, STAGES = 2;

__global__ void rowsum(const float* in, float* out, int rows) {
  auto block = cg::this_thread_block();
  __shared__ __align__(16) float buf[STAGES][CHUNK];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto pipe = cuda::make_pipeline(block, &state);
  const int row = blockIdx.x;
  const float* src = in + (size_t)row * COLS;
  const int nchunks = COLS / CHUNK;
  float acc = 0.0f;
  int fetched = 0;
  for (; fetched < STAGES && fetched < nchunks; fetched++) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[fetched % STAGES], src + fetched * CHUNK, sizeof(float) * CHUNK, pipe);
    pipe.producer_commit();
  }
  for (int c = 0; c < nchunks; c++) {
    pipe.consumer_wait();
    float v = buf[c % STAGES][threadIdx.x];
    acc += v * (1.0f + c * 0.5f);
    pipe.consumer_release();
    if (fetched < nchunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetched % STAGES], src + fetched * CHUNK, sizeof(float) * CHUNK, pipe);
      pipe.producer_commit();
      fetched++;
    }
  }
  // block reduction of acc
  __shared__ float red[CHUNK];
  red[threadIdx.x] = acc;
  block.sync();
  for (int s = CHUNK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    block.sync();
  }
  if (threadIdx.x == 0) out[row] = red[0];
}

__global__ void per_thread(const int4* in, int* out) {
  __shared__ int4 stage[64];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[threadIdx.x], &in[63 - threadIdx.x], sizeof(int4), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  int4 v = stage[threadIdx.x];
  pipe.consumer_release();
  out[threadIdx.x] = v.x - v.y + v.z * v.w;
}

int main() {
  const int rows = 40;
  float* h = new float[rows * COLS];
  for (int i = 0; i < rows * COLS; i++) h[i] = (float)((i * 31) % 257) / 64.0f - 2.0f;
  float *din, *dout, hout[rows];
  CHECK(cudaMalloc(&din, rows * COLS * 4)); CHECK(cudaMalloc(&dout, rows * 4));
  CHECK(cudaMemcpy(din, h, rows * COLS * 4, cudaMemcpyHostToDevice));
  rowsum<<<rows, CHUNK>>>(din, dout, rows);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  int ok = 0;
  for (int r = 0; r < rows; r++) {
    double ref = 0;
    for (int c = 0; c < COLS; c++) ref += h[r * COLS + c] * (1.0 + (c / CHUNK) * 0.5);
    if (fabs(ref - hout[r]) < 1e-3 * (1 + fabs(ref))) ok++;
  }
  printf("rowsum: %d/%d rows match the host\n", ok, rows);
  for (int r = 0; r < rows; r += 13) { unsigned u; memcpy(&u, &hout[r], 4); printf("  row %2d: %.6f (%08x)\n", r, hout[r], u); }
  int4 hi[64]; int ho[64];
  for (int i = 0; i < 64; i++) hi[i] = make_int4(i, 2 * i + 1, i - 7, 3);
  int4* di; int* dq;
  CHECK(cudaMalloc(&di, sizeof hi)); CHECK(cudaMalloc(&dq, sizeof ho));
  CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
  per_thread<<<1, 64>>>(di, dq);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dq, sizeof ho, cudaMemcpyDeviceToHost));
  long s = 0;
  for (int i = 0; i < 64; i++) s += (long)ho[i] * (i + 1);
  printf("per_thread: out[0]=%d out[63]=%d weighted %ld\n", ho[0], ho[63], s);
  delete[] h;
  return ok == rows ? 0 : 1;
}
