// cp.async.bulk global->shared completing on an mbarrier (arrive.expect_tx,
// try_wait.parity over two phases), then cp.async.bulk shared->global with
// bulk groups. Prints the output.
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void wait_parity(uint64_t* bar, unsigned par) {
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(sa(bar)), "r"(par) : "memory");
}

__global__ void bulk(const float* in, float* out) {
  __shared__ __align__(128) float buf[2][256];
  __shared__ __align__(128) float res[256];
  __shared__ __align__(8) uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(&bar)), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0.f;
  for (int phase = 0; phase < 2; phase++) {
    if (t == 0) {
      uint64_t st;
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(sa(&bar)), "r"(1024) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                   ::"r"(sa(buf[phase])), "l"(in + phase * 256), "r"(512), "r"(sa(&bar)) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                   ::"r"(sa(buf[phase] + 128)), "l"(in + phase * 256 + 128), "r"(512), "r"(sa(&bar)) : "memory");
    }
    wait_parity(&bar, phase & 1);
    acc += buf[phase][(t * 7 + phase) % 256] * (phase + 1.5f);
    __syncthreads();  // nobody may fall two phases behind a parity wait
  }
  res[t] = acc;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out), "r"(sa(res)), "r"(1024) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

int main() {
  static float h[512], o[256];
  for (int i = 0; i < 512; i++) h[i] = (float)((i * 613) % 211) * 0.25f - 20.f;
  float *d, *dout;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dout, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof o);
  bulk<<<1, 256>>>(d, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; i++) printf("%.9g%c", o[i], i % 8 == 7 ? '\n' : ' ');
  return 0;
}
