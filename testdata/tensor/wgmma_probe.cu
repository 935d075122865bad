// Raw wgmma probe: one warpgroup (128 threads) per test case copies A (64xK)
// and B (8xK, K-major) from in/wgmma_<name>.bin into shared memory in the
// no-swizzle K-major core-matrix layout (8 rows x 16 bytes per core matrix,
// LBO = 128 between core matrices along K, SBO = 256 between 8-row groups),
// loads C into the m64n8 f32 accumulator fragment, runs one
// wgmma.mma_async.m64n8kK and writes D (64x8 f32, row-major) to
// out/wgmma_<name>.bin. Built per variant with -DVAR=0..4.
#include <cstdio>
#include <cstdint>
#include <vector>

#if VAR == 0
#define NAME "m64n8k16_f32_f16_f16"
#define K 16
#define EB 2
#define MMA "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;"
#elif VAR == 1
#define NAME "m64n8k16_f32_bf16_bf16"
#define K 16
#define EB 2
#define MMA "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;"
#elif VAR == 2
#define NAME "m64n8k8_f32_tf32_tf32"
#define K 8
#define EB 4
#define MMA "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, p, 1, 1;"
#elif VAR == 3
#define NAME "m64n8k32_f32_e4m3_e4m3"
#define K 32
#define EB 1
#define MMA "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, %4, %5, p, 1, 1;"
#else
#define NAME "m64n8k32_f32_e5m2_e5m2"
#define K 32
#define EB 1
#define MMA "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2 {%0,%1,%2,%3}, %4, %5, p, 1, 1;"
#endif
#define ABYTES (64 * K * EB)
#define BBYTES (8 * K * EB)
#define CASEBYTES (ABYTES + BBYTES + 64 * 8 * 4)

__device__ __forceinline__ uint64_t desc(const void* p) {
  uint64_t a = (uint64_t)__cvta_generic_to_shared(p);
  return ((a & 0x3FFFF) >> 4) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
}

__global__ void probe(const unsigned char* in, float* out) {
  __shared__ __align__(1024) unsigned char sa[2048];
  __shared__ __align__(1024) unsigned char sb[256];
  const unsigned char* A = in + (size_t)blockIdx.x * CASEBYTES;
  const unsigned char* B = A + ABYTES;
  const float* C = (const float*)(B + BBYTES);
  int t = threadIdx.x;
  for (int e = t; e < 64 * K; e += 128) {
    int m = e / K, k = e % K, kb = k * EB;
    int off = (m % 8) * 16 + (m / 8) * 256 + (kb % 16) + (kb / 16) * 128;
    for (int b = 0; b < EB; b++) sa[off + b] = A[e * EB + b];
  }
  for (int e = t; e < 8 * K; e += 128) {
    int n = e / K, k = e % K, kb = k * EB;
    int off = (n % 8) * 16 + (kb % 16) + (kb / 16) * 128;
    for (int b = 0; b < EB; b++) sb[off + b] = B[e * EB + b];
  }
  int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  float d[4];
  for (int i = 0; i < 4; i++) d[i] = C[(16 * w + g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint64_t da = desc(sa), db = desc(sb);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %6, 0;\n" MMA "\n}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 0; i < 4; i++) out[(size_t)blockIdx.x * 512 + (16 * w + g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = d[i];
}

int main() {
  char path[256];
  snprintf(path, sizeof path, "in/wgmma_%s.bin", NAME);
  FILE* f = fopen(path, "rb");
  if (!f) { printf("%s: no input\n", NAME); return 1; }
  std::vector<unsigned char> h;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) h.insert(h.end(), buf, buf + n);
  fclose(f);
  int T = (int)(h.size() / CASEBYTES);
  unsigned char* din;
  float* dout;
  cudaMalloc(&din, h.size());
  cudaMalloc(&dout, (size_t)T * 512 * 4);
  cudaMemcpy(din, h.data(), h.size(), cudaMemcpyHostToDevice);
  probe<<<T, 128>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("%s: %s\n", NAME, cudaGetErrorString(e)); return 1; }
  std::vector<float> o((size_t)T * 512);
  cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost);
  snprintf(path, sizeof path, "out/wgmma_%s.bin", NAME);
  f = fopen(path, "wb");
  fwrite(o.data(), 4, o.size(), f);
  fclose(f);
  printf("wgmma %s: %d cases ok\n", NAME, T);
  return 0;
}
