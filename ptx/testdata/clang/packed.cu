// packed.cu: pointers inside packed structs (LLVM's byte-mask initializers
// "0xFF00(generic(x)+4)"), arrays of structs with pointers, function pointers.
#include "mini.h"
__device__ int tgt[4];
struct __attribute__((packed)) P { char c; int *p; short s; };
__device__ P pk = {1, &tgt[1], 7};
struct Q { int a; int *p; };
__device__ Q qs[2] = {{1, &tgt[0]}, {2, &tgt[2]}};
__device__ void (*fp)(int*) = nullptr;
__device__ void f1(int *x) { *x = 1; }
__device__ void (*fps[2])(int*) = {f1, f1};
__global__ void k(int *o) { o[0] = pk.c + *pk.p + qs[1].a; fps[o[1]](o); }
