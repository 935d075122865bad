// libcu++ in kernels: cuda::atomic_ref, cuda::std::complex, <cuda/std/bit>,
// numeric_limits, array, cuda::std::atomic with scopes.
#include <cstdio>
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/complex>
#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/array>
#include <cuda/std/utility>

__global__ void kernel(int *counter, unsigned long long *bits, float *cf, double *lim, cuda::std::atomic<int> *ga) {
  int t = threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(*counter);
  ref.fetch_add(t, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_device> mref(counter[1]);
  mref.fetch_max(1000 + t * 7 % 64);
  ga->fetch_sub(1);
  __shared__ int sh;
  if (t == 0) sh = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> sref(sh);
  sref.fetch_or(1 << (t % 31));
  __syncthreads();
  unsigned x = 0x00f0u << (t % 20) | t;
  unsigned long long r = cuda::std::popcount(x) | cuda::std::countl_zero(x) << 8 | cuda::std::countr_zero(x | 0x80000000u) << 16;
  r |= (unsigned long long)cuda::std::bit_width(x) << 24 | (unsigned long long)cuda::std::bit_ceil(x & 0xffff) << 32;
  r ^= cuda::std::rotl(0x12345678u, t) ^ cuda::std::bit_cast<unsigned>(1.5f * t);
  bits[t] = r + (t == 0 ? (unsigned)sref.load() : 0);
  cuda::std::complex<float> z(0.5f + t * 0.01f, -0.25f * t);
  cuda::std::complex<float> w = z * z + cuda::std::complex<float>(1.0f, 2.0f) / (z + 1.0f);
  w = w * 0.1f + cuda::std::conj(z) * cuda::std::norm(z);
  cf[2 * t] = w.real();
  cf[2 * t + 1] = w.imag();
  if (t == 0) {
    cuda::std::array<double, 6> a = {cuda::std::numeric_limits<double>::epsilon(), cuda::std::numeric_limits<float>::min(),
                                     (double)cuda::std::numeric_limits<int>::max(), cuda::std::numeric_limits<float>::denorm_min(),
                                     (double)cuda::std::numeric_limits<long long>::lowest(), cuda::std::numeric_limits<double>::infinity()};
    for (int i = 0; i < 6; i++) lim[i] = a[i];
    auto p = cuda::std::make_pair(3, 4.5);
    lim[6] = p.first * p.second;
  }
}

int main() {
  int *c;
  unsigned long long *b, hb[64];
  float *cf, hcf[128];
  double *lim, hl[7];
  cuda::std::atomic<int> *ga;
  cudaMalloc(&c, 8); cudaMalloc(&b, sizeof hb); cudaMalloc(&cf, sizeof hcf); cudaMalloc(&lim, sizeof hl);
  cudaMallocManaged(&ga, sizeof *ga);
  new (ga) cuda::std::atomic<int>(100);
  cudaMemset(c, 0, 8);
  kernel<<<1, 64>>>(c, b, cf, lim, ga);
  cudaDeviceSynchronize();
  int hc[2];
  cudaMemcpy(hc, c, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(hcf, cf, sizeof hcf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, lim, sizeof hl, cudaMemcpyDeviceToHost);
  printf("counter %d max %d atomic %d\n", hc[0], hc[1], ga->load());
  for (int i = 0; i < 64; i += 9) printf("bits[%d] %016llx cf %a %a\n", i, hb[i], hcf[2 * i], hcf[2 * i + 1]);
  unsigned long long ck = 0;
  for (int i = 0; i < 64; i++) ck = ck * 1315423911ULL + hb[i];
  for (int i = 0; i < 128; i++) ck = ck * 31 + *(unsigned *)&hcf[i];
  printf("checksum %016llx\n", ck);
  for (int i = 0; i < 7; i++) printf("%a ", hl[i]);
  printf("\n");
  return 0;
}
