// Asynchronous copies and mbarriers on the H100. Writes out/async.bin:
//  [0, 128)        f32  pipe: double-buffered cp.async.cg 16-byte pipeline (commit/wait_group 1)
//  [128, 128+1024) u32  zfill: shared tile after cp.async with src-size zero fill (4/8/16 bytes)
//  [1152, 1152+128) f32 mbcp: cp.async + cp.async.mbarrier.arrive.noinc, waited by try_wait.parity
//  [1280, 1280+2*64) u64 mbseq: one thread's mbarrier sequence (raw object word and results)
//  [1408, 1408+128) u32 mbwait: per thread, phase parity seen after two rounds of arrive/wait
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__global__ void pipe(const float* g, float* out, int ntiles) {
  __shared__ __align__(16) float buf[2][512];
  int t = threadIdx.x;
  float acc = 0.f;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&buf[0][t * 4])), "l"(g + t * 4));
  asm volatile("cp.async.commit_group;\n" ::);
  for (int i = 0; i < ntiles; i++) {
    if (i + 1 < ntiles)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa(&buf[(i + 1) & 1][t * 4])), "l"(g + (i + 1) * 512 + t * 4));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    acc += buf[i & 1][t] * (float)(i + 1) + buf[i & 1][(t * 5) % 512];
    __syncthreads();
  }
  out[t] = acc;
}

__global__ void zfill(const unsigned* g, unsigned* out) {
  __shared__ __align__(16) unsigned sm[1024];
  int t = threadIdx.x;  // 64 threads, each owns 16 words
  for (int i = t; i < 1024; i += 64) sm[i] = 0xABABABABu;
  __syncthreads();
  unsigned* my = sm + t * 16;
  const unsigned* src = g + t * 16;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(sa(my)), "l"(src), "r"(t % 5));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(sa(my + 2)), "l"(src + 2), "r"(t % 9));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa(my + 4)), "l"(src + 4), "r"(t % 17));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(sa(my + 8)), "l"(src + 8));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  for (int i = t; i < 1024; i += 64) out[i] = sm[i];
}

__global__ void mbcp(const float* g, float* out) {
  __shared__ __align__(16) float buf[512];
  __shared__ __align__(8) uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(128));
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::);
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(sa(&buf[t * 4])), "l"(g + t * 4));
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(sa(&bar)));
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\n"
                 : "=r"(done) : "r"(sa(&bar)), "r"(0));
  out[t] = buf[(t * 7) % 512] + buf[t];
}

__device__ unsigned tw(uint64_t* bar, uint64_t st) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\n" : "=r"(r) : "r"(sa(bar)), "l"(st));
  return r;
}
__device__ unsigned twp(uint64_t* bar, unsigned par) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\n" : "=r"(r) : "r"(sa(bar)), "r"(par));
  return r;
}
__device__ unsigned pc(uint64_t st) {
  unsigned r;
  asm volatile("mbarrier.pending_count.b64 %0, %1;\n" : "=r"(r) : "l"(st));
  return r;
}

__global__ void mbseq(uint64_t* out, unsigned* out2) {
  __shared__ __align__(8) uint64_t bar, bar2;
  int t = threadIdx.x;
  if (t == 0) {
    int k = 0;
#define R(x) out[k++] = (uint64_t)(x)
    uint64_t s1, s2, s3, s4;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(3));
    R(bar);
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];\n" : "=l"(s1) : "r"(sa(&bar)));
    R(s1); R(bar); R(pc(s1)); R(tw(&bar, s1)); R(twp(&bar, 0)); R(twp(&bar, 1));
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;\n" : "=l"(s2) : "r"(sa(&bar)), "r"(2));
    R(s2); R(bar); R(pc(s2)); R(tw(&bar, s1)); R(tw(&bar, s2)); R(twp(&bar, 0)); R(twp(&bar, 1));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;\n" : "=l"(s3) : "r"(sa(&bar)), "r"(64));
    R(s3); R(bar); R(pc(s3)); R(tw(&bar, s3)); R(twp(&bar, 1));
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(32));
    R(bar);
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;\n" : "=l"(s4) : "r"(sa(&bar)), "r"(2));
    R(s4); R(bar); R(tw(&bar, s3)); R(twp(&bar, 1));
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(90));
    R(bar); R(tw(&bar, s3)); R(twp(&bar, 1));
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(6));
    R(bar); R(tw(&bar, s3)); R(twp(&bar, 1)); R(twp(&bar, 0));
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(sa(&bar)));
    R(bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar)), "r"(1));
    R(bar);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;\n" : "=l"(s1) : "r"(sa(&bar)), "r"(16));
    R(s1); R(bar); R(twp(&bar, 0));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sa(&bar2)), "r"(128));
    R(bar2);
    while (k < 64) R(0xFFFFFFFFFFFFFFFFull);
  }
  __syncthreads();
  // every thread: two rounds of arrive + wait on bar2
  unsigned seen = 0;
  for (int round = 0; round < 2; round++) {
    uint64_t st;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];\n" : "=l"(st) : "r"(sa(&bar2)));
    unsigned done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\n"
                   : "=r"(done) : "r"(sa(&bar2)), "l"(st));
    seen = seen * 16 + twp(&bar2, 0) * 2 + twp(&bar2, 1);
    __syncthreads();
  }
  out2[t] = seen;
}

int main() {
  const int ntiles = 6;
  static float hg[ntiles * 512];
  for (int i = 0; i < ntiles * 512; i++) hg[i] = (float)((i * 37) % 101) * 0.125f - 3.0f;
  float* dg;
  cudaMalloc(&dg, sizeof hg);
  cudaMemcpy(dg, hg, sizeof hg, cudaMemcpyHostToDevice);
  void* dout;
  const size_t nbytes = 4 * (128 + 1024 + 128) + 8 * 64 + 4 * 128;
  cudaMalloc(&dout, nbytes);
  cudaMemset(dout, 0xEE, nbytes);
  char* o = (char*)dout;
  pipe<<<1, 128>>>(dg, (float*)o, ntiles);
  zfill<<<1, 64>>>((const unsigned*)dg, (unsigned*)(o + 4 * 128));
  mbcp<<<1, 128>>>(dg, (float*)(o + 4 * (128 + 1024)));
  mbseq<<<1, 128>>>((uint64_t*)(o + 4 * 1280), (unsigned*)(o + 4 * 1280 + 8 * 64));
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("async: %s\n", cudaGetErrorString(e)); return 1; }
  static char h[nbytes];
  cudaMemcpy(h, dout, nbytes, cudaMemcpyDeviceToHost);
  FILE* f = fopen("out/async.bin", "wb");
  fwrite(h, 1, nbytes, f);
  fclose(f);
  FILE* g = fopen("out/async_input.bin", "wb");
  fwrite(hg, 1, sizeof hg, g);
  fclose(g);
  uint64_t* seq = (uint64_t*)(h + 4 * 1280);
  for (int i = 0; i < 40; i++) printf("mbseq[%d] = %016llx\n", i, (unsigned long long)seq[i]);
  printf("async ok pipe[0]=%g\n", ((float*)h)[0]);
  return 0;
}
