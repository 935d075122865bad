// cp.async through the CUDA pipeline primitives and an awbarrier: a 3-stage
// pipelined tile sum with zero fill, then a barrier-completed copy.
#include <cstdio>
#include <cuda_pipeline.h>
#include <cuda_awbarrier_primitives.h>

#define T 256
#define STAGES 3
__global__ void tiles(const float* in, float* out, int ntiles) {
  __shared__ __align__(16) float buf[STAGES][T];
  int t = threadIdx.x;
  float acc = 0.f;
  for (int s = 0; s < STAGES - 1; s++) {
    if (s < ntiles) __pipeline_memcpy_async(&buf[s][t], &in[s * T + t], 4, (t % 7 == 3) ? 4 : 0);
    __pipeline_commit();
  }
  for (int i = 0; i < ntiles; i++) {
    int n = i + STAGES - 1;
    if (n < ntiles) __pipeline_memcpy_async(&buf[n % STAGES][t], &in[n * T + t], 4, (t % 7 == 3) ? 4 : 0);
    __pipeline_commit();
    __pipeline_wait_prior(STAGES - 1);
    __syncthreads();
    acc = acc * 0.5f + buf[i % STAGES][(t * 13 + i) % T];
    __syncthreads();
  }
  out[t] = acc;
}

__global__ void barrier_copy(const float4* in, float* out) {
  __shared__ __align__(16) float4 sm[128];
  __shared__ __mbarrier_t bar;
  int t = threadIdx.x;
  if (t == 0) __mbarrier_init(&bar, blockDim.x);  // __pipeline_arrive_on adds and fires its own arrival
  __syncthreads();
  __pipeline_memcpy_async(&sm[t], &in[t], 16, (t % 5) * 4);
  __pipeline_arrive_on(&bar);
  __mbarrier_token_t tok = __mbarrier_arrive(&bar);
  while (!__mbarrier_test_wait(&bar, tok)) {
  }
  float4 v = sm[(t * 3) % 128];
  out[t] = v.x + 2.f * v.y + 4.f * v.z + 8.f * v.w;
}

int main() {
  const int ntiles = 9;
  static float h[ntiles * T], o[T];
  for (int i = 0; i < ntiles * T; i++) h[i] = (float)((i * 7919) % 1009) * 0.0625f - 30.f;
  float *d, *dout;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dout, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  tiles<<<1, T>>>(d, dout, ntiles);
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < T; i++) printf("%.9g%c", o[i], i % 8 == 7 ? '\n' : ' ');
  barrier_copy<<<1, 128>>>((const float4*)d, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(o, dout, 128 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; i++) printf("%.9g%c", o[i], i % 8 == 7 ? '\n' : ' ');
  return 0;
}
