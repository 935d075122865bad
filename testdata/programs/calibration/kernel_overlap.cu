// The figures behind the runtime's kernel-overlap model (cuda/runtime/
// timing.go): kernels on different streams run at once on a GPU when they
// leave SMs free. Each case launches S kernels of B blocks (128 threads)
// that spin for C clock cycles, one per stream, between two events on the
// legacy stream, and prints the elapsed time. Run: kernel_overlap > csv.
#include <cstdio>
#include <cstdlib>

__global__ void spin(long long cycles, int *out) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

int main() {
  int *d;
  cudaMalloc(&d, 1 << 20);
  const int maxStreams = 160;
  cudaStream_t s[maxStreams];
  for (int i = 0; i < maxStreams; i++) cudaStreamCreate(&s[i]);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("# %s, %d SMs\n", p.name, p.multiProcessorCount);
  printf("cycles,streams,blocks,ms\n");
  long long cyc[] = {20000, 2000000};
  int streams[] = {1, 2, 4, 8, 16, 32, 64, 128, 160};
  int blocks[] = {1, 16, 66, 132, 264};
  for (long long c : cyc)
    for (int B : blocks)
      for (int S : streams) {
        if ((long long)S * B > 4 * 1056) continue;
        for (int rep = 0; rep < 2; rep++) {
          cudaEventRecord(a, 0);
          for (int i = 0; i < S; i++) spin<<<B, 128, 0, s[i]>>>(c, d);
          cudaEventRecord(b, 0);
          cudaEventSynchronize(b);
          float ms = 0;
          cudaEventElapsedTime(&ms, a, b);
          if (rep) printf("%lld,%d,%d,%.4f\n", c, S, B, ms);
        }
      }
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
