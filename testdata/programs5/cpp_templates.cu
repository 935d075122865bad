// Templates in kernels: compile-time recursion, variadic packs, CRTP,
// constexpr tables in __constant__ memory, extern __shared__ of templated
// types (the SharedMemory<T> idiom), std::integer_sequence.
#include <cstdio>
#include <utility>
#include <type_traits>

template <int N> struct Fact { static constexpr unsigned long long value = N * Fact<N - 1>::value; };
template <> struct Fact<0> { static constexpr unsigned long long value = 1; };

template <int N> struct Fib { static constexpr unsigned long long value = Fib<N - 1>::value + Fib<N - 2>::value; };
template <> struct Fib<1> { static constexpr unsigned long long value = 1; };
template <> struct Fib<0> { static constexpr unsigned long long value = 0; };
template <int N> __device__ unsigned long long tri(int x) {
  if constexpr (N == 0) return x; else return tri<N - 1>(x) + N;
}

template <class T> __device__ T sum_all() { return T(0); }
template <class T, class A, class... Rest> __device__ T sum_all(A a, Rest... r) { return T(a) + sum_all<T>(r...); }
template <class... Ts> __device__ int count_args(Ts...) { return sizeof...(Ts); }
template <class... Ts> __device__ auto product(Ts... xs) { return (xs * ... * 1); }

template <class Derived> struct Op {
  __device__ float apply(float x) const { return static_cast<const Derived *>(this)->impl(x) + 1.f; }
};
struct Twice : Op<Twice> { __device__ float impl(float x) const { return 2.f * x; } };
struct Neg : Op<Neg> { __device__ float impl(float x) const { return -x; } };

constexpr int popcount_c(unsigned v) { return v ? (v & 1) + popcount_c(v >> 1) : 0; }
template <std::size_t... I> constexpr auto make_table(std::index_sequence<I...>) {
  struct T { unsigned char v[sizeof...(I)]; };
  return T{{(unsigned char)popcount_c((unsigned)I)...}};
}
struct Tbl { unsigned char v[256]; };
__constant__ Tbl pop_table;
constexpr auto host_table = make_table(std::make_index_sequence<256>{});
__constant__ int squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};

template <class T> struct SharedMemory {
  __device__ T *get() { extern __shared__ int __smem[]; return reinterpret_cast<T *>(__smem); }
};
template <> struct SharedMemory<double> {
  __device__ double *get() { extern __shared__ double __smem_d[]; return __smem_d; }
};

template <class T, unsigned BS> __global__ void reduce(const T *in, T *out, int n) {
  T *s = SharedMemory<T>().get();
  unsigned t = threadIdx.x;
  T acc = T(0);
  for (int i = blockIdx.x * BS + t; i < n; i += BS * gridDim.x) acc += in[i];
  s[t] = acc;
  __syncthreads();
#pragma unroll
  for (unsigned k = BS / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void misc(unsigned long long *o, float *f) {
  o[0] = Fact<20>::value;
  o[1] = Fib<80>::value + tri<20>(threadIdx.x + 1);
  o[2] = (unsigned long long)sum_all<long long>(1, 2u, 3ll, (short)4, 'A');
  o[3] = count_args(1, 2.0, "x", nullptr);
  o[4] = (unsigned long long)product(2, 3ll, 7);
  unsigned acc = 0;
  for (int i = threadIdx.x; i < 256; i++) acc += pop_table.v[i] * squares[i & 15];
  o[5] = acc;
  o[6] = std::is_same_v<decltype(product(2, 3.0f)), float> * 100 + std::is_trivially_copyable_v<Tbl>;
  f[0] = Twice().apply(1.5f);
  f[1] = Neg().apply(1.5f);
}

template <class T> static void run_reduce(const char *name, int n) {
  T *h = new T[n];
  for (int i = 0; i < n; i++) h[i] = (T)((i * 37) % 101) / (T)4;
  T *in, *out;
  cudaMalloc(&in, n * sizeof(T));
  cudaMalloc(&out, 64 * sizeof(T));
  cudaMemcpy(in, h, n * sizeof(T), cudaMemcpyHostToDevice);
  reduce<T, 256><<<64, 256, 256 * sizeof(T)>>>(in, out, n);
  T ho[64];
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  double tot = 0;
  for (int i = 0; i < 64; i++) tot += (double)ho[i];
  printf("reduce<%s>: %.6f block0 %.6f\n", name, tot, (double)ho[0]);
  delete[] h;
}

int main() {
  cudaMemcpyToSymbol(pop_table, &host_table, sizeof(Tbl));
  unsigned long long *o;
  float *f;
  cudaMalloc(&o, 8 * 8);
  cudaMalloc(&f, 2 * 4);
  misc<<<1, 1>>>(o, f);
  unsigned long long ho[7];
  float hf[2];
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  printf("fact %llu fib %llu sum %llu count %llu product %llu table %llu traits %llu\n", ho[0], ho[1], ho[2], ho[3], ho[4], ho[5], ho[6]);
  printf("crtp %g %g\n", hf[0], hf[1]);
  run_reduce<int>("int", 100000);
  run_reduce<float>("float", 100000);
  run_reduce<double>("double", 100000);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
