// Math library corners and integer intrinsics, float results in hex.
#include <cstdio>
#include <cstring>
#include <cmath>

__global__ void fmath(const float *x, unsigned *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], s, c;
  sincospif(v, &s, &c);
  int q, e;
  float r = remquof(v * 7.0f, 2.5f, &q);
  float m = frexpf(v * 1000.0f, &e);
  unsigned *p = o + i * 12;
  p[0] = __float_as_uint(s);
  p[1] = __float_as_uint(c);
  p[2] = __float_as_uint(erfcinvf(fminf(fabsf(v), 1.99f)));
  p[3] = __float_as_uint(lgammaf(v * 10.0f));
  p[4] = __float_as_uint(nextafterf(v, 0.0f));
  p[5] = __float_as_uint(r) ^ (unsigned)q;
  p[6] = __float_as_uint(ldexpf(m, e - 3)) + e;
  p[7] = __float_as_uint(__fdividef(v, 3.0f + v));
  p[8] = __float_as_uint(cbrtf(v) + hypotf(v, 2.0f));
  p[9] = __float_as_uint(expm1f(v) * log1pf(fabsf(v)));
  p[10] = __float_as_uint(rsqrtf(fabsf(v) + 1.0f));
  p[11] = __float_as_uint(tgammaf(v + 3.0f));
}

__global__ void dmath(const double *x, unsigned long long *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i], s, c;
  sincospi(v, &s, &c);
  int q;
  unsigned long long *p = o + i * 6;
  p[0] = __double_as_longlong(s) ^ __double_as_longlong(c);
  p[1] = __double_as_longlong(erfcinv(fmin(fabs(v), 1.99)));
  p[2] = __double_as_longlong(lgamma(v * 10.0));
  p[3] = __double_as_longlong(nextafter(v, 1e300));
  p[4] = __double_as_longlong(remquo(v * 7.0, 2.5, &q)) + q;
  p[5] = __double_as_longlong(erf(v) + atan2(v, 0.75) + pow(fabs(v), 1.5));
}

__global__ void imath(const unsigned *a, unsigned *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = a[(i + 7) % n];
  unsigned long long w = ((unsigned long long)x << 32) | y;
  unsigned *p = o + i * 14;
  p[0] = __sad((int)x, (int)y, 5u);
  p[1] = __byte_perm(x, y, 0x5140);
  p[2] = __byte_perm(x, y, 0x7a3c);
  p[3] = __funnelshift_l(x, y, i);
  p[4] = __funnelshift_r(x, y, i + 3);
  p[5] = __funnelshift_lc(x, y, i * 3);
  p[6] = (unsigned)(__brevll(w) >> 7);
  p[7] = __clzll((long long)(w >> (i % 64))) | (__ffsll((long long)w) << 8) | (__popcll(w) << 16);
  p[8] = __hadd((int)x, (int)y);
  p[9] = __rhadd((int)x, (int)y);
  p[10] = __uhadd(x, y) ^ __urhadd(x, y);
  p[11] = __mulhi((int)x, (int)y) ^ __umulhi(x, y);
  p[12] = (unsigned)(__umul64hi(w, w + 12345) ^ __mul64hi((long long)w, -(long long)y));
  p[13] = __brev(x) ^ __clz((int)y) ^ __ffs((int)x) ^ __popc(y) ^ __usad(x, y, 1u);
}

int main() {
  const int n = 64;
  float hx[n];
  double hd[n];
  unsigned hu[n];
  unsigned s = 12345;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    hu[i] = s;
    hx[i] = (float)((int)(s >> 8) - (1 << 23)) / (1 << 21);
    hd[i] = (double)hx[i] * 1.0000001;
  }
  hx[0] = 0.5f; hx[1] = -0.0f; hx[2] = 1e-39f; hx[3] = 0.25f; hx[4] = 2.0f;
  hd[0] = 0.5; hd[1] = -0.0; hd[2] = 1e-310; hd[3] = 1.0;
  float *dx; double *dd; unsigned *du, *fo, *io; unsigned long long *dout;
  cudaMalloc(&dx, sizeof hx); cudaMalloc(&dd, sizeof hd); cudaMalloc(&du, sizeof hu);
  cudaMalloc(&fo, n * 12 * 4); cudaMalloc(&io, n * 14 * 4); cudaMalloc(&dout, n * 6 * 8);
  cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
  cudaMemcpy(du, hu, sizeof hu, cudaMemcpyHostToDevice);
  fmath<<<2, 32>>>(dx, fo, n);
  dmath<<<2, 32>>>(dd, dout, n);
  imath<<<2, 32>>>(du, io, n);
  static unsigned hf[n * 12], hi[n * 14];
  static unsigned long long hdo[n * 6];
  cudaMemcpy(hf, fo, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, io, sizeof hi, cudaMemcpyDeviceToHost);
  cudaMemcpy(hdo, dout, sizeof hdo, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(e));
  for (int i = 0; i < n; i++) {
    if (i < 8) {
      printf("f%02d", i);
      for (int j = 0; j < 12; j++) printf(" %08x", hf[i * 12 + j]);
      printf("\nd%02d", i);
      for (int j = 0; j < 6; j++) printf(" %016llx", hdo[i * 6 + j]);
      printf("\ni%02d", i);
      for (int j = 0; j < 14; j++) printf(" %08x", hi[i * 14 + j]);
      printf("\n");
    }
  }
  unsigned long long cf = 0, cd = 0, ci = 0;
  for (int i = 0; i < n * 12; i++) cf = cf * 1000003 + hf[i];
  for (int i = 0; i < n * 6; i++) cd = cd * 1000003 + hdo[i];
  for (int i = 0; i < n * 14; i++) ci = ci * 1000003 + hi[i];
  printf("checksums %016llx %016llx %016llx\n", cf, cd, ci);
  return 0;
}
