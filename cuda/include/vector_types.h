/* warpsim: CUDA's built-in vector types (char1 … double4, dim3) and their
 * make_* constructors, with CUDA's sizes and alignments. */
#ifndef __WARPSIM_VECTOR_TYPES_H__
#define __WARPSIM_VECTOR_TYPES_H__
/* NVIDIA's include-guard names, which programs test. */
#define __VECTOR_TYPES_H__
#define __BUILTIN_TYPES_H__
#include "__warpsim_defines.h"

#define __WARPSIM_VEC1(T, N, A) struct __attribute__((aligned(A))) N##1 { T x; };
#define __WARPSIM_VEC2(T, N, A) struct __attribute__((aligned(A))) N##2 { T x, y; };
#define __WARPSIM_VEC3(T, N) struct N##3 { T x, y, z; };
#define __WARPSIM_VEC4(T, N, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };
#define __WARPSIM_VECS(T, N, A1, A2, A4) \
  __WARPSIM_VEC1(T, N, A1) __WARPSIM_VEC2(T, N, A2) __WARPSIM_VEC3(T, N) __WARPSIM_VEC4(T, N, A4) \
  typedef struct N##1 N##1; typedef struct N##2 N##2; typedef struct N##3 N##3; typedef struct N##4 N##4;

__WARPSIM_VECS(signed char, char, 1, 2, 4)
__WARPSIM_VECS(unsigned char, uchar, 1, 2, 4)
__WARPSIM_VECS(short, short, 2, 4, 8)
__WARPSIM_VECS(unsigned short, ushort, 2, 4, 8)
__WARPSIM_VECS(int, int, 4, 8, 16)
__WARPSIM_VECS(unsigned int, uint, 4, 8, 16)
__WARPSIM_VECS(long, long, sizeof(long), 2 * sizeof(long), 16)
__WARPSIM_VECS(unsigned long, ulong, sizeof(long), 2 * sizeof(long), 16)
__WARPSIM_VECS(long long, longlong, 8, 16, 16)
__WARPSIM_VECS(unsigned long long, ulonglong, 8, 16, 16)
__WARPSIM_VECS(float, float, 4, 8, 16)
__WARPSIM_VECS(double, double, 8, 16, 16)

#undef __WARPSIM_VEC1
#undef __WARPSIM_VEC2
#undef __WARPSIM_VEC3
#undef __WARPSIM_VEC4
#undef __WARPSIM_VECS

struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#define __WARPSIM_MAKE1(N, T) __WARPSIM_HDI__ N##1 make_##N##1(T x) { N##1 v; v.x = x; return v; }
#define __WARPSIM_MAKE2(N, T) __WARPSIM_HDI__ N##2 make_##N##2(T x, T y) { N##2 v; v.x = x; v.y = y; return v; }
#define __WARPSIM_MAKE3(N, T) __WARPSIM_HDI__ N##3 make_##N##3(T x, T y, T z) { N##3 v; v.x = x; v.y = y; v.z = z; return v; }
#define __WARPSIM_MAKE4(N, T) __WARPSIM_HDI__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
#define __WARPSIM_MAKES(N, T) __WARPSIM_MAKE1(N, T) __WARPSIM_MAKE2(N, T) __WARPSIM_MAKE3(N, T) __WARPSIM_MAKE4(N, T)
__WARPSIM_MAKES(char, signed char)
__WARPSIM_MAKES(uchar, unsigned char)
__WARPSIM_MAKES(short, short)
__WARPSIM_MAKES(ushort, unsigned short)
__WARPSIM_MAKES(int, int)
__WARPSIM_MAKES(uint, unsigned int)
__WARPSIM_MAKES(long, long)
__WARPSIM_MAKES(ulong, unsigned long)
__WARPSIM_MAKES(longlong, long long)
__WARPSIM_MAKES(ulonglong, unsigned long long)
__WARPSIM_MAKES(float, float)
__WARPSIM_MAKES(double, double)
#undef __WARPSIM_MAKE1
#undef __WARPSIM_MAKE2
#undef __WARPSIM_MAKE3
#undef __WARPSIM_MAKE4
#undef __WARPSIM_MAKES

#endif
