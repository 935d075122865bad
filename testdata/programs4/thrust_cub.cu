// Thrust and CUB as applications use them: sort_by_key, reduce_by_key,
// exclusive_scan, transform_reduce with a functor, count_if, unique;
// cub::BlockReduce, cub::WarpScan, cub::DeviceScan, DeviceHistogram.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/count.h>
#include <thrust/unique.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <cub/cub.cuh>

struct Square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct IsMultipleOf7 {
  __host__ __device__ bool operator()(int x) const { return x % 7 == 0; }
};

__global__ void blockStuff(const int *in, int *blockSum, int *scanned) {
  typedef cub::BlockReduce<int, 128> BR;
  typedef cub::WarpScan<int> WS;
  __shared__ typename BR::TempStorage br;
  __shared__ typename WS::TempStorage ws[4];
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int s = BR(br).Sum(v);
  if (threadIdx.x == 0) blockSum[blockIdx.x] = s;
  int pre;
  WS(ws[threadIdx.x / 32]).ExclusiveSum(v, pre);
  scanned[blockIdx.x * 128 + threadIdx.x] = pre;
}

int main() {
  const int n = 5000;
  thrust::host_vector<int> hk(n), hv(n);
  unsigned s = 7;
  for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; hk[i] = (s >> 16) % 50; hv[i] = i; }
  thrust::device_vector<int> k = hk, v = hv;
  thrust::sort_by_key(k.begin(), k.end(), v.begin());
  printf("sorted keys %d %d %d values %d %d\n", (int)k[0], (int)k[n / 2], (int)k[n - 1], (int)v[0], (int)v[n - 1]);
  thrust::device_vector<int> ok(50), ov(50);
  auto ends = thrust::reduce_by_key(k.begin(), k.end(), v.begin(), ok.begin(), ov.begin());
  printf("groups %d first %d:%d last %d:%d\n", (int)(ends.first - ok.begin()), (int)ok[0], (int)ov[0], (int)ok[49], (int)ov[49]);
  thrust::device_vector<int> sc(n);
  thrust::exclusive_scan(v.begin(), v.end(), sc.begin(), 10);
  printf("scan %d %d\n", (int)sc[1], (int)sc[n - 1]);
  long long sq = thrust::transform_reduce(v.begin(), v.end(), Square(), 0LL, thrust::plus<long long>());
  int c7 = thrust::count_if(v.begin(), v.end(), IsMultipleOf7());
  thrust::device_vector<int> u = k;
  int nu = thrust::unique(u.begin(), u.end()) - u.begin();
  int mx = thrust::reduce(k.begin(), k.end(), -1, thrust::maximum<int>());
  printf("squares %lld multiples of 7 %d unique %d max %d\n", sq, c7, nu, mx);

  thrust::device_vector<int> in(512), bsum(4), scanned(512);
  thrust::sequence(in.begin(), in.end(), 3, 5);
  blockStuff<<<4, 128>>>(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(bsum.data()),
                         thrust::raw_pointer_cast(scanned.data()));
  printf("block sums %d %d %d %d warp scan %d %d\n", (int)bsum[0], (int)bsum[1], (int)bsum[2], (int)bsum[3], (int)scanned[33],
         (int)scanned[511]);

  int *dout = nullptr;
  cudaMalloc(&dout, n * sizeof(int));
  void *tmp = nullptr;
  size_t tb = 0;
  const int *kin = thrust::raw_pointer_cast(hk.size() ? k.data() : k.data());
  cub::DeviceScan::InclusiveSum(tmp, tb, kin, dout, n);
  cudaMalloc(&tmp, tb);
  cub::DeviceScan::InclusiveSum(tmp, tb, kin, dout, n);
  int last;
  cudaMemcpy(&last, dout + n - 1, 4, cudaMemcpyDeviceToHost);
  cudaFree(tmp);
  int *hist;
  cudaMalloc(&hist, 10 * sizeof(int));
  tmp = nullptr;
  tb = 0;
  cub::DeviceHistogram::HistogramEven(tmp, tb, kin, hist, 11, 0, 50, n);
  cudaMalloc(&tmp, tb);
  cub::DeviceHistogram::HistogramEven(tmp, tb, kin, hist, 11, 0, 50, n);
  int hh[10];
  cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost);
  printf("inclusive last %d histogram", last);
  for (int i = 0; i < 10; i++) printf(" %d", hh[i]);
  printf("\n%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
