// Templated kernels and device functions: one saxpy for float, double and
// int, a functor parameter, and a template-size shared array.
#include "check.h"
template <typename T> struct Scale { T k; __device__ T operator()(T x) const { return k * x; } };
template <typename T, typename F> __global__ void apply(T *y, const T *x, F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f(x[i]) + y[i];
}
template <int N> __global__ void blockSum(const int *in, int *out) {
  __shared__ int s[N];
  s[threadIdx.x] = in[blockIdx.x * N + threadIdx.x];
  __syncthreads();
  for (int k = N / 2; k > 0; k /= 2) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
template <typename T> bool run(const char *name, T k) {
  const int n = 1000;
  T hx[n], hy[n], r[n];
  for (int i = 0; i < n; i++) { hx[i] = (T)(i % 10); hy[i] = (T)(i % 3); }
  T *dx, *dy;
  CHECK(cudaMalloc(&dx, sizeof hx)); CHECK(cudaMalloc(&dy, sizeof hy));
  CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
  apply<<<(n + 127) / 128, 128>>>(dy, dx, Scale<T>{k}, n);
  CHECK(cudaMemcpy(r, dy, sizeof r, cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < n; i++) { if (r[i] != k * hx[i] + hy[i]) return false; sum += r[i]; }
  printf("%s saxpy sum %.2f\n", name, sum);
  cudaFree(dx); cudaFree(dy);
  return true;
}
int main() {
  bool ok = run<float>("float", 2.5f) && run<double>("double", -1.25) && run<int>("int", 3);
  int h[4 * 64], out[4], *din, *dout;
  for (int i = 0; i < 4 * 64; i++) h[i] = i;
  CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
  blockSum<64><<<4, 64>>>(din, dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; b++) { printf("blockSum<64> block %d = %d\n", b, out[b]); ok &= out[b] == 64 * 64 * b + 63 * 32; }
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
