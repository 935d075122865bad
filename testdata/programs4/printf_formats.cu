// Device printf with many conversions, flags, widths and precisions.
// (The NaN is computed on the device: nvcc folds a constant 0.0 / 0.0 to
// the x86 host's negative NaN, clang to a positive one. %hhu and a "*"
// precision are left out: the H100's printf printed 91 for
// (unsigned char)300 and "%.*f" verbatim in the first recording.)
#include <cstdio>

__device__ const char *names[] = {"alpha", "beta", "gamma"};

__global__ void fmt(double d, float f, long long ll) {
  int t = threadIdx.x;
  if (t == 0) {
    printf("[%d] %e | %E | %.3e | %g | %G | %.10g | %a\n", t, d, d, d, d, d * 1e20, d, d);
    printf("[%d] %f %.0f %10.4f|%-10.2f|%+f % f\n", t, f, f, f, f, f, f);
    printf("[%d] %x %X %#x %o %#o %08x %-8x|\n", t, 48879, 48879, 48879, 8, 8, 255, 255);
    printf("[%d] %lld %llx %llu %ld %hd %hu\n", t, ll, ll, (unsigned long long)-ll, (long)ll, (short)70000, (unsigned short)70001);
    printf("[%d] %s|%10s|%-10s|%.3s|%c%c%%\n", t, names[0], names[1], names[2], "truncate", 'o', 'k');
    printf("[%d] %5d|%-5d|%05d|%+d|% d|%*d|%.2f\n", t, 42, 42, 42, 42, 42, 6, 7, 3.14159);
    printf("[%d] inf %f nan %f -0 %g tiny %g %e\n", t, 1.0 / 0.0, (d - d) / (d - d), -0.0, 1e-310, 5e-324);
    printf("[%d] null %s\n", t, (const char *)0);
  }
  __syncthreads();
  if (t < 4) printf("thread %d of block %d: %8.3f %s\n", t, blockIdx.x, t * 1.25, names[t % 3]);
}

int main() {
  fmt<<<1, 8>>>(1234.5678901234, -3.25f, -123456789012345LL);
  cudaDeviceSynchronize();
  printf("host done\n");
  return 0;
}
