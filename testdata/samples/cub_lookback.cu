// CUB's single-pass scans (decoupled look-back) through Thrust, over a
// primitive type and over a struct (ScanTileState<T, false>: a status byte
// per tile, which one lane per predecessor polls while its warp's other
// lanes wait at the __shfl_sync/__all_sync that follows), and the onesweep
// radix sort (look-back with __ballot_sync over a shrinking member mask).
// Run with several simulator workers, blocks poll tiles of blocks running at
// the same time; cuda-samples' segmentationTreeThrust and radixSortThrust
// depend on this.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <cstdio>
#include <cstdlib>

struct P {
  float w;
  unsigned e;
};
struct MinP {
  __host__ __device__ P operator()(P a, P b) const { return (b.w < a.w || (b.w == a.w && b.e < a.e)) ? b : a; }
};

int main() {
  const int n = 200000;
  thrust::host_vector<int> h(n);
  thrust::host_vector<P> hp(n);
  thrust::host_vector<unsigned> hk(n), hv(n);
  for (int i = 0; i < n; i++) {
    h[i] = (i * 7919) % 13 - 6;
    hp[i].w = (float)(((unsigned)i * 104729u) % 100003u);
    hp[i].e = i;
    hk[i] = (unsigned)i * 2654435761u;
    hv[i] = i;
  }
  thrust::device_vector<int> d = h, o(n);
  thrust::device_vector<P> dp = hp, op(n);
  thrust::device_vector<unsigned> dk = hk, dv = hv;
  thrust::inclusive_scan(d.begin(), d.end(), o.begin());
  thrust::inclusive_scan(dp.begin(), dp.end(), op.begin(), MinP());
  thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
  thrust::host_vector<int> ho = o;
  thrust::host_vector<P> hop = op;
  thrust::host_vector<unsigned> sk = dk, sv = dv;
  long long s = 0;
  P m = hp[0];
  int badInt = 0, badStruct = 0, badSort = 0;
  for (int i = 0; i < n; i++) {
    s += h[i];
    if (i) m = MinP()(m, hp[i]);
    badInt += ho[i] != (int)s;
    badStruct += hop[i].w != m.w || hop[i].e != m.e;
    badSort += (i && sk[i - 1] > sk[i]) || sk[i] != (unsigned)sv[i] * 2654435761u;
  }
  printf("int scan: last %d, %d wrong\n", (int)ho[n - 1], badInt);
  printf("struct scan: last %g %u, %d wrong\n", hop[n - 1].w, hop[n - 1].e, badStruct);
  printf("sort_by_key: first %u %u last %u %u, %d wrong\n", (unsigned)sk[0], (unsigned)sv[0], (unsigned)sk[n - 1],
         (unsigned)sv[n - 1], badSort);
  return badInt || badStruct || badSort;
}
