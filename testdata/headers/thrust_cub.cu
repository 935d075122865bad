// Thrust, CUB and libcu++ (NVIDIA's CCCL): a device_vector, transform,
// sort, reduce and inclusive_scan, cub::DeviceRadixSort and
// cub::DeviceReduce, and cuda::std types in device code.
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda/std/limits>
#include <cuda/std/utility>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct square {
  __host__ __device__ int operator()(int x) const { return x * x % 1009; }
};

__global__ void limits(int *out) {
  cuda::std::pair<int, int> p(3, 4);
  out[0] = cuda::std::numeric_limits<short>::max();
  out[1] = p.first * 10 + p.second;
}

int main() {
  const int n = 1000;
  thrust::host_vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1013;
  thrust::device_vector<int> d = h;
  thrust::device_vector<int> sq(n);
  thrust::transform(d.begin(), d.end(), sq.begin(), square());
  thrust::sort(sq.begin(), sq.end());
  int sum = thrust::reduce(sq.begin(), sq.end(), 0);
  thrust::device_vector<int> scan(n);
  thrust::inclusive_scan(d.begin(), d.end(), scan.begin());
  printf("thrust: first %d %d %d last %d sum %d scan[999] %d\n", (int)sq[0], (int)sq[1], (int)sq[2], (int)sq[n - 1], sum, (int)scan[n - 1]);

  // CUB: radix sort of keys, then a sum.
  int *keys_in = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<int> sorted(n);
  int *keys_out = thrust::raw_pointer_cast(sorted.data());
  void *temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, n);
  thrust::device_vector<int> total(1);
  void *temp2 = nullptr;
  size_t temp2_bytes = 0;
  cub::DeviceReduce::Sum(temp2, temp2_bytes, keys_out, thrust::raw_pointer_cast(total.data()), n);
  cudaMalloc(&temp2, temp2_bytes);
  cub::DeviceReduce::Sum(temp2, temp2_bytes, keys_out, thrust::raw_pointer_cast(total.data()), n);
  printf("cub: sorted %d %d ... %d, sum %d\n", (int)sorted[0], (int)sorted[1], (int)sorted[n - 1], (int)total[0]);

  thrust::device_vector<int> lim(2);
  limits<<<1, 1>>>(thrust::raw_pointer_cast(lim.data()));
  printf("libcu++: %d %d\n", (int)lim[0], (int)lim[1]);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("Test PASSED\n");
  return 0;
}
