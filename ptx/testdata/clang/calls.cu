// calls.cu: recursion, non-inlined calls, function pointers (indirect calls
// with prototypes), libdevice math externs, half and bfloat16 arithmetic,
// warp intrinsics.
#include "mini.h"

extern "C" __device__ float __nv_sinf(float);
extern "C" __device__ float __nv_expf(float);
extern "C" __device__ double __nv_pow(double, double);
extern "C" __device__ float __nv_fmaf(float, float, float);

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ float twice(float x) { return 2 * x; }
__device__ __noinline__ float thrice(float x) { return 3 * x; }

struct Pair { float a, b; };
__device__ __noinline__ Pair swap(Pair p) { return Pair{p.b, p.a}; }

__global__ void recurse(int *out) { out[TID_X] = fib(TID_X); }

__global__ void indirect(float *x, int which) {
	float (*f)(float) = which ? twice : thrice;
	x[TID_X] = f(x[TID_X]);
	Pair p = swap(Pair{x[0], x[1]});
	x[2] = p.a - p.b;
}

__global__ void math(float *x, double *y) {
	int i = TID_X;
	x[i] = __nv_sinf(x[i]) + __nv_expf(x[i] * 0.25f) + __nv_fmaf(x[i], 2.0f, -1.0f);
	y[i] = __nv_pow(y[i], 1.0 / 3.0);
}

__global__ void halves(_Float16 *h, __bf16 *b, float *f) {
	int i = TID_X;
	_Float16 v = h[i] * (_Float16)1.5 + h[i + 1];
	h[i] = v;
	b[i] = (__bf16)(f[i] * 3.0f);
	f[i] = (float)b[i + 1] + (float)v;
}

__global__ void warp(int *x, float *y) {
	unsigned full = 0xffffffffu;
	int v = x[TID_X];
	for (int d = 16; d > 0; d /= 2)
		v += __nvvm_shfl_sync_down_i32(full, v, d, 31);
	float w = __nvvm_shfl_sync_bfly_f32(full, y[TID_X], 1, 31);
	unsigned b = __nvvm_vote_ballot_sync(full, v > 3);
	int any = __nvvm_vote_any_sync(full, w > 0);
	if (LANE == 0)
		x[CTAID_X] = v + b + any;
	y[TID_X] = w;
}
