// A k-means iteration: points to the nearest centroid (squared distance,
// ties to the lower index), per-block shared-memory partial sums in fixed
// point (integer atomics, so the sums are exact), new centroids, and the
// count of points that changed cluster; five iterations.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define K 8
#define D 4
#define FIX 65536.0f

__constant__ float c_centroids[K * D];

__global__ void assign(const float* __restrict__ pts, int* __restrict__ label, int* changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = 3.402823466e38f; int bi = 0;
#pragma unroll
  for (int k = 0; k < K; k++) {
    float d2 = 0.0f;
#pragma unroll
    for (int d = 0; d < D; d++) { float t = pts[i * D + d] - c_centroids[k * D + d]; d2 = fmaf(t, t, d2); }
    if (d2 < best) { best = d2; bi = k; }
  }
  if (label[i] != bi) { atomicAdd(changed, 1); label[i] = bi; }
}

__global__ void accumulate(const float* __restrict__ pts, const int* __restrict__ label, long long* sums, int* counts, int n) {
  __shared__ long long s_sum[K * D];
  __shared__ int s_cnt[K];
  for (int t = threadIdx.x; t < K * D; t += blockDim.x) s_sum[t] = 0;
  for (int t = threadIdx.x; t < K; t += blockDim.x) s_cnt[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int k = label[i];
    for (int d = 0; d < D; d++) atomicAdd((unsigned long long*)&s_sum[k * D + d], (unsigned long long)(long long)__float2ll_rn(pts[i * D + d] * FIX));
    atomicAdd(&s_cnt[k], 1);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < K * D; t += blockDim.x) atomicAdd((unsigned long long*)&sums[t], (unsigned long long)s_sum[t]);
  for (int t = threadIdx.x; t < K; t += blockDim.x) atomicAdd(&counts[t], s_cnt[t]);
}

__global__ void update(float* newc, const long long* sums, const int* counts) {
  int t = threadIdx.x;
  if (t < K * D) {
    int c = counts[t / D];
    newc[t] = c > 0 ? (float)((double)sums[t] / (double)c / 65536.0) : 0.0f;
  }
}

static unsigned lcg_state = 8086u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }

int main() {
  const int n = 20000;
  float* h = (float*)malloc(n * D * 4);
  for (int i = 0; i < n; i++) {
    int c = lcg() % K;
    for (int d = 0; d < D; d++) h[i * D + d] = (float)((c * 5 + d * 3) % 11) + frand();
  }
  float hc[K * D];
  for (int k = 0; k < K; k++) for (int d = 0; d < D; d++) hc[k * D + d] = h[(k * 97) * D + d];
  float *pts, *newc; int *label, *changed, *counts; long long* sums;
  CHECK(cudaMalloc(&pts, n * D * 4)); CHECK(cudaMalloc(&label, n * 4)); CHECK(cudaMalloc(&changed, 4));
  CHECK(cudaMalloc(&sums, K * D * 8)); CHECK(cudaMalloc(&counts, K * 4)); CHECK(cudaMalloc(&newc, K * D * 4));
  CHECK(cudaMemcpy(pts, h, n * D * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(label, 0xff, n * 4));
  CHECK(cudaMemcpyToSymbol(c_centroids, hc, sizeof hc));
  for (int it = 0; it < 5; it++) {
    CHECK(cudaMemset(changed, 0, 4)); CHECK(cudaMemset(sums, 0, K * D * 8)); CHECK(cudaMemset(counts, 0, K * 4));
    assign<<<(n + 255) / 256, 256>>>(pts, label, changed, n);
    accumulate<<<32, 256>>>(pts, label, sums, counts, n);
    update<<<1, 64>>>(newc, sums, counts);
    CHECK(cudaMemcpyToSymbol(c_centroids, newc, K * D * 4, 0, cudaMemcpyDeviceToDevice));
    int ch, cnt[K];
    CHECK(cudaMemcpy(&ch, changed, 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(cnt, counts, sizeof cnt, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(hc, c_centroids, sizeof hc));
    printf("iter %d changed %d counts", it, ch);
    for (int k = 0; k < K; k++) printf(" %d", cnt[k]);
    printf(" c0 %a %a c7 %a %a\n", hc[0], hc[1], hc[28], hc[31]);
  }
  return 0;
}
