// A cooperative grid synchronizing itself with grid.sync() across several
// phases: each phase reads what other blocks wrote in the phase before.
// Also the grid_group's ranks and sizes, and is_valid() in a cooperative
// launch and in ordinary ones before and after the first cooperative launch
// (the H100 says true after: the context's grid workspace exists then).
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Phase 1: a[i] = i*i mod 97. Phase 2: b[i] = a[i-1] + a[i+1] (cyclic,
// neighbours in other blocks). Phase 3: per-block sums of b into part[].
// Phase 4: block 0 adds the partial sums. Then 6 Jacobi-like sweeps that
// swap a and b, each ending with grid.sync().
__global__ void phases(int *a, int *b, long long *part, long long *total, int n, int sweeps) {
  cg::grid_group g = cg::this_grid();
  cg::thread_block blk = cg::this_thread_block();
  extern __shared__ long long sh[];
  int i = (int)g.thread_rank();
  int stride = (int)g.size();
  for (int k = i; k < n; k += stride) a[k] = (k * k) % 97;
  g.sync();
  for (int k = i; k < n; k += stride) b[k] = a[(k + n - 1) % n] + a[(k + 1) % n];
  g.sync();
  long long s = 0;
  for (int k = i; k < n; k += stride) s += b[k];
  sh[blk.thread_rank()] = s;
  blk.sync();
  for (unsigned w = blk.size() / 2; w > 0; w /= 2) {
    if (blk.thread_rank() < w) sh[blk.thread_rank()] += sh[blk.thread_rank() + w];
    blk.sync();
  }
  if (blk.thread_rank() == 0) part[g.block_rank()] = sh[0];
  cg::sync(g);  // the free function, as g.sync()
  if (g.thread_rank() == 0) {
    long long t = 0;
    for (unsigned long long k = 0; k < g.num_blocks(); k++) t += part[k];
    total[0] = t;
  }
  for (int it = 0; it < sweeps; it++) {
    int *src = (it % 2 == 0) ? b : a, *dst = (it % 2 == 0) ? a : b;
    for (int k = i; k < n; k += stride) dst[k] = (src[(k + n - 1) % n] + 2 * src[k] + src[(k + 1) % n]) % 1009;
    g.sync();
  }
}

// What a grid_group says about itself, one record per block (thread 0)
// and for the last thread of the grid.
__global__ void ranks(unsigned long long *out) {
  cg::grid_group g = cg::this_grid();
  unsigned long long br = g.block_rank();
  if (cg::this_thread_block().thread_rank() == 0) {
    out[4 * br + 0] = g.size();
    out[4 * br + 1] = g.num_blocks();
    out[4 * br + 2] = g.thread_rank();
    out[4 * br + 3] = g.is_valid() ? 1 : 0;
  }
  g.sync();
}

// is_valid() without grid.sync().
__global__ void valid(int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = cg::this_grid().is_valid() ? 1 : 0;
}

int main() {
  int dev = 0, coop = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  printf("cooperativeLaunch attribute %d, property %d\n", coop, prop.cooperativeLaunch);
  int *v, hv[3];
  CHECK(cudaMalloc(&v, sizeof(int)));
  valid<<<2, 32>>>(v);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&hv[0], v, sizeof(int), cudaMemcpyDeviceToHost));

  const int n = 10007, blocks = 48, threads = 128, sweeps = 6;
  int *a, *b;
  long long *part, *total;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&part, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&total, sizeof(long long)));
  int nn = n, sw = sweeps;
  void *args[] = {&a, &b, &part, &total, &nn, &sw};
  CHECK(cudaLaunchCooperativeKernel((void *)phases, dim3(blocks), dim3(threads), args, threads * sizeof(long long), 0));
  CHECK(cudaDeviceSynchronize());

  // The same on the host.
  int *ha = (int *)malloc(n * sizeof(int)), *hb = (int *)malloc(n * sizeof(int));
  for (int k = 0; k < n; k++) ha[k] = (k * k) % 97;
  long long want = 0;
  for (int k = 0; k < n; k++) { hb[k] = ha[(k + n - 1) % n] + ha[(k + 1) % n]; want += hb[k]; }
  for (int it = 0; it < sweeps; it++) {
    int *src = (it % 2 == 0) ? hb : ha, *dst = (it % 2 == 0) ? ha : hb;
    for (int k = 0; k < n; k++) dst[k] = (src[(k + n - 1) % n] + 2 * src[k] + src[(k + 1) % n]) % 1009;
  }
  long long got = 0;
  CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
  int *ga = (int *)malloc(n * sizeof(int)), *gb = (int *)malloc(n * sizeof(int));
  CHECK(cudaMemcpy(ga, a, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gb, b, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long csum = 0;
  for (int k = 0; k < n; k++) {
    if (ga[k] != ha[k] || gb[k] != hb[k]) bad++;
    csum += ga[k] * 3 + gb[k];
  }
  printf("phase sum %lld (host %lld), after %d sweeps checksum %lld, %d mismatches\n", got, want, sweeps, csum, bad);

  unsigned long long *r;
  const int rb = 12;
  CHECK(cudaMalloc(&r, 4 * rb * sizeof(unsigned long long)));
  void *rargs[] = {&r};
  CHECK(cudaLaunchCooperativeKernel((void *)ranks, dim3(3, 2, 2), dim3(32, 2, 1), rargs, 0, 0));
  unsigned long long hr[4 * rb];
  CHECK(cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost));
  for (int k = 0; k < rb; k++)
    printf("block %2d: size %llu blocks %llu rank of thread 0 %llu valid %llu\n", k, hr[4 * k], hr[4 * k + 1], hr[4 * k + 2], hr[4 * k + 3]);

  void *vargs[] = {&v};
  CHECK(cudaLaunchCooperativeKernel((void *)valid, dim3(2), dim3(32), vargs, 0, 0));
  CHECK(cudaMemcpy(&hv[1], v, sizeof(int), cudaMemcpyDeviceToHost));
  valid<<<2, 32>>>(v);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&hv[2], v, sizeof(int), cudaMemcpyDeviceToHost));
  printf("is_valid: ordinary launch before any cooperative one %d, cooperative launch %d, ordinary launch after %d\n", hv[0], hv[1], hv[2]);

  bool ok = coop == 1 && prop.cooperativeLaunch == 1 && got == want && bad == 0 && hv[1] == 1 && hv[2] == 1;
  for (int k = 0; k < rb; k++) ok = ok && hr[4 * k] == 12 * 64 && hr[4 * k + 1] == 12 && hr[4 * k + 2] == (unsigned long long)k * 64 && hr[4 * k + 3] == 1;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
