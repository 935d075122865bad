// llm.c-style layernorm forward and backward: a warp per row through
// cooperative groups, packed 128-bit loads (x128), __ldcs/__stcs streaming
// accesses, and a deterministic two-pass reduction of dweight/dbias.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

struct alignas(16) x128 {
  float v[4];
  __device__ float& operator[](int i) { return v[i]; }
  __device__ const float& operator[](int i) const { return v[i]; }
};
__device__ x128 load128cs(const float* p) { float4 t = __ldcs(reinterpret_cast<const float4*>(p)); x128 r; r[0] = t.x; r[1] = t.y; r[2] = t.z; r[3] = t.w; return r; }
__device__ x128 load128(const float* p) { return *reinterpret_cast<const x128*>(p); }
__device__ void store128cs(float* p, const x128& v) { __stcs(reinterpret_cast<float4*>(p), make_float4(v[0], v[1], v[2], v[3])); }

__global__ void layernorm_forward(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                  const float* __restrict__ inp, const float* __restrict__ weight,
                                  const float* __restrict__ bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank() * 4; i < C; i += warp.size() * 4) {
    x128 p = load128cs(x + i);
#pragma unroll
    for (int k = 0; k < 4; k++) sum += p[k];
  }
  sum = cg::reduce(warp, sum, cg::plus<float>());
  float m = sum / C;
  if (warp.thread_rank() == 0) __stcs(mean + idx, m);
  sum = 0.0f;
  for (int i = warp.thread_rank() * 4; i < C; i += warp.size() * 4) {
    x128 p = load128cs(x + i);
#pragma unroll
    for (int k = 0; k < 4; k++) { float d = p[k] - m; sum += d * d; }
  }
  sum = cg::reduce(warp, sum, cg::plus<float>());
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0) __stcs(rstd + idx, s);
  float* o = out + idx * C;
  for (int i = warp.thread_rank() * 4; i < C; i += warp.size() * 4) {
    x128 p = load128cs(x + i), w = load128(weight + i), b = load128(bias + i), r;
#pragma unroll
    for (int k = 0; k < 4; k++) r[k] = s * (p[k] - m) * w[k] + b[k];
    store128cs(o + i, r);
  }
}

// Each block handles rowsPerBlock rows; dweight/dbias partials go to scratch
// (one row per block), reduced by a second kernel in a fixed order.
__global__ void layernorm_backward(float* dinp, float* scratch, const float* dout, const float* inp,
                                   const float* weight, const float* mean, const float* rstd,
                                   int N, int C, int rowsPerBlock) {
  extern __shared__ float shared[];
  float* dbias_s = shared;
  float* dweight_s = shared + C;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  for (int i = threadIdx.x; i < 2 * C; i += blockDim.x) shared[i] = 0.0f;
  block.sync();
  int nwarps = blockDim.x / 32;
  int row0 = blockIdx.x * rowsPerBlock;
  // each warp owns a set of channels to avoid shared atomics: rows are walked in order
  for (int r = 0; r < rowsPerBlock; r++) {
    int row = row0 + r;
    if (row >= N) break;
    const float* dy = dout + row * C;
    const float* x = inp + row * C;
    float m = mean[row], s = rstd[row];
    float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
      float norm = (x[i] - m) * s;
      float dnorm = weight[i] * dy[i];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    __shared__ float red[2][32];
    dnorm_mean = cg::reduce(warp, dnorm_mean, cg::plus<float>());
    dnorm_norm_mean = cg::reduce(warp, dnorm_norm_mean, cg::plus<float>());
    if (warp.thread_rank() == 0) { red[0][warp.meta_group_rank()] = dnorm_mean; red[1][warp.meta_group_rank()] = dnorm_norm_mean; }
    block.sync();
    float a = 0.0f, b = 0.0f;
    for (int w = 0; w < nwarps; w++) { a += red[0][w]; b += red[1][w]; }
    block.sync();
    a /= C; b /= C;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
      float norm = (x[i] - m) * s;
      float dnorm = weight[i] * dy[i];
      dbias_s[i] += dy[i];
      dweight_s[i] += norm * dy[i];
      float dval = dnorm - a - norm * b;
      dinp[row * C + i] = dval * s;
    }
  }
  block.sync();
  for (int i = threadIdx.x; i < 2 * C; i += blockDim.x) scratch[blockIdx.x * 2 * C + i] = shared[i];
}

