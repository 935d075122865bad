// first.cu: what a program's first kernel launches pay, by the history of the
// pages they touch (issues 18 and 19, prog20). One process runs one sequence
// (argv[1]) of small launches; run under Nsight Compute (its defaults: base
// clock, caches flushed) each launch's gpu__time_duration is recorded, and
// every k_read launch prints its stamps: the cycles of its first read of the
// region (block 0, lane 0; clock64 around a load whose value is used) and of
// a second read of another line of the same 2 MiB page.
//
// Buffers: A and B are 64 MiB each (their own allocations), written by the
// copy engine (cudaMemcpy) at the start unless the sequence says otherwise;
// S is a small stamp buffer, written by the copy engine too.
//
// Sequences (launches in order):
//   read3     k_read(A) x3                      first launch reads copy-engine pages; then warm
//   empty3    k_empty x3                        the first launch with no memory at all
//   eread     k_empty, k_read(A) x2             copy-engine pages, not the process's first kernel
//   other     k_read(B), k_read(A), k_read(A)   copy-engine pages after another kernel read another region
//   twoback   k_read(A), k_read(B), k_read(A)   a region read two launches before
//   fresh     k_read(F) x2                      F cudaMalloc'd, never written (no copy)
//   stream3   k_copy(A->B) x3, 132 blocks x 256 a whole grid; its first launch and the warm ones
//   estream   k_empty, k_copy(A->B) x2          the same, after an empty first kernel
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef unsigned long long u64;

__global__ void k_empty() {}

// k_read: block 0 lane 0 times its first read of a (at offset off) and a read
// 4 KiB further (same page); every block's lane 0 reads a line of its own so
// that each SM asks for the region. s gets the two latencies and a checksum.
__global__ void k_read(const int *a, u64 *s, int off) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    const volatile int *p = a + off / 4;
    u64 t0 = clock64();
    int v = p[0];
    u64 t1 = clock64();
    int w = p[(v & 1) + 1024];
    u64 t2 = clock64();
    s[0] = t1 - t0;
    s[1] = t2 - t1;
    s[2] = (u64)(v + w);
  } else {
    s[8 + blockIdx.x] = (u64)a[off / 4 + blockIdx.x * 8192];
  }
}

__global__ void k_copy(const float *a, float *b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) b[i] = a[i] * 2.0f;
}

static const size_t BYTES = 64ull << 20;

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    printf("error %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static int launchNo = 0;

static void readA(const char *seq, const char *name, int *buf, u64 *s, int blocks) {
  k_read<<<blocks, 32>>>(buf, s, 4096);
  check(cudaDeviceSynchronize(), "k_read");
  u64 h[3];
  check(cudaMemcpy(h, s, sizeof h, cudaMemcpyDeviceToHost), "copy s");
  printf("%s launch %d k_read(%s) first %llu second %llu sum %llu\n", seq, launchNo++, name, h[0], h[1], h[2]);
}

static void empty(const char *seq) {
  k_empty<<<1, 32>>>();
  check(cudaDeviceSynchronize(), "k_empty");
  printf("%s launch %d k_empty\n", seq, launchNo++);
}

static void copyAB(const char *seq, float *a, float *b) {
  int n = 1 << 20;
  k_copy<<<132, 256>>>(a, b, n);
  check(cudaDeviceSynchronize(), "k_copy");
  float h;
  check(cudaMemcpy(&h, b + n - 1, sizeof h, cudaMemcpyDeviceToHost), "copy b");
  printf("%s launch %d k_copy %g\n", seq, launchNo++, h);
}

int main(int argc, char **argv) {
  const char *seq = argc > 1 ? argv[1] : "read3";
  int blocks = argc > 2 ? atoi(argv[2]) : 1;
  std::vector<int> host(BYTES / 4);
  for (size_t i = 0; i < host.size(); i++) host[i] = (int)(i * 2654435761u >> 8) & 0xffff;
  int *A, *B, *F;
  u64 *S;
  check(cudaMalloc(&A, BYTES), "malloc A");
  check(cudaMalloc(&B, BYTES), "malloc B");
  check(cudaMalloc(&S, 256 * sizeof(u64)), "malloc S");
  check(cudaMemcpy(A, host.data(), BYTES, cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(B, host.data(), BYTES, cudaMemcpyHostToDevice), "copy B");
  if (!strcmp(seq, "read3")) {
    for (int i = 0; i < 3; i++) readA(seq, "A", A, S, blocks);
  } else if (!strcmp(seq, "empty3")) {
    for (int i = 0; i < 3; i++) empty(seq);
  } else if (!strcmp(seq, "eread")) {
    empty(seq);
    for (int i = 0; i < 2; i++) readA(seq, "A", A, S, blocks);
  } else if (!strcmp(seq, "other")) {
    readA(seq, "B", B, S, blocks);
    readA(seq, "A", A, S, blocks);
    readA(seq, "A", A, S, blocks);
  } else if (!strcmp(seq, "twoback")) {
    readA(seq, "A", A, S, blocks);
    readA(seq, "B", B, S, blocks);
    readA(seq, "A", A, S, blocks);
  } else if (!strcmp(seq, "fresh")) {
    check(cudaMalloc(&F, BYTES), "malloc F");
    for (int i = 0; i < 2; i++) readA(seq, "F", F, S, blocks);
  } else if (!strcmp(seq, "stream3")) {
    for (int i = 0; i < 3; i++) copyAB(seq, (float *)A, (float *)B);
  } else if (!strcmp(seq, "estream")) {
    empty(seq);
    for (int i = 0; i < 2; i++) copyAB(seq, (float *)A, (float *)B);
  } else {
    printf("unknown sequence %s\n", seq);
    return 2;
  }
  return 0;
}
