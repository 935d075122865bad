// Device printf from many threads (compared as a sorted multiset of lines):
// integer conversions with flags and widths, float conversions, length
// modifiers, characters and strings. (printf/kernel.cu's many_threads put
// %lld %llu %llx %hd %hhd %c %s in one format and the GPU's printf faulted,
// an illegal address inside vfprintf, most likely on %hhd; this case splits
// that line and leaves hh out.)
#include "wcuda.h"

extern "C" __global__ void many_threads(const int *in, const float *fin, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int v = in[i];
  float f = fin[i];
  printf("t%03d b%d: d=%d i=%i u=%u x=%x X=%X o=%o\n", i, (int)blockIdx.x, v, v, (unsigned)v, v, v, (unsigned)v);
  printf("t%03d f=%f e=%e g=%g a=%a\n", i, f, f, f, f);
  printf("t%03d [%8.3f] [%-10.2e] [%+g] [% d] [%05d] [%-6d|] [%#x] [%#o]\n", i, f, f, f, v, v % 1000, v % 77, v, v);
  if (i % 5 == 0) {
    printf("t%03d ll=%lld llu=%llu lx=%llx\n", i, (long long)v * 1000003ll, (unsigned long long)v * 3ull,
           (long long)v << 20);
    printf("t%03d hd=%hd hu=%hu\n", i, (short)v, (unsigned short)v);
    printf("t%03d c=%c s=%s [%8s] [%-3.1s]\n", i, 'A' + (i % 26), (i & 1) ? "odd" : "even", "right", "xyz");
  }
}
