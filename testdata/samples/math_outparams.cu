// Math functions that return a second result through a pointer (frexp's
// exponent, modf's integral part, sincos's cosine, remquo's quotient),
// with the pointer into a thread's local memory, shared memory and global
// memory. cuda-samples' eigenvalues rounds its thread counts to powers of
// two with frexp (ceilPow2); when the exponent was not stored, its first
// kernel found 1 interval instead of 32 and the next launch had an empty
// grid ("invalid argument").
#include <cstdio>

__device__ int ceilPow2(int n) {
  if (0 == (n & (n - 1))) return n;
  int exp;
  frexp((float)n, &exp);
  return 1 << exp;
}

struct Out {
  float frf, mff, mfi, sf, cf, spf, cpf, rqf;
  double frd, mdd, mdi, sd, cd, rqd;
  int ef, ed, qf, qd, pow2, shexp, glexp;
};

__global__ void k(Out *out, int *gexp) {
  __shared__ int sexp[8];
  int t = threadIdx.x;
  Out o;
  float x = (t + 1) * 3.3f - 7.0f;
  double y = (t + 1) * 2.7 - 5.0;
  o.frf = frexpf(x, &o.ef);       // local (o lives in local memory)
  o.frd = frexp(y, &o.ed);
  o.mff = modff(x, &o.mfi);
  o.mdd = modf(y, &o.mdi);
  sincosf(x, &o.sf, &o.cf);
  sincos(y, &o.sd, &o.cd);
  sincospif(x, &o.spf, &o.cpf);
  o.rqf = remquof(x, 1.5f, &o.qf);
  o.rqd = remquo(y, 0.7, &o.qd);
  o.pow2 = ceilPow2(t * 5 + 3);
  frexpf(x * 100.0f, &sexp[t]);   // shared
  frexp(y * 1e-3, &gexp[t]);      // global
  __syncthreads();
  o.shexp = sexp[(t + 1) % blockDim.x];
  o.glexp = gexp[t];
  out[t] = o;
}

int main() {
  const int n = 8;
  Out *d, h[n];
  int *g;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&g, n * sizeof(int));
  cudaMemset(d, 0, sizeof h);
  cudaMemset(g, 0, n * sizeof(int));
  k<<<1, n>>>(d, g);
  cudaError_t err = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    Out &o = h[i];
    printf("%d frexpf %a %d frexp %a %d modff %a %a modf %a %a\n", i, o.frf, o.ef, o.frd, o.ed, o.mff, o.mfi, o.mdd, o.mdi);
    printf("%d sincosf %a %a sincos %a %a sincospif %a %a\n", i, o.sf, o.cf, o.sd, o.cd, o.spf, o.cpf);
    printf("%d remquof %a %d remquo %a %d ceilPow2 %d shared %d global %d\n", i, o.rqf, o.qf, o.rqd, o.qd, o.pow2, o.shexp, o.glexp);
  }
  printf("%s\n", cudaGetErrorString(err));
  return 0;
}
