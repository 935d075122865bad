// CUB device-wide algorithms: DeviceSegmentedReduce, DeviceRadixSort pairs,
// DeviceReduce with ArgMax, DeviceSelect, DeviceRunLengthEncode.
#include <cstdio>
#include <cub/cub.cuh>

struct IsOdd {
  __host__ __device__ bool operator()(const int &x) const { return x & 1; }
};

template <class F> static void run(F f) {
  void *tmp = nullptr;
  size_t bytes = 0;
  f(tmp, bytes);
  cudaMalloc(&tmp, bytes);
  f(tmp, bytes);
  cudaFree(tmp);
}

int main() {
  const int N = 5000, S = 7;
  int *h = new int[N];
  unsigned x = 99;
  for (int i = 0; i < N; i++) { x = x * 1664525u + 1013904223u; h[i] = (int)((x >> 12) % 2001) - 1000; }
  int offs[S + 1] = {0, 10, 10, 700, 1500, 3333, 4999, N};
  int *in, *out, *d_offs, *keys2, *vals, *vals2, *nsel;
  cudaMalloc(&in, N * 4); cudaMalloc(&out, N * 4); cudaMalloc(&d_offs, sizeof offs);
  cudaMalloc(&keys2, N * 4); cudaMalloc(&vals, N * 4); cudaMalloc(&vals2, N * 4); cudaMalloc(&nsel, 4);
  cudaMemcpy(in, h, N * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_offs, offs, sizeof offs, cudaMemcpyHostToDevice);
  run([&](void *t, size_t &b) { cub::DeviceSegmentedReduce::Sum(t, b, in, out, S, d_offs, d_offs + 1); });
  int r[S];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("segmented sum:");
  for (int i = 0; i < S; i++) printf(" %d", r[i]);
  printf("\n");
  run([&](void *t, size_t &b) { cub::DeviceSegmentedReduce::Max(t, b, in, out, S, d_offs, d_offs + 1); });
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("segmented max:");
  for (int i = 0; i < S; i++) printf(" %d", r[i]);
  printf("\n");
  cub::KeyValuePair<int, int> *kv;
  cudaMalloc(&kv, sizeof *kv);
  run([&](void *t, size_t &b) { cub::DeviceReduce::ArgMax(t, b, in, kv, N); });
  cub::KeyValuePair<int, int> hkv;
  cudaMemcpy(&hkv, kv, sizeof hkv, cudaMemcpyDeviceToHost);
  printf("argmax: index %d value %d\n", hkv.key, hkv.value);
  run([&](void *t, size_t &b) { cub::DeviceReduce::ArgMin(t, b, in, kv, N); });
  cudaMemcpy(&hkv, kv, sizeof hkv, cudaMemcpyDeviceToHost);
  printf("argmin: index %d value %d\n", hkv.key, hkv.value);
  int *iota = new int[N];
  for (int i = 0; i < N; i++) iota[i] = i;
  cudaMemcpy(vals, iota, N * 4, cudaMemcpyHostToDevice);
  run([&](void *t, size_t &b) { cub::DeviceRadixSort::SortPairs(t, b, in, keys2, vals, vals2, N); });
  int *hk = new int[N], *hv = new int[N];
  cudaMemcpy(hk, keys2, N * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hv, vals2, N * 4, cudaMemcpyDeviceToHost);
  unsigned hash = 0;
  for (int i = 0; i < N; i++) hash = hash * 1000003u ^ (unsigned)(hk[i] * 7919 + hv[i]);
  printf("sort pairs: %d..%d first values %d %d %d hash %08x\n", hk[0], hk[N - 1], hv[0], hv[1], hv[2], hash);
  run([&](void *t, size_t &b) { cub::DeviceRadixSort::SortKeysDescending(t, b, in, keys2, N); });
  cudaMemcpy(hk, keys2, N * 4, cudaMemcpyDeviceToHost);
  printf("sort descending: %d %d .. %d\n", hk[0], hk[1], hk[N - 1]);
  run([&](void *t, size_t &b) { cub::DeviceSelect::If(t, b, in, out, nsel, N, IsOdd()); });
  int ns;
  cudaMemcpy(&ns, nsel, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hk, out, ns * 4, cudaMemcpyDeviceToHost);
  hash = 0;
  for (int i = 0; i < ns; i++) hash = hash * 31 + hk[i];
  printf("select odd: %d hash %08x\n", ns, hash);
  for (int i = 0; i < N; i++) h[i] = (i / 3) % 17 + (i % 11 == 0);
  cudaMemcpy(in, h, N * 4, cudaMemcpyHostToDevice);
  run([&](void *t, size_t &b) { cub::DeviceRunLengthEncode::Encode(t, b, in, out, vals, nsel, N); });
  cudaMemcpy(&ns, nsel, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hk, out, ns * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hv, vals, ns * 4, cudaMemcpyDeviceToHost);
  hash = 0;
  for (int i = 0; i < ns; i++) hash = hash * 31 + hk[i] * 100 + hv[i];
  printf("run-length: %d runs, first (%d x%d) (%d x%d), hash %08x\n", ns, hk[0], hv[0], hk[1], hv[1], hash);
  run([&](void *t, size_t &b) { cub::DeviceScan::ExclusiveSum(t, b, in, out, N); });
  cudaMemcpy(hk, out, N * 4, cudaMemcpyDeviceToHost);
  printf("exclusive sum: %d %d %d last %d\n", hk[0], hk[1], hk[2], hk[N - 1]);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
