// basics.cu: printf, atomics, shared memory (static and dynamic), local
// arrays, templates.
#include "mini.h"

__global__ void hello(int n) {
	printf("hello from thread %d of block %d, n=%d %f\n", TID_X, CTAID_X, n, 1.5 * n);
}

__global__ void histogram(const unsigned char *in, unsigned *bins, int n, float *fsum, unsigned long long *big) {
	int i = CTAID_X * NTID_X + TID_X;
	if (i < n) {
		__nvvm_atom_add_gen_i((int *)&bins[in[i]], 1);
		__nvvm_atom_add_gen_f(fsum, 0.5f);
		__nvvm_atom_max_gen_i((int *)bins, i);
		__nvvm_atom_cas_gen_ll((long long *)big, 0, i);
		__nvvm_atom_xchg_gen_i((int *)bins + 1, 7);
	}
}

__global__ void reverse(float *d, int n) {
	__shared__ float s[256];
	int t = TID_X;
	s[t] = d[t];
	__syncthreads();
	d[t] = s[n - t - 1];
}

extern __shared__ float dyn[];

__global__ void dynShared(float *d) {
	int t = TID_X;
	dyn[t] = d[t] * 2.0f;
	__syncthreads();
	d[t] = dyn[(t + 1) % NTID_X];
}

__global__ void localArray(int *out, int k) {
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = i * k + TID_X;
	out[TID_X] = a[(TID_X * 7 + k) & 15];
}

template <typename T, int N>
__global__ void scale(T *x, T f) {
	int i = CTAID_X * NTID_X + TID_X;
#pragma unroll 1
	for (int j = 0; j < N; j++)
		x[i * N + j] *= f;
}

template __global__ void scale<float, 4>(float *, float);
template __global__ void scale<double, 2>(double *, double);
template __global__ void scale<int, 3>(int *, int);