__global__ void reduce_partials(float* dbias, float* dweight, const float* scratch, int nblocks, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= C) return;
  float b = 0.0f, w = 0.0f;
  for (int k = 0; k < nblocks; k++) { b += scratch[k * 2 * C + i]; w += scratch[k * 2 * C + C + i]; }
  dbias[i] = b; dweight[i] = w;
}

static unsigned lcg_state = 20261127u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }
static double dsum(const float* a, int n) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }

int main() {
  const int N = 96, C = 256, rowsPerBlock = 8;
  size_t nc = (size_t)N * C;
  float *h_inp = (float*)malloc(nc * 4), *h_dout = (float*)malloc(nc * 4), *h_w = (float*)malloc(C * 4), *h_b = (float*)malloc(C * 4);
  for (size_t i = 0; i < nc; i++) h_inp[i] = frand() * 2.0f + 0.25f;
  for (size_t i = 0; i < nc; i++) h_dout[i] = frand() * 0.5f;
  for (int i = 0; i < C; i++) { h_w[i] = 1.0f + frand() * 0.125f; h_b[i] = frand() * 0.0625f; }
  float *inp, *dout, *w, *b, *out, *mean, *rstd, *dinp, *scratch, *dw, *db;
  int nblocks = (N + rowsPerBlock - 1) / rowsPerBlock;
  CHECK(cudaMalloc(&inp, nc * 4)); CHECK(cudaMalloc(&dout, nc * 4)); CHECK(cudaMalloc(&w, C * 4)); CHECK(cudaMalloc(&b, C * 4));
  CHECK(cudaMalloc(&out, nc * 4)); CHECK(cudaMalloc(&mean, N * 4)); CHECK(cudaMalloc(&rstd, N * 4)); CHECK(cudaMalloc(&dinp, nc * 4));
  CHECK(cudaMalloc(&scratch, nblocks * 2 * C * 4)); CHECK(cudaMalloc(&dw, C * 4)); CHECK(cudaMalloc(&db, C * 4));
  CHECK(cudaMemcpy(inp, h_inp, nc * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dout, h_dout, nc * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, h_w, C * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(b, h_b, C * 4, cudaMemcpyHostToDevice));
  const int block = 128;
  layernorm_forward<<<(N * 32 + block - 1) / block, block>>>(out, mean, rstd, inp, w, b, N, C);
  CHECK(cudaGetLastError());
  layernorm_backward<<<nblocks, 256, 2 * C * sizeof(float)>>>(dinp, scratch, dout, inp, w, mean, rstd, N, C, rowsPerBlock);
  CHECK(cudaGetLastError());
  reduce_partials<<<(C + 127) / 128, 128>>>(db, dw, scratch, nblocks, C);
  CHECK(cudaDeviceSynchronize());
  float *h_out = (float*)malloc(nc * 4), *h_dinp = (float*)malloc(nc * 4), h_mean[96], h_rstd[96], h_dw[256], h_db[256];
  CHECK(cudaMemcpy(h_out, out, nc * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_dinp, dinp, nc * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_mean, mean, N * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_rstd, rstd, N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_dw, dw, C * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(h_db, db, C * 4, cudaMemcpyDeviceToHost));
  printf("out   fnv %08x sum %a\n", fnv(h_out, nc * 4), dsum(h_out, nc));
  printf("mean  fnv %08x sum %a\n", fnv(h_mean, N * 4), dsum(h_mean, N));
  printf("rstd  fnv %08x sum %a\n", fnv(h_rstd, N * 4), dsum(h_rstd, N));
  printf("dinp  fnv %08x sum %a\n", fnv(h_dinp, nc * 4), dsum(h_dinp, nc));
  printf("dw    fnv %08x sum %a\n", fnv(h_dw, C * 4), dsum(h_dw, C));
  printf("db    fnv %08x sum %a\n", fnv(h_db, C * 4), dsum(h_db, C));
  for (int i = 0; i < 4; i++) printf("row %d: mean %a rstd %a out[0] %a dinp[7] %a dw %a db %a\n", i * 31, h_mean[i * 31], h_rstd[i * 31], h_out[i * 31 * C], h_dinp[i * 31 * C + 7], h_dw[i * 31], h_db[i * 31]);
  return 0;
}
