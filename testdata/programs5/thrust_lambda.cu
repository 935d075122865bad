// Thrust with device lambdas and functors: transform_reduce, sort_by_key,
// unique, zip iterators, counting/transform iterators, scans by key.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform_reduce.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/functional.h>
#include <thrust/count.h>
#include <thrust/extrema.h>
#include <thrust/inner_product.h>
#include <thrust/tuple.h>

struct Square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

int main() {
  const int N = 10000;
  thrust::device_vector<int> v(N);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), v.begin(),
                    [] __device__(int i) -> int { return (int)((i * 2654435761u) >> 20) % 1000 - 500; });
  long long ss = thrust::transform_reduce(v.begin(), v.end(), Square(), 0LL, thrust::plus<long long>());
  int sum = thrust::reduce(v.begin(), v.end());
  printf("sum %d sum of squares %lld\n", sum, ss);
  double mean = thrust::transform_reduce(v.begin(), v.end(), [] __device__(int x) -> double { return (double)x; }, 0.0,
                                         thrust::plus<double>()) / N;
  printf("mean %a\n", mean);
  auto mm = thrust::minmax_element(v.begin(), v.end());
  printf("min %d at %d, max %d at %d\n", (int)*mm.first, (int)(mm.first - v.begin()), (int)*mm.second,
         (int)(mm.second - v.begin()));
  thrust::device_vector<int> keys = v, idx(N);
  thrust::sequence(idx.begin(), idx.end());
  thrust::sort_by_key(keys.begin(), keys.end(), idx.begin());
  thrust::host_vector<int> hk = keys, hi = idx;
  printf("sort_by_key: %d %d %d .. %d, idx %d %d %d\n", hk[0], hk[1], hk[2], hk[N - 1], hi[0], hi[1], hi[2]);
  thrust::stable_sort_by_key(keys.begin(), keys.end(), idx.begin(), thrust::greater<int>());
  hi = idx;
  printf("stable desc idx: %d %d %d %d\n", hi[0], hi[1], hi[2], hi[3]);
  auto end = thrust::unique(keys.begin(), keys.end());
  printf("unique: %d\n", (int)(end - keys.begin()));
  // zip: sort (a, b) pairs by a, then reduce a*b.
  thrust::device_vector<float> a(N), b(N);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), a.begin(),
                    [] __device__(int i) -> float { return floorf(__sinf((float)i) * 768.f) / 256.f; });
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), b.begin(),
                    [] __device__(int i) -> float { return (float)(i % 7) - 3.f; });
  auto zb = thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin()));
  double dot = thrust::transform_reduce(zb, zb + N, [] __device__(const thrust::tuple<float, float> &t) -> double {
    return (double)thrust::get<0>(t) * thrust::get<1>(t); }, 0.0, thrust::plus<double>());
  printf("zip dot %a\n", dot);
  double ip = thrust::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  printf("inner_product %a\n", ip);
  int pos = thrust::count_if(a.begin(), a.end(), [] __device__(float f) -> bool { return f > 1.5f; });
  printf("count > 1.5: %d\n", pos);
  // inclusive_scan_by_key on segments of 10.
  thrust::device_vector<int> seg(N), out(N);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(N), seg.begin(),
                    [] __device__(int i) -> int { return i / 10; });
  thrust::inclusive_scan_by_key(seg.begin(), seg.end(), v.begin(), out.begin());
  thrust::host_vector<int> ho = out;
  printf("scan_by_key: %d %d %d %d\n", ho[9], ho[19], ho[5555], ho[N - 1]);
  auto sq = thrust::make_transform_iterator(v.begin(), Square());
  long long s2 = thrust::reduce(sq, sq + N, 0LL);
  printf("transform_iterator reduce %lld\n", s2);
  thrust::device_vector<int> rk(N), rv(N);
  auto new_end = thrust::reduce_by_key(seg.begin(), seg.end(), v.begin(), rk.begin(), rv.begin());
  printf("reduce_by_key: %d segments, third %d\n", (int)(new_end.first - rk.begin()), (int)rv[2]);
  int factor = 3;
  thrust::transform(v.begin(), v.end(), v.begin(), [=] __device__(int x) -> int { return x * factor + 1; });
  printf("captured lambda: %d %d\n", (int)v[0], (int)v[N - 1]);
  return 0;
}
