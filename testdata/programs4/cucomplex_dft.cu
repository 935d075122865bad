// cuComplex.h: a naive DFT and its inverse in cuFloatComplex and
// cuDoubleComplex, with cuCmul/cuCdiv/cuCabs/cuConj and conversions.
#include <cstdio>
#include <cuComplex.h>

__global__ void dft(const cuFloatComplex *x, cuFloatComplex *X, int n, int sign) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  cuFloatComplex acc = make_cuFloatComplex(0, 0);
  for (int j = 0; j < n; j++) {
    float s, c;
    sincospif(sign * 2.0f * ((j * k) % n) / n, &s, &c);
    acc = cuCaddf(acc, cuCmulf(x[j], make_cuFloatComplex(c, s)));
  }
  if (sign > 0) acc = make_cuFloatComplex(cuCrealf(acc) / n, cuCimagf(acc) / n);
  X[k] = acc;
}
__global__ void dops(const cuDoubleComplex *a, double *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  cuDoubleComplex z = a[i], w = cuConj(a[(i + 1) % n]);
  cuDoubleComplex q = cuCdiv(z, cuCadd(w, make_cuDoubleComplex(0.5, 0)));
  cuDoubleComplex f = cuCfma(z, w, q);
  cuFloatComplex zf = cuComplexDoubleToFloat(f);
  out[4 * i] = cuCreal(q);
  out[4 * i + 1] = cuCimag(q);
  out[4 * i + 2] = cuCabs(cuCsub(f, z));
  out[4 * i + 3] = cuCabsf(zf) + cuCrealf(cuCdivf(zf, make_cuComplex(3.0f, -4.0f)));
}

int main() {
  const int n = 64;
  cuFloatComplex h[n], H[n], back[n];
  for (int i = 0; i < n; i++) h[i] = make_cuFloatComplex(i % 5 - 2.0f, (i * 3) % 7 * 0.5f);
  cuFloatComplex *dx, *dX, *dy;
  cudaMalloc(&dx, sizeof h); cudaMalloc(&dX, sizeof h); cudaMalloc(&dy, sizeof h);
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  dft<<<2, 32>>>(dx, dX, n, -1);
  dft<<<2, 32>>>(dX, dy, n, 1);
  cudaMemcpy(H, dX, sizeof H, cudaMemcpyDeviceToHost);
  cudaMemcpy(back, dy, sizeof back, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 6; k++) printf("X[%d] = %a %a\n", k, cuCrealf(H[k]), cuCimagf(H[k]));
  float err = 0;
  unsigned ck = 0;
  for (int i = 0; i < n; i++) {
    err = fmaxf(err, cuCabsf(cuCsubf(back[i], h[i])));
    ck = ck * 31 + *(unsigned *)&H[i].x * 7 + *(unsigned *)&H[i].y;
  }
  printf("roundtrip max error %a checksum %08x\n", err, ck);
  cuDoubleComplex a[16];
  for (int i = 0; i < 16; i++) a[i] = make_cuDoubleComplex(1.0 / (i + 1), i - 7.5);
  cuDoubleComplex *da;
  double *dout, r[64];
  cudaMalloc(&da, sizeof a); cudaMalloc(&dout, sizeof r);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  dops<<<1, 16>>>(da, dout, 16);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 16; i += 5) printf("%d: %a %a %a %a\n", i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
  cuDoubleComplex hq = cuCdiv(a[3], a[9]);
  printf("host %a %a abs %a\n", cuCreal(hq), cuCimag(hq), cuCabs(a[5]));
  return 0;
}
