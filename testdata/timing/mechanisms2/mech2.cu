// Mechanisms microbenchmarks, second round (issue 19): what an H100 SM's L1 data stage costs a global
// load by the lines and banks its lanes touch (l1wave), and how fast blocks are dispatched to SMs and
// replaced when they retire (stamp). Built and run by run.sh; see README.md.
//   l1wave<S,T>: one block of 1024 threads per SM; each warp loads, 32 times per round and `rounds`
//       rounds, the word lane*S + u*T (u = 0..31) of a 4 KiB region every block shares (L1 hits
//       after the first round): S=1,T=32 one whole line a request; S=32,T=1 32 lines a request, all
//       lanes on the same bank; S=33,T=1 32 lines on 32 different banks; S=8,T=1 8 lines, a sector a
//       lane; S=2,T=64 2 lines; S=0,T=1 one word for the whole warp. The address depends on a
//       runtime zero so that the loads stay in the loop. Each load: one LDG and one FADD.
//   stamp: every block records its SM, its first warp's clock64 and %globaltimer at entry and its
//       clock64 at exit; its warps spin `spin` cycles. Grid: two full waves (132 SMs x R blocks).
#include <string>
#include "../bench/bench.h"

template <int S, int T> __global__ void l1wave(const float *a, float *out, int rounds, int zero) {
  const float *p = a + (threadIdx.x & 31) * S;
  float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  for (int i = 0; i < rounds; i++) {
    const float *q = p + i * zero;
#pragma unroll
    for (int u = 0; u < 32; u += 4) {
      acc0 += q[(u + 0) * T]; acc1 += q[(u + 1) * T]; acc2 += q[(u + 2) * T]; acc3 += q[(u + 3) * T];
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc0 + acc1 + acc2 + acc3;
}

__global__ void stamp(unsigned long long *g0, long long *c0, long long *c1, unsigned *sm, long long spin) {
  long long s = clock64();
  unsigned long long g;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  if (threadIdx.x == 0) {
    unsigned id;
    asm("mov.u32 %0, %%smid;" : "=r"(id));
    g0[blockIdx.x] = g; c0[blockIdx.x] = s; sm[blockIdx.x] = id;
  }
  while (clock64() - s < spin) {}
  __syncthreads();
  if (threadIdx.x == 0) c1[blockIdx.x] = clock64();
}

static float *A, *O;
template <int S, int T> static void wave(const char *name, int rounds) {
  int grid = num_sms(), block = 1024;
  float ms = time_median([&] { l1wave<S, T><<<grid, block>>>(A, O, rounds, 0); });
  printf("cfg name=%s kernel=l1wave_%d_%d grid=%d block=%d S=%d T=%d rounds=%d requests_per_sm=%d event_ms=%.5f\n",
         name, S, T, grid, block, S, T, rounds, 32 * 32 * rounds, ms);
}

static void stamps(int block, long long spin) {
  int sms = num_sms(), R = std::min(2048 / block, 32), grid = sms * R * 2;
  unsigned long long *g0; long long *c0, *c1; unsigned *sm;
  CK(cudaMalloc(&g0, grid * 8)); CK(cudaMalloc(&c0, grid * 8)); CK(cudaMalloc(&c1, grid * 8)); CK(cudaMalloc(&sm, grid * 4));
  for (int rep = 0; rep < 2; rep++) {  // the first run warms up; the second is reported
    stamp<<<grid, block>>>(g0, c0, c1, sm, spin);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  }
  std::vector<unsigned long long> G(grid); std::vector<long long> C0(grid), C1(grid); std::vector<unsigned> SM(grid);
  CK(cudaMemcpy(G.data(), g0, grid * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(C0.data(), c0, grid * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(C1.data(), c1, grid * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(SM.data(), sm, grid * 4, cudaMemcpyDeviceToHost));
  char fn[64]; snprintf(fn, sizeof fn, "stamp_b%d.csv", block);
  const char *out = getenv("OUT"); std::string path = std::string(out ? out : ".") + "/" + fn;
  FILE *f = fopen(path.c_str(), "w");
  if (f) { fprintf(f, "block,sm,globaltimer_ns,clock_start,clock_end\n");
    for (int b = 0; b < grid; b++) fprintf(f, "%d,%u,%llu,%lld,%lld\n", b, SM[b], G[b], C0[b], C1[b]); fclose(f); }
  // Per SM: its blocks by start clock; the first R are the first wave.
  std::vector<std::vector<int>> per(512);
  for (int b = 0; b < grid; b++) per[SM[b] % 512].push_back(b);
  std::vector<double> spread, repl, gfirst;
  unsigned long long gmin = ~0ull, gmax1 = 0;
  int nsm = 0, odd = 0;
  for (auto &v : per) {
    if (v.empty()) continue;
    nsm++;
    std::sort(v.begin(), v.end(), [&](int x, int y) { return C0[x] < C0[y]; });
    if ((int)v.size() != 2 * R) { odd++; continue; }
    spread.push_back(double(C0[v[R - 1]] - C0[v[0]]));
    for (int k = 0; k < R; k++) { gmin = std::min(gmin, G[v[k]]); gmax1 = std::max(gmax1, G[v[k]]); }
    std::vector<long long> ends; for (int k = 0; k < R; k++) ends.push_back(C1[v[k]]);
    std::sort(ends.begin(), ends.end());
    for (int k = 0; k < R; k++) repl.push_back(double(C0[v[R + k]] - ends[k]));
  }
  auto med = [](std::vector<double> v) { if (v.empty()) return -1.0; std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  auto mn = [](std::vector<double> v) { return v.empty() ? -1.0 : *std::min_element(v.begin(), v.end()); };
  printf("stamp block=%d R=%d grid=%d sms=%d sms_not_2R=%d first_wave_spread_per_sm_cycles_median=%.0f "
         "first_wave_globaltimer_spread_ns=%llu replace_after_exit_cycles_median=%.0f replace_after_exit_cycles_min=%.0f\n",
         block, R, grid, nsm, odd, med(spread), gmax1 - gmin, med(repl), mn(repl));
  CK(cudaFree(g0)); CK(cudaFree(c0)); CK(cudaFree(c1)); CK(cudaFree(sm));
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  CK(cudaMalloc(&A, 1 << 20)); CK(cudaMemset(A, 0, 1 << 20));
  CK(cudaMalloc(&O, 132 * 1024 * 4 * 4));
  int rounds = 64;  // 65 536 requests per SM
  wave<1, 32>("l1w_line", rounds);
  wave<2, 64>("l1w_2lines", rounds);
  wave<8, 1>("l1w_8lines", rounds);
  wave<32, 1>("l1w_32lines_1bank", rounds);
  wave<33, 1>("l1w_32lines_32banks", rounds);
  wave<0, 1>("l1w_broadcast", rounds);
  if (!g_ncu) {
    for (int b : {128, 256, 1024}) stamps(b, 20000);
  }
  return 0;
}
