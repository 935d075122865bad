// Device printf: integer, float, string and pointer conversions with widths,
// precision, flags and length modifiers; many threads print (compared as a
// sorted multiset of lines), one thread prints a block of formats.
#include "wcuda.h"

extern "C" __global__ void many_threads(const int *in, const float *fin, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int v = in[i];
  float f = fin[i];
  printf("t%03d b%d: d=%d i=%i u=%u x=%x X=%X o=%o\n", i, (int)blockIdx.x, v, v, (unsigned)v, v, v, (unsigned)v);
  printf("t%03d f=%f e=%e g=%g a=%a\n", i, f, f, f, f);
  printf("t%03d [%8.3f] [%-10.2e] [%+g] [% d] [%05d] [%-6d|] [%#x] [%#o]\n", i, f, f, f, v, v % 1000, v % 77, v, v);
  if (i % 5 == 0) printf("t%03d ll=%lld llu=%llu lx=%llx hd=%hd hhd=%hhd c=%c s=%s\n", i, (long long)v * 1000003ll,
                         (unsigned long long)v * 3ull, (long long)v << 20, (short)v, (char)v, 'A' + (i % 26),
                         (i & 1) ? "odd" : "even");
}

extern "C" __global__ void one_thread(const double *d, int n) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  printf("== formats ==\n");
  printf("%%d: %d %d %d\n", 0, -2147483647 - 1, 2147483647);
  printf("%%u: %u %u\n", 0u, 4294967295u);
  printf("%%ld: %ld %lu\n", (long)(-9223372036854775807ll - 1), (unsigned long)18446744073709551615ull);
  printf("%%5s: [%5s] [%-5s] [%.2s] [%s]\n", "ab", "ab", "abcdef", "");
  printf("%%c: [%c] [%3c] [%-3c]\n", 'x', 'y', 'z');
  printf("%%p: %p\n", (void *)0x1234);
  printf("%%x: %x %08X %#010x\n", 0xdeadbeefu, 0xbeefu, 0xcafeu);
  for (int k = 0; k < n; k++) {
    double x = d[k];
    printf("%d: f=%f .0f=%.0f .10f=%.10f e=%e .3e=%.3E g=%g .12g=%.12g G=%G a=%a [%12.4f] [%-12.4e] [%+.1f]\n", k, x, x,
           x, x, x, x, x, x, x, x, x, x);
  }
  printf("%s|%d|%s\n", "multi", 42, "args");
  printf("no newline at end");
  printf("\n100%% done\n");
}
