// naive26 (issue 19): why the naive f32 product waits longer for DRAM on the
// H200 than in the model. The set's kernels (testdata/timing/fp64pipe's
// mm_reg_f32/f64: one thread an output, a loop over K reading A's row and B's
// column, the sum in a register) and three variants:
//   mm_st_*  : the same loop written as bodies of 16 steps; with STAMP each
//              warp's lane 0 stores the 32-bit clock at each body's start and
//              at the loop's end, and per warp its SM, clock64 and
//              globaltimer at the start and globaltimer at the end.
//              rot > 0 starts block (x, y)'s walk over K at row
//              (y * 16) % N and wraps (two loops of the same body), so the 32
//              (N = 256) or 128 (N = 1024) blocks that read the same columns
//              of B reach each row at different times instead of together.
//   mm_ld_*  : bodies of 16 steps that load the 32 values into arrays
//              first, then run the 16 FMAs (whatever ptxas makes of it: see
//              the SASS).
// Usage: naive_mb test <dir>   (N = 64 only, once: a check of the program);
//        naive_mb plain <dir>  (every configuration, 5 launches, events'
// median; the stamped launches' records written to <dir>/stamps_*.bin);
//        naive_mb ncu          (the unstamped kernels once each, for ncu).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// The set's kernels, unchanged (fp64_mb.cu).
extern "C" __global__ void mm_reg_f64(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    double s = 0;
    for (int k = 0; k < N; k++) s += A[i * N + k] * B[k * N + j];
    C[i * N + j] = s;
  }
}
extern "C" __global__ void mm_reg_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    float s = 0;
    for (int k = 0; k < N; k++) s += A[i * N + k] * B[k * N + j];
    C[i * N + j] = s;
  }
}

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Bodies of 16 steps over rows [k0, k1) (multiples of 16).
template <typename T, bool STAMP>
__device__ __forceinline__ T walk(const T* __restrict__ a, const T* __restrict__ b, int N, int k0, int k1, T s,
                                  unsigned* st, bool lane0) {
  for (int k = k0; k < k1; k += 16) {
    if (STAMP) {
      unsigned c = (unsigned)clock();
      if (lane0) *st = c;
      st++;
    }
#pragma unroll
    for (int u = 0; u < 16; u++) s += a[k + u] * b[(k + u) * N];
  }
  return s;
}

// st: (N/16 + 1) 32-bit clocks a warp; wr: 4 words a warp (SM, clock64 at the
// start, globaltimer at the start and at the end).
template <typename T, bool STAMP>
__device__ void mm_st(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int N, int rot, unsigned* st,
                      unsigned long long* wr) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int gw = (blockIdx.y * gridDim.x + blockIdx.x) * ((blockDim.x * blockDim.y) >> 5) + (tid >> 5);
  bool lane0 = (tid & 31) == 0;
  unsigned* mys = st + (size_t)gw * (N / 16 + 1);
  if (STAMP && lane0) {
    wr[gw * 4 + 0] = smid();
    wr[gw * 4 + 1] = clock64();
    wr[gw * 4 + 2] = gtimer();
  }
  int off = rot ? (blockIdx.y * 16) % N : 0;
  const T* a = A + (size_t)i * N;
  const T* b = B + j;
  T s = 0;
  s = walk<T, STAMP>(a, b, N, off, N, s, mys, lane0);
  s = walk<T, STAMP>(a, b, N, 0, off, s, mys + (N - off) / 16, lane0);
  if (STAMP) {
    unsigned c = (unsigned)clock();
    if (lane0) {
      mys[N / 16] = c;
      wr[gw * 4 + 3] = gtimer();
    }
  }
  C[(size_t)i * N + j] = s;
}
extern "C" __global__ void mm_st_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N,
                                     int rot, unsigned* st, unsigned long long* wr) {
  mm_st<float, true>(A, B, C, N, rot, st, wr);
}
extern "C" __global__ void mm_st_f64(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int N,
                                     int rot, unsigned* st, unsigned long long* wr) {
  mm_st<double, true>(A, B, C, N, rot, st, wr);
}
extern "C" __global__ void mm_ns_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N,
                                     int rot, unsigned* st, unsigned long long* wr) {
  mm_st<float, false>(A, B, C, N, rot, st, wr);
}
extern "C" __global__ void mm_ns_f64(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int N,
                                     int rot, unsigned* st, unsigned long long* wr) {
  mm_st<double, false>(A, B, C, N, rot, st, wr);
}

// Loads first: a body's 32 values into arrays, then its 16 FMAs.
template <typename T>
__device__ void mm_ld(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  const T* a = A + (size_t)i * N;
  const T* b = B + j;
  T s = 0;
  for (int k = 0; k < N; k += 16) {
    T x[16], y[16];
#pragma unroll
    for (int u = 0; u < 16; u++) x[u] = a[k + u];
#pragma unroll
    for (int u = 0; u < 16; u++) y[u] = b[(k + u) * N];
#pragma unroll
    for (int u = 0; u < 16; u++) s += x[u] * y[u];
  }
  C[(size_t)i * N + j] = s;
}
extern "C" __global__ void mm_ld_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  mm_ld<float>(A, B, C, N);
}
extern "C" __global__ void mm_ld_f64(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int N) {
  mm_ld<double>(A, B, C, N);
}

static cudaEvent_t e0, e1;

