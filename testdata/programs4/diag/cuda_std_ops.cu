// Diagnostic for cuda_std: each complex operation of its kernel separately.
#include <cstdio>
#include <cuda/std/complex>
typedef cuda::std::complex<float> C;
__global__ void ops(unsigned *o) {
  int t = threadIdx.x;
  C z(0.5f + t * 0.01f, -0.25f * t);
  C a = z * z, b = C(1.0f, 2.0f) / (z + 1.0f), w = a + b, c = w * 0.1f, d = cuda::std::conj(z) * cuda::std::norm(z), e = c + d;
  float n = cuda::std::norm(z);
  C r[6] = {a, b, w, c, d, e};
  for (int i = 0; i < 6; i++) { o[t * 13 + 2 * i] = __float_as_uint(r[i].real()); o[t * 13 + 2 * i + 1] = __float_as_uint(r[i].imag()); }
  o[t * 13 + 12] = __float_as_uint(n);
}
int main() {
  unsigned *d, h[64 * 13];
  cudaMalloc(&d, sizeof h);
  ops<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; t++) {
    printf("%2d", t);
    for (int i = 0; i < 13; i++) printf(" %08x", h[t * 13 + i]);
    printf("\n");
  }
  return 0;
}
