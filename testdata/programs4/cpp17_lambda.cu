// C++17 in kernels: variadic templates, fold expressions, if constexpr,
// constexpr functions, structured bindings, and __device__ lambdas passed
// to a templated kernel (nvcc --extended-lambda).
#include <cstdio>
#include <type_traits>
#include <utility>

template <typename... Ts> __device__ auto sumAll(Ts... xs) { return (xs + ... + 0); }

template <typename T> __device__ T transformOne(T x) {
  if constexpr (std::is_floating_point_v<T>) return x * T(1.5) + T(0.25);
  else if constexpr (sizeof(T) == 8) return x * 3 - 1;
  else return x ^ 0x55;
}

__host__ __device__ constexpr int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static_assert(fib(10) == 55);

struct Pair { int a; float b; };

template <typename F> __global__ void apply(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <typename T, int N> __global__ void typed(T *out) {
  int i = threadIdx.x;
  T v = transformOne<T>(static_cast<T>(i * N));
  out[i] = v;
}

__global__ void misc(int *o) {
  int t = threadIdx.x;
  Pair p{t, t * 0.5f};
  auto [a, b] = p;
  o[t] = sumAll(a, (int)b, fib(7), 1) + (int)sizeof(Pair);
}

int main() {
  const int n = 256;
  float *x, *y;
  cudaMalloc(&x, n * 4);
  cudaMalloc(&y, n * 4);
  float scale = 2.5f;
  apply<<<2, 128>>>(n, [=] __device__(int i) { x[i] = i * scale; y[i] = 1.0f / (i + 1); });
  apply<<<2, 128>>>(n, [=] __device__(int i) { y[i] = fmaf(x[i], y[i], -scale); });
  float h[n];
  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
  printf("lambda %a %a %a\n", h[0], h[1], h[255]);
  float *fo; double *dd; long long *lo; int *io;
  cudaMalloc(&fo, 32 * 4); cudaMalloc(&dd, 32 * 8); cudaMalloc(&lo, 32 * 8); cudaMalloc(&io, 32 * 4);
  typed<float, 3><<<1, 32>>>(fo);
  typed<double, 5><<<1, 32>>>(dd);
  typed<long long, 7><<<1, 32>>>(lo);
  typed<int, 9><<<1, 32>>>(io);
  float hf[32]; double hd[32]; long long hl[32]; int hi[32];
  cudaMemcpy(hf, fo, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, lo, sizeof hl, cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, io, sizeof hi, cudaMemcpyDeviceToHost);
  printf("typed %a %a %lld %d\n", hf[31], hd[31], hl[31], hi[31]);
  misc<<<1, 8>>>(io);
  cudaMemcpy(hi, io, 8 * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%d ", hi[i]);
  printf("\n%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
