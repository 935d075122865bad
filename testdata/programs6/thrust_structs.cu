// Thrust with custom functors on a device_vector of structs: sort with a
// comparator, transform_inclusive_scan, copy_if, gather and scatter,
// transform_reduce with a struct-valued reduction, sequence and
// counting iterators, a permutation iterator.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>
#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/sequence.h>
#include <thrust/count.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>

struct Particle {
  float x, y, mass;
  int id;
};

struct ByMassThenId {
  __host__ __device__ bool operator()(const Particle& a, const Particle& b) const {
    if (a.mass != b.mass) return a.mass > b.mass;
    return a.id < b.id;
  }
};
struct KineticLike {
  __host__ __device__ float operator()(const Particle& p) const { return 0.5f * p.mass * (p.x * p.x + p.y * p.y); }
};
struct Heavy {
  float limit;
  __host__ __device__ bool operator()(const Particle& p) const { return p.mass > limit; }
};
struct Bounds {
  float minx, maxx, miny, maxy;
  int count;
};
struct ToBounds {
  __host__ __device__ Bounds operator()(const Particle& p) const { Bounds b = {p.x, p.x, p.y, p.y, 1}; return b; }
};
struct MergeBounds {
  __host__ __device__ Bounds operator()(const Bounds& a, const Bounds& b) const {
    Bounds r = {fminf(a.minx, b.minx), fmaxf(a.maxx, b.maxx), fminf(a.miny, b.miny), fmaxf(a.maxy, b.maxy), a.count + b.count};
    return r;
  }
};
struct Square { __host__ __device__ int operator()(int x) const { return x * x % 1009; } };
struct MakeParticle {
  __host__ __device__ Particle operator()(int i) const {
    unsigned h = (unsigned)i * 2654435761u;
    h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    Particle p;
    p.x = (float)((int)(h & 0xffff) - 32768) * (1.0f / 4096);
    p.y = (float)((int)(h >> 16) - 32768) * (1.0f / 4096);
    p.mass = (float)(1 + (h % 7)) * 0.5f;
    p.id = i;
    return p;
  }
};

int main() {
  const int n = 4096;
  thrust::device_vector<Particle> ps(n);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), ps.begin(), MakeParticle());
  Bounds init = {1e30f, -1e30f, 1e30f, -1e30f, 0};
  Bounds bb = thrust::transform_reduce(ps.begin(), ps.end(), ToBounds(), init, MergeBounds());
  printf("bounds %a %a %a %a count %d\n", bb.minx, bb.maxx, bb.miny, bb.maxy, bb.count);

  thrust::sort(ps.begin(), ps.end(), ByMassThenId());
  thrust::host_vector<Particle> hp = ps;
  printf("sorted: first id %d mass %a, [100] id %d, [2048] id %d mass %a, last id %d mass %a\n", hp[0].id, hp[0].mass, hp[100].id,
         hp[2048].id, hp[2048].mass, hp[n - 1].id, hp[n - 1].mass);

  thrust::device_vector<float> energy(n);
  thrust::transform_inclusive_scan(ps.begin(), ps.end(), energy.begin(), KineticLike(), thrust::plus<float>());
  thrust::host_vector<float> he = energy;
  printf("energy scan [0] %a [1000] %a [4095] %a\n", he[0], he[1000], he[n - 1]);

  thrust::device_vector<Particle> heavy(n);
  Heavy pred = {2.5f};
  auto end = thrust::copy_if(ps.begin(), ps.end(), heavy.begin(), pred);
  int nheavy = (int)(end - heavy.begin());
  printf("heavy %d count_if %d\n", nheavy, (int)thrust::count_if(ps.begin(), ps.end(), pred));

  thrust::device_vector<int> map(n), vals(n), gathered(n), scattered(n, -1);
  thrust::sequence(vals.begin(), vals.end(), 7, 3);
  thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), map.begin(), Square());
  thrust::gather(map.begin(), map.end(), vals.begin(), gathered.begin());
  thrust::device_vector<int> perm(n);
  thrust::sequence(perm.begin(), perm.end());
  thrust::sort(perm.begin(), perm.end(), thrust::greater<int>());
  thrust::scatter(vals.begin(), vals.end(), perm.begin(), scattered.begin());
  thrust::host_vector<int> hg = gathered, hs = scattered;
  long long gs = 0, ss = 0;
  for (int i = 0; i < n; i++) { gs += (long long)hg[i] * (i + 1); ss += (long long)hs[i] * (i + 1); }
  printf("gather %lld scatter %lld g[5] %d s[0] %d\n", gs, ss, hg[5], hs[0]);

  auto pit = thrust::make_permutation_iterator(vals.begin(), map.begin());
  int psum = thrust::reduce(pit, pit + n, 0, thrust::plus<int>());
  int pmax = thrust::reduce(pit, pit + n, 0, thrust::maximum<int>());
  printf("permutation sum %d max %d\n", psum, pmax);
  return 0;
}
