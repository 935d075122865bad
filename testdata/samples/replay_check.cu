// replay_check: repeated launches that launch replay (WARPSIM_REPLAY,
// internal/engine/memo.go) may replay, with every way a program changes
// device memory between them: cudaMemcpy from the host, cudaMemset, an
// asynchronous device-to-device copy, the program writing pinned memory a
// kernel reads, and a kernel that reads what it writes. Every result is
// checked against the same computation on the CPU; the program prints one
// line per check and exits 1 on a mismatch. cmd/warpsim's TestCCReplay
// runs it with replay on and off and wants the same output, and launches
// replayed only with it on.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define N 8192
#define ROUNDS 256

__host__ __device__ unsigned mix(unsigned x) {
  for (int r = 0; r < ROUNDS; r++) x = x * 1664525u + 1013904223u + (x >> 13);
  return x;
}

// out[i] = mix(in[i]): reads in, writes out.
__global__ void hashk(unsigned *out, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) out[i] = mix(in[i]);
}

// a[i] = mix(a[i]): reads what it writes.
__global__ void inplace(unsigned *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) a[i] = mix(a[i]);
}

static int failures = 0;

static void check(const char *what, const unsigned *dev, const unsigned *in, int inplaceRounds) {
  static unsigned got[N];
  cudaMemcpy(got, dev, sizeof got, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    unsigned want = in[i];
    for (int r = 0; r < (inplaceRounds ? inplaceRounds : 1); r++) want = mix(want);
    if (got[i] != want && bad++ < 3) printf("  %s: element %d is %u, want %u\n", what, i, got[i], want);
  }
  printf("%s: %s\n", what, bad ? "MISMATCH" : "ok");
  failures += bad != 0;
}

int main() {
  static unsigned h_in[N], h_ref[N];
  unsigned *d_in, *d_out, *d_in2, *p_in;
  cudaMalloc(&d_in, N * 4);
  cudaMalloc(&d_in2, N * 4);
  cudaMalloc(&d_out, N * 4);
  for (int i = 0; i < N; i++) h_in[i] = i * 2654435761u;
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  dim3 grid(N / 256), block(256);

  // The same launch on the same memory: replayed from the third on.
  for (int k = 0; k < 6; k++) hashk<<<grid, block>>>(d_out, d_in);
  check("repeated", d_out, h_in, 0);

  // A new input from the host between launches.
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < N; i++) h_in[i] = h_in[i] * 3 + k;
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    hashk<<<grid, block>>>(d_out, d_in);
    check("after cudaMemcpy", d_out, h_in, 0);
  }

  // cudaMemset of the input, then the earlier input back.
  cudaMemset(d_in, 0x5a, N * 4);
  hashk<<<grid, block>>>(d_out, d_in);
  memset(h_ref, 0x5a, sizeof h_ref);
  check("after cudaMemset", d_out, h_ref, 0);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  hashk<<<grid, block>>>(d_out, d_in);
  check("input restored", d_out, h_in, 0);

  // An asynchronous device-to-device copy into the input on a stream.
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < N; i++) h_ref[i] = h_in[i] ^ 0xffffu;
  cudaMemcpy(d_in2, h_ref, sizeof h_ref, cudaMemcpyHostToDevice);
  hashk<<<grid, block, 0, s>>>(d_out, d_in);
  cudaMemcpyAsync(d_in, d_in2, N * 4, cudaMemcpyDeviceToDevice, s);
  hashk<<<grid, block, 0, s>>>(d_out, d_in);
  cudaStreamSynchronize(s);
  check("after cudaMemcpyAsync", d_out, h_ref, 0);

  // Pinned memory the kernel reads, written by the program between
  // launches without any copy.
  cudaMallocHost(&p_in, N * 4);
  for (int i = 0; i < N; i++) p_in[i] = i;
  for (int k = 0; k < 4; k++) {
    hashk<<<grid, block>>>(d_out, p_in);
    hashk<<<grid, block>>>(d_out, p_in);
    cudaDeviceSynchronize();
    check("pinned input", d_out, p_in, 0);
    p_in[k * 7] += 1000;
  }

  // A kernel that reads what it writes: every launch changes the memory.
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  for (int k = 0; k < 4; k++) inplace<<<grid, block>>>(d_in);
  check("in place, 4 launches", d_in, h_in, 4);

  cudaFreeHost(p_in);
  cudaFree(d_in);
  cudaFree(d_in2);
  cudaFree(d_out);
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
