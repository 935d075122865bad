// Device-function recursion (fib, Ackermann, a recursive quicksort on a
// local array), local arrays indexed dynamically, structs passed and
// returned by value through non-inlined calls.
#include "wcuda.h"

__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__device__ __noinline__ int ackermann(int m, int k) {
  if (m == 0) return k + 1;
  if (k == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, k - 1));
}

__device__ __noinline__ void quicksort(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], l = lo, r = hi;
  while (l <= r) {
    while (a[l] < p) l++;
    while (a[r] > p) r--;
    if (l <= r) { int t = a[l]; a[l] = a[r]; a[r] = t; l++; r--; }
  }
  quicksort(a, lo, r);
  quicksort(a, l, hi);
}

struct Acc { int sum; unsigned x; long long prod; float f; };

__device__ __noinline__ Acc step(Acc a, int v) {
  Acc r;
  r.sum = a.sum + v;
  r.x = a.x * 31u ^ (unsigned)v;
  r.prod = a.prod * 3 + v;
  r.f = a.f * 0.5f + (float)v;
  return r;
}

extern "C" __global__ void recurse(const int *in, int *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int v = in[i];
  out[3 * i] = fib(v & 15);
  out[3 * i + 1] = ackermann(v & 1 ? 2 : 1, (v >> 1) & 7);
  Acc a = {0, 7u, 1, 0.0f};
  for (int k = 0; k < (v & 7) + 1; k++) a = step(a, v + k);
  out[3 * i + 2] = a.sum ^ (int)a.x ^ (int)a.prod ^ __float_as_int(a.f);
}

extern "C" __global__ void local_arrays(const int *in, int *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int arr[24];
  int idx[24];
  for (int k = 0; k < 24; k++) {
    arr[k] = in[(i * 24 + k) % n] % 1000;
    idx[k] = (in[(i + k) % n] & 0x7fffffff) % 24;
  }
  int gathered = 0;
  for (int k = 0; k < 24; k++) gathered = gathered * 7 + arr[idx[k]];
  for (int k = 0; k < 24; k++) arr[idx[k]] += k;
  quicksort(arr, 0, 23);
  for (int k = 0; k < 24; k++) out[i * 26 + k] = arr[k];
  out[i * 26 + 24] = gathered;
  double dl[5];
  for (int k = 0; k < 5; k++) dl[k] = (double)arr[(k * 5 + i) % 24] * 0.5;
  out[i * 26 + 25] = (int)(dl[in[i] & 3] + dl[(in[i] >> 2) & 3] * 4.0);
}
