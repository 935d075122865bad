// Block barriers under independent thread scheduling (sm_70+): what a
// barrier waits for when the lanes of one warp reach it at different
// times, at different instructions, in different loop iterations, or exit
// first; named barriers with a thread count, bar.arrive producer/consumer,
// and __syncthreads_count/and/or in divergent code.
//
// Usage: its SCENARIO (0..12). Each scenario is one kernel launch of one
// block; it prints one line per thread group, every value deterministic
// when the barrier orders what it should (no clocks): a thread reads, after
// its barrier, what others wrote before theirs, or a reduction's result.
// A launch that has not finished after 3 s prints HANG (a deadlock).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#define LONG 4000 // iterations of the late lanes' loops

__device__ int out[4][128];

// wait polls the launch for up to 3 s.
static void wait(const char *what) {
  auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    cudaError_t e = cudaStreamQuery(0);
    if (e != cudaErrorNotReady) {
      printf("%s -> %s\n", what, cudaGetErrorName(e));
      return;
    }
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(3)) {
      printf("%s -> HANG\n", what);
      fflush(stdout);
      _exit(0);
    }
    usleep(1000);
  }
}

// finals counts how many of s[from..from+n) hold want.
__device__ int finals(volatile int *s, int from, int n, int want) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += s[from + i] == want;
  return c;
}

// 0: lanes 0-15 of warp 0 reach __syncthreads at once; lanes 16-31 first
// run a loop that stores to shared memory, then reach another
// __syncthreads; warp 1 reaches a third. After its barrier each thread
// counts how many of lanes 16-31's final stores it sees.
__global__ void halfLoopStore(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (t < 32) {
    if (lane < 16) {
      __syncthreads();
      out[0][t] = finals(s, 16, 16, iters);
    } else {
      for (int i = 1; i <= iters; i++)
        s[t] = i;
      __syncthreads();
      out[0][t] = 100 + finals(s, 16, 16, iters);
    }
  } else {
    __syncthreads();
    out[0][t] = 200 + finals(s, 16, 16, iters);
  }
}

// 1: as 0, but the late lanes' loop stores nothing (a register
// recurrence); they store once after it.
__global__ void halfLoopNoStore(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (t < 32) {
    if (lane < 16) {
      __syncthreads();
      out[0][t] = finals(s, 16, 16, 1);
    } else {
      unsigned x = t;
      for (int i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
      s[t] = 1;
      out[1][t] = x & 1; // keeps the loop
      __syncthreads();
      out[0][t] = 100 + finals(s, 16, 16, 1);
    }
  } else {
    __syncthreads();
    out[0][t] = 200 + finals(s, 16, 16, 1);
  }
}

// 2: lanes 16-31 of warp 0 run a storing loop and exit without reaching
// the barrier; the others wait at __syncthreads, then count the exited
// lanes' final stores.
__global__ void halfExit(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (t < 32 && lane >= 16) {
    for (int i = 1; i <= iters; i++)
      s[t] = i;
    out[0][t] = -1;
    return;
  }
  __syncthreads();
  out[0][t] = finals(s, 16, 16, iters);
}

// 3: __syncthreads_count in both arms of a branch that splits each warp:
// which threads does one reduction combine?
__global__ void ifElseCount(int) {
  int t = threadIdx.x, lane = t & 31;
  int r;
  if (lane < 16)
    r = __syncthreads_count(lane & 1);
  else
    r = 1000 + __syncthreads_count(1);
  out[0][t] = r;
}

// 4: __syncthreads_count in a loop that lanes 0-15 of warp 0 run three
// times and every other thread twice, then once more after the loop.
__global__ void iterSkewCount(int) {
  int t = threadIdx.x;
  int n = t < 16 ? 3 : 2;
  for (int i = 0; i < n; i++)
    out[i][t] = __syncthreads_count(1);
  out[3][t] = 1000 + __syncthreads_count(1);
}

// 5: the same trip counts with __syncthreads: before its k-th barrier a
// thread writes k; after it, it reads the smallest value every thread
// wrote (an exited thread leaves 100) and keeps min >= k.
__global__ void iterSkewSync(int iters) {
  __shared__ volatile int ep[64];
  int t = threadIdx.x;
  ep[t] = 0;
  int n = t < 16 ? 3 : 2;
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (t >= 16 && t < 32)
      for (int j = 0; j < iters; j++) // lanes 16-31 arrive late
        ep[t] = k;
    ep[t] = ++k;
    __syncthreads();
    int m = 1 << 30;
    for (int j = 0; j < 64; j++)
      m = min(m, ep[j]);
    out[i][t] = m >= k;
  }
  ep[t] = ++k;
  __syncthreads();
  int m = 1 << 30;
  for (int j = 0; j < 64; j++)
    m = min(m, ep[j]);
  out[3][t] = m >= k;
  ep[t] = 100;
}

// 6: lanes 16-31 of warp 1 exit at once; the rest reduce.
__global__ void exitedReduce(int) {
  int t = threadIdx.x, lane = t & 31;
  if (t >= 32 && lane >= 16)
    return;
  out[0][t] = __syncthreads_count(1);
  out[1][t] = __syncthreads_and(t != 5);
  out[2][t] = __syncthreads_or(t == 40);
}

// 7: __syncthreads_or / _and in both arms of a branch that splits each
// warp, with the only deciding thread in one arm.
__global__ void ifElseAndOr(int) {
  int t = threadIdx.x, lane = t & 31;
  int a, b;
  if (lane < 16)
    a = __syncthreads_or(t == 8);
  else
    a = 10 + __syncthreads_or(0);
  if (lane < 16)
    b = __syncthreads_and(1);
  else
    b = 10 + __syncthreads_and(t != 60);
  out[0][t] = a;
  out[1][t] = b;
}