// timed launches f reps times (after one warm-up launch) and prints the cfg
// line with the events' median and every launch's time.
template <typename F>
static void timed(const char* line, int reps, F launch) {
  if (reps > 1) {  // a warm-up launch, not under ncu
    launch();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
  }
  std::vector<float> ms;
  for (int r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float t;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  std::vector<float> srt = ms;
  std::sort(srt.begin(), srt.end());
  printf("cfg %s event_ms=%.5f all=", line, srt[srt.size() / 2]);
  for (float t : ms) printf("%.5f,", t);
  printf("\n");
  fflush(stdout);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  const char* dir = argc > 2 ? argv[2] : ".";
  bool ncu = strcmp(mode, "ncu") == 0, test = strcmp(mode, "test") == 0;
  int reps = ncu || test ? 1 : 5;
  std::vector<int> sizes = {256, 1024};
  if (test) sizes = {64};
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  const int NM = 1024;
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, NM * NM * 8));
  CHECK(cudaMalloc(&B, NM * NM * 8));
  CHECK(cudaMalloc(&C, NM * NM * 8));
  // Small values, not zeros (the products' data do not change their time; the
  // set's recordings used zeros, kept here too for the same cache behaviour).
  CHECK(cudaMemset(A, 0, NM * NM * 8));
  CHECK(cudaMemset(B, 0, NM * NM * 8));
  size_t nst = (size_t)(NM * NM / 32) * (NM / 16 + 1);
  unsigned* st;
  unsigned long long* wr;
  CHECK(cudaMalloc(&st, nst * 4));
  CHECK(cudaMalloc(&wr, (NM * NM / 32) * 4 * 8));
  std::vector<unsigned> hst(nst);
  std::vector<unsigned long long> hwr((NM * NM / 32) * 4);
  char line[256];
  const int bx = 32, by = 8;
  for (int N : sizes)
    for (int f64 = 0; f64 < 2; f64++) {
      const char* ty = f64 ? "f64" : "f32";
      dim3 g(N / bx, N / by), bl(bx, by);
      snprintf(line, sizeof line, "kern=mm_reg_%s N=%d bx=%d by=%d rot=0", ty, N, bx, by);
      timed(line, reps, [&] {
        if (f64) mm_reg_f64<<<g, bl>>>(A, B, C, N);
        else mm_reg_f32<<<g, bl>>>((float*)A, (float*)B, (float*)C, N);
      });
      for (int rot = 0; rot < 2; rot++) {
        snprintf(line, sizeof line, "kern=mm_ns_%s N=%d bx=%d by=%d rot=%d", ty, N, bx, by, rot);
        timed(line, reps, [&] {
          if (f64) mm_ns_f64<<<g, bl>>>(A, B, C, N, rot, st, wr);
          else mm_ns_f32<<<g, bl>>>((float*)A, (float*)B, (float*)C, N, rot, st, wr);
        });
      }
      snprintf(line, sizeof line, "kern=mm_ld_%s N=%d bx=%d by=%d rot=0", ty, N, bx, by);
      timed(line, reps, [&] {
        if (f64) mm_ld_f64<<<g, bl>>>(A, B, C, N);
        else mm_ld_f32<<<g, bl>>>((float*)A, (float*)B, (float*)C, N);
      });
      if (ncu) continue;
      for (int rot = 0; rot < 2; rot++) {
        snprintf(line, sizeof line, "kern=mm_st_%s N=%d bx=%d by=%d rot=%d", ty, N, bx, by, rot);
        timed(line, reps, [&] {
          if (f64) mm_st_f64<<<g, bl>>>(A, B, C, N, rot, st, wr);
          else mm_st_f32<<<g, bl>>>((float*)A, (float*)B, (float*)C, N, rot, st, wr);
        });
        // The last launch's records: a header of 6 ints (N, f64, rot, bx, by,
        // warps), then warps x 4 u64, then warps x (N/16+1) u32.
        int warps = N * N / 32, S = N / 16 + 1;
        CHECK(cudaMemcpy(hst.data(), st, (size_t)warps * S * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hwr.data(), wr, (size_t)warps * 4 * 8, cudaMemcpyDeviceToHost));
        char fn[512];
        snprintf(fn, sizeof fn, "%s/stamps_%s_N%d_rot%d.bin", dir, ty, N, rot);
        FILE* fp = fopen(fn, "wb");
        if (!fp) { perror(fn); exit(1); }
        int hdr[6] = {N, f64, rot, bx, by, warps};
        fwrite(hdr, 4, 6, fp);
        fwrite(hwr.data(), 8, (size_t)warps * 4, fp);
        fwrite(hst.data(), 4, (size_t)warps * S, fp);
        fclose(fp);
        // A first look: each body's cycles (stamp to next stamp), all warps.
        std::vector<unsigned> d;
        d.reserve((size_t)warps * (S - 1));
        for (int w = 0; w < warps; w++)
          for (int k = 0; k + 1 < S; k++) d.push_back(hst[(size_t)w * S + k + 1] - hst[(size_t)w * S + k]);
        std::sort(d.begin(), d.end());
        size_t n = d.size();
        double mean = 0;
        for (unsigned x : d) mean += x;
        mean /= n;
        printf("bodies %s N=%d rot=%d n=%zu mean=%.1f p10=%u p25=%u p50=%u p75=%u p90=%u p99=%u\n", ty, N, rot, n, mean,
               d[n / 10], d[n / 4], d[n / 2], d[3 * n / 4], d[9 * n / 10], d[99 * n / 100]);
        fflush(stdout);
      }
    }
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
