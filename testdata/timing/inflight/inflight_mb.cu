// inflight_mb: how many independent global loads one warp keeps in flight.
// One block of 32 threads; `lanes` of them (1 or 32) each load N lines
// (distinct 128-byte lines, 1 KiB apart, lane l's k-th at line 32k+l of the
// repetition's region) with plain ld.global, then add them and store the
// sum; the kernel's clock64 brackets the N loads and the store (ptxas keeps
// a store before the clock read, and the store waits for its data).
// Before the timed loads, every lane reads the line after each target with
// ld.global.cg and waits for it: that warms the address translation (same
// 2 MiB page) and, for mode 1 (L2), the target lines themselves are those
// lines, so mode 1's loads miss the L1 and hit the L2; mode 0's targets were
// never touched (each repetition uses a fresh 8 MiB region): DRAM.
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

constexpr int LINEF = 32;        // floats in a 128-byte line
constexpr int SPACE = 8 * LINEF; // 1 KiB between a lane's targets
constexpr size_t REGION = 8u << 20;

template <int N>
__global__ void __launch_bounds__(32) inflight(const float* __restrict__ buf, float* out, long long* cyc, int lanes, int mode) {
  int l = threadIdx.x;
  if (l >= lanes) return;
  const float* p = buf + (size_t)l * SPACE;
  float warm = 0.f;
#pragma unroll
  for (int k = 0; k < N; k++) warm += __ldcg(p + (size_t)k * 32 * SPACE + LINEF);
  out[64 + l] = warm;  // waits for the warm-up loads
  const float* q = p + (mode ? LINEF : 0);
  long long t0 = clock64();
  float v[N];
#pragma unroll
  for (int k = 0; k < N; k++) v[k] = q[(size_t)k * 32 * SPACE];
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < N; k++) s += v[k];
  out[l] = s;
  long long t1 = clock64();
  if (l == 0) cyc[0] = t1 - t0;
}

template <int N>
long long run(const float* buf, float* out, long long* cyc, int lanes, int mode) {
  inflight<N><<<1, 32>>>(buf, out, cyc, lanes, mode);
  CHECK(cudaGetLastError());
  long long c;
  CHECK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

typedef long long (*runner)(const float*, float*, long long*, int, int);
struct Case { int n; runner f; };
static Case cases[] = {{1, run<1>}, {2, run<2>}, {4, run<4>}, {8, run<8>}, {12, run<12>}, {16, run<16>}, {24, run<24>},
                       {32, run<32>}, {48, run<48>}, {64, run<64>}, {80, run<80>}, {96, run<96>}, {128, run<128>}};

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  size_t bytes = (size_t)120 * REGION;  // 960 MiB: every repetition a fresh region
  float* buf; float* out; long long* cyc;
  CHECK(cudaMalloc(&buf, bytes)); CHECK(cudaMalloc(&out, 4096)); CHECK(cudaMalloc(&cyc, 8));
  CHECK(cudaMemset(buf, 0, bytes));
  CHECK(cudaDeviceSynchronize());
  int region = 0;
  printf("mode\tlanes\tN\tcycles (each repetition)\n");
  for (int mode = 0; mode < 2; mode++)
    for (int lanes : {1, 32})
      for (auto& c : cases) {
        printf("%s\t%d\t%d", mode ? "l2" : "dram", lanes, c.n);
        for (int r = 0; r < reps; r++) {
          const float* b = buf + (size_t)(region++ % 120) * (REGION / 4);
          printf("\t%lld", c.f(b, out, cyc, lanes, mode));
        }
        printf("\n");
      }
  return 0;
}