__device__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ void barArrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

// 8: warps 0-1 exchange data through named barrier 1 (64 threads), warps
// 2-3 through barrier 2, three rounds each, then all 128 at barrier 0.
__global__ void namedSubset(int iters) {
  __shared__ volatile int s[128];
  int t = threadIdx.x, w = t / 32, lane = t & 31;
  int id = 1 + w / 2, base = (w / 2) * 64;
  int acc = 0;
  for (int r = 0; r < 3; r++) {
    if (w % 2 == 0)
      for (int i = 0; i < (w == 0 ? iters : 1); i++) // warp 0 late
        s[base + lane] = r * 1000 + t + i - i;
    barSync(id, 64);
    if (w % 2 == 1)
      acc += s[base + lane];
    barSync(id, 64);
  }
  __syncthreads();
  out[0][t] = acc;
}

// 9: producer/consumer: warp 0 fills a buffer, bar.arrive 1 (full);
// warp 1 bar.sync 1, reads, bar.arrive 2 (empty); warp 0 bar.sync 2
// before the next fill. Four rounds; the consumer sums what it read.
__global__ void producerConsumer(int iters) {
  __shared__ volatile int buf[32];
  int t = threadIdx.x, lane = t & 31;
  int acc = 0;
  for (int r = 0; r < 4; r++) {
    if (t < 32) {
      if (r > 0)
        barSync(2, 64);
      for (int i = 0; i < iters; i++)
        buf[lane] = -1;
      buf[lane] = r * 100 + lane;
      barArrive(1, 64);
    } else {
      barSync(1, 64);
      acc += buf[lane];
      barArrive(2, 64);
    }
  }
  out[0][t] = acc;
}

// 10: lanes 16-31 of warp 1 exit; the 48 others reach bar.sync 1, 64.
__global__ void namedExited(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (t >= 32 && lane >= 16)
    return;
  if (t < 32)
    for (int i = 1; i <= iters; i++)
      s[t] = i;
  barSync(1, 64);
  out[0][t] = finals(s, 0, 32, iters);
}

// 11: as 0 with bar.sync 1, 64: lanes 0-15 of warp 0 arrive at once,
// lanes 16-31 after a storing loop, warp 1 at once.
__global__ void namedHalfLoop(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (t < 32) {
    if (lane < 16) {
      barSync(1, 64);
      out[0][t] = finals(s, 16, 16, iters);
    } else {
      for (int i = 1; i <= iters; i++)
        s[t] = i;
      barSync(1, 64);
      out[0][t] = 100 + finals(s, 16, 16, iters);
    }
  } else {
    barSync(1, 64);
    out[0][t] = 200 + finals(s, 16, 16, iters);
  }
}

// 12: only lanes 0-15 of each warp reach __syncthreads; lanes 16-31 of
// warp 0 run a storing loop after the branch and exit (never arriving);
// lanes 16-31 of warp 1 exit at once.
__global__ void halfNoCall(int iters) {
  __shared__ volatile int s[64];
  int t = threadIdx.x, lane = t & 31;
  s[t] = 0;
  __syncthreads();
  if (lane < 16) {
    __syncthreads();
    out[0][t] = finals(s, 16, 16, iters);
  } else if (t < 32) {
    for (int i = 1; i <= iters; i++)
      s[t] = i;
    out[0][t] = -1;
  } else {
    out[0][t] = -2;
  }
}

typedef void (*kernel)(int);
static const struct {
  const char *name;
  kernel k;
  int threads, rows;
} scen[] = {
    {"halfLoopStore", halfLoopStore, 64, 1},   {"halfLoopNoStore", halfLoopNoStore, 64, 1},
    {"halfExit", halfExit, 64, 1},             {"ifElseCount", ifElseCount, 64, 1},
    {"iterSkewCount", iterSkewCount, 64, 4},   {"iterSkewSync", iterSkewSync, 64, 4},
    {"exitedReduce", exitedReduce, 64, 3},     {"ifElseAndOr", ifElseAndOr, 64, 2},
    {"namedSubset", namedSubset, 128, 1},      {"producerConsumer", producerConsumer, 64, 1},
    {"namedExited", namedExited, 64, 1},       {"namedHalfLoop", namedHalfLoop, 64, 1},
    {"halfNoCall", halfNoCall, 64, 1},
};

int main(int argc, char **argv) {
  int i = argc > 1 ? atoi(argv[1]) : 0;
  if (i < 0 || i >= (int)(sizeof scen / sizeof scen[0])) {
    fprintf(stderr, "usage: its 0..%d\n", (int)(sizeof scen / sizeof scen[0]) - 1);
    return 2;
  }
  static int h[4][128];
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 128; j++)
      h[r][j] = -9;
  cudaMemcpyToSymbol(out, h, sizeof h);
  scen[i].k<<<1, scen[i].threads>>>(LONG);
  wait(scen[i].name);
  cudaMemcpyFromSymbol(h, out, sizeof h);
  for (int r = 0; r < scen[i].rows; r++) {
    for (int w = 0; w < scen[i].threads / 32; w++) {
      printf("%s row %d warp %d:", scen[i].name, r, w);
      for (int l = 0; l < 32; l++)
        printf(" %d", h[r][w * 32 + l]);
      printf("\n");
    }
  }
  return 0;
}
