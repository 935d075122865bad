// globals.cu: module-scope __device__ and __constant__ variables with
// initializers, pointers to globals (generic() initializers), structs.
#include "mini.h"

__device__ int table[8] = {1, -2, 3, -4, 0x7fffffff, -2147483647 - 1, 0, 9};
__constant__ float coeffs[3] = {1.0f, -0.5f, 0.25f};
__constant__ double dcoeffs[2] = {3.141592653589793, -1e-300};
__device__ long long big[2] = {-1, 0x123456789abcdefLL};
__device__ unsigned short shorts[3] = {1, 65535, 2};
__device__ char msg[] = "hi there";
__device__ int counter;
__device__ int *ptr = &table[2];
__device__ float *cptr = (float *)&coeffs[1];
__device__ int *ptrs[2] = {&table[0], &counter};
struct S { int a; int *p; float f; };
__device__ S s = {5, &table[3], 2.5f};
__device__ int matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ _Float16 hvals[2] = {(_Float16)1.5, (_Float16)-2.0};

__global__ void useGlobals(float *out) {
	int i = TID_X;
	counter += table[i & 7];
	out[i] = coeffs[i % 3] * (float)dcoeffs[i & 1] + big[i & 1] + shorts[i % 3] + msg[i & 7] + *ptr + *cptr +
	         *ptrs[i & 1] + s.a + *s.p + s.f + matrix[i & 1][i % 3] + (float)hvals[i & 1];
}
