/* warpsim: texture fetches through texture objects, as CUDA's
 * texture_indirect_functions.h offers them: tex1Dfetch, tex1D, tex2D,
 * tex3D, tex1DLayered, tex2DLayered, texCubemap, texCubemapLayered, their
 * Lod and Grad forms (one level: the level and gradients choose nothing),
 * and tex2Dgather, for char, short, int and float elements and their 1-,
 * 2- and 4-vectors. Each is one PTX tex (tld4) instruction written as
 * inline asm, which warpsim simulates. */
#ifndef __WARPSIM_TEXTURE_FETCH_FUNCTIONS_H__
#define __WARPSIM_TEXTURE_FETCH_FUNCTIONS_H__
#define __TEXTURE_FETCH_FUNCTIONS_H__
#define __TEXTURE_INDIRECT_FUNCTIONS_H__
#include "texture_types.h"
#if defined(__cplusplus) && !defined(__WARPSIM_HOST_ONLY__)
#include "vector_types.h"

/* __ws_texel<T>: which form of the fetch T reads (0 float, 1 signed,
 * 2 unsigned) and how the four 32-bit results become a T. */
template <class T> struct __ws_texel;
#define __WS_TEXEL(T, K, R, EXPR) \
  template <> struct __ws_texel<T> { enum { kind = K }; static __device__ __forceinline__ T make(const R &v) { return EXPR; } };
#define __WS_TEXELS(S, V, K, R, C) \
  __WS_TEXEL(V##1, K, R, make_##V##1((C)v.x)) \
  __WS_TEXEL(V##2, K, R, make_##V##2((C)v.x, (C)v.y)) \
  __WS_TEXEL(V##4, K, R, make_##V##4((C)v.x, (C)v.y, (C)v.z, (C)v.w))
__WS_TEXEL(char, 1, int4, (char)v.x)
__WS_TEXEL(signed char, 1, int4, (signed char)v.x)
__WS_TEXEL(unsigned char, 2, uint4, (unsigned char)v.x)
__WS_TEXEL(short, 1, int4, (short)v.x)
__WS_TEXEL(unsigned short, 2, uint4, (unsigned short)v.x)
__WS_TEXEL(int, 1, int4, v.x)
__WS_TEXEL(unsigned int, 2, uint4, v.x)
__WS_TEXEL(float, 0, float4, v.x)
__WS_TEXELS(char, char, 1, int4, signed char)
__WS_TEXELS(unsigned char, uchar, 2, uint4, unsigned char)
__WS_TEXELS(short, short, 1, int4, short)
__WS_TEXELS(unsigned short, ushort, 2, uint4, unsigned short)
__WS_TEXELS(int, int, 1, int4, int)
__WS_TEXELS(unsigned int, uint, 2, uint4, unsigned int)
__WS_TEXELS(float, float, 0, float4, float)
#undef __WS_TEXEL
#undef __WS_TEXELS

template <int K> struct __ws_fetch;
template <> struct __ws_fetch<0> {
  typedef float4 R;
  static __device__ __forceinline__ R tex1Dfetch(cudaTextureObject_t t, int x) { R r; asm("tex.1d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(x)); return r; }
  static __device__ __forceinline__ R tex1D(cudaTextureObject_t t, float x) { R r; asm("tex.1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLod(cudaTextureObject_t t, float x, float level) { R r; asm("tex.level.1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5}], %6;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy) { R r; asm("tex.grad.1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5}], {%6}, {%7};" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2D(cudaTextureObject_t t, float x, float y) { R r; asm("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLod(cudaTextureObject_t t, float x, float y, float level) { R r; asm("tex.level.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) { R r; asm("tex.grad.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8}, {%9, %10};" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R tex3D(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.3d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.3d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) { R r; asm("tex.grad.3d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10, %11, %12}, {%13, %14, %15, %16};" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z), "f"(dx.z), "f"(dy.x), "f"(dy.y), "f"(dy.z), "f"(dy.z)); return r; }
  static __device__ __forceinline__ R tex1DLayered(cudaTextureObject_t t, float x, int layer) { R r; asm("tex.a1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level) { R r; asm("tex.level.a1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dx, float dy) { R r; asm("tex.grad.a1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7}, {%8};" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) { R r; asm("tex.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level) { R r; asm("tex.level.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) { R r; asm("tex.grad.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10}, {%11, %12};" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R texCubemap(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) { R r; asm("tex.acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level) { R r; asm("tex.level.acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2Dgather(cudaTextureObject_t t, float x, float y, int comp) { R r; switch (comp) { case 1: asm("tld4.g.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 2: asm("tld4.b.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 3: asm("tld4.a.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y)); break; default: asm("tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "f"(x), "f"(y)); } return r; }
};
template <> struct __ws_fetch<1> {
  typedef int4 R;
  static __device__ __forceinline__ R tex1Dfetch(cudaTextureObject_t t, int x) { R r; asm("tex.1d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(x)); return r; }
  static __device__ __forceinline__ R tex1D(cudaTextureObject_t t, float x) { R r; asm("tex.1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLod(cudaTextureObject_t t, float x, float level) { R r; asm("tex.level.1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5}], %6;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy) { R r; asm("tex.grad.1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5}], {%6}, {%7};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2D(cudaTextureObject_t t, float x, float y) { R r; asm("tex.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLod(cudaTextureObject_t t, float x, float y, float level) { R r; asm("tex.level.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) { R r; asm("tex.grad.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8}, {%9, %10};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R tex3D(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.3d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.3d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) { R r; asm("tex.grad.3d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10, %11, %12}, {%13, %14, %15, %16};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z), "f"(dx.z), "f"(dy.x), "f"(dy.y), "f"(dy.z), "f"(dy.z)); return r; }
  static __device__ __forceinline__ R tex1DLayered(cudaTextureObject_t t, float x, int layer) { R r; asm("tex.a1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level) { R r; asm("tex.level.a1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dx, float dy) { R r; asm("tex.grad.a1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7}, {%8};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) { R r; asm("tex.a2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level) { R r; asm("tex.level.a2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) { R r; asm("tex.grad.a2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10}, {%11, %12};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R texCubemap(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.cube.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.cube.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) { R r; asm("tex.acube.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level) { R r; asm("tex.level.acube.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2Dgather(cudaTextureObject_t t, float x, float y, int comp) { R r; switch (comp) { case 1: asm("tld4.g.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 2: asm("tld4.b.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 3: asm("tld4.a.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; default: asm("tld4.r.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); } return r; }
};
template <> struct __ws_fetch<2> {
  typedef uint4 R;
  static __device__ __forceinline__ R tex1Dfetch(cudaTextureObject_t t, int x) { R r; asm("tex.1d.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(x)); return r; }
  static __device__ __forceinline__ R tex1D(cudaTextureObject_t t, float x) { R r; asm("tex.1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLod(cudaTextureObject_t t, float x, float level) { R r; asm("tex.level.1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5}], %6;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy) { R r; asm("tex.grad.1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5}], {%6}, {%7};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2D(cudaTextureObject_t t, float x, float y) { R r; asm("tex.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLod(cudaTextureObject_t t, float x, float y, float level) { R r; asm("tex.level.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) { R r; asm("tex.grad.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8}, {%9, %10};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R tex3D(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.3d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.3d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) { R r; asm("tex.grad.3d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10, %11, %12}, {%13, %14, %15, %16};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z), "f"(dx.z), "f"(dy.x), "f"(dy.y), "f"(dy.z), "f"(dy.z)); return r; }
  static __device__ __forceinline__ R tex1DLayered(cudaTextureObject_t t, float x, int layer) { R r; asm("tex.a1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x)); return r; }
  static __device__ __forceinline__ R tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level) { R r; asm("tex.level.a1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(level)); return r; }
  static __device__ __forceinline__ R tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dx, float dy) { R r; asm("tex.grad.a1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7}, {%8};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(dx), "f"(dy)); return r; }
  static __device__ __forceinline__ R tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) { R r; asm("tex.a2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y)); return r; }
  static __device__ __forceinline__ R tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level) { R r; asm("tex.level.a2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) { R r; asm("tex.grad.a2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10}, {%11, %12};" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(y), "f"(dx.x), "f"(dx.y), "f"(dy.x), "f"(dy.y)); return r; }
  static __device__ __forceinline__ R texCubemap(cudaTextureObject_t t, float x, float y, float z) { R r; asm("tex.cube.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level) { R r; asm("tex.level.cube.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y), "f"(z), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) { R r; asm("tex.acube.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z)); return r; }
  static __device__ __forceinline__ R texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level) { R r; asm("tex.level.acube.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], %9;" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "r"(layer), "f"(x), "f"(y), "f"(z), "f"(level)); return r; }
  static __device__ __forceinline__ R tex2Dgather(cudaTextureObject_t t, float x, float y, int comp) { R r; switch (comp) { case 1: asm("tld4.g.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 2: asm("tld4.b.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; case 3: asm("tld4.a.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); break; default: asm("tld4.r.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(t), "f"(x), "f"(y)); } return r; }
};
template <class T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t t, int x) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1Dfetch(t, x));
}
template <class T> static __device__ __forceinline__ void tex1Dfetch(T *ret, cudaTextureObject_t t, int x) { *ret = tex1Dfetch<T>(t, x); }
template <class T> static __device__ __forceinline__ T tex1D(cudaTextureObject_t t, float x) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1D(t, x));
}
template <class T> static __device__ __forceinline__ void tex1D(T *ret, cudaTextureObject_t t, float x) { *ret = tex1D<T>(t, x); }
template <class T> static __device__ __forceinline__ T tex1DLod(cudaTextureObject_t t, float x, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1DLod(t, x, level));
}
template <class T> static __device__ __forceinline__ void tex1DLod(T *ret, cudaTextureObject_t t, float x, float level) { *ret = tex1DLod<T>(t, x, level); }
template <class T> static __device__ __forceinline__ T tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1DGrad(t, x, dx, dy));
}
template <class T> static __device__ __forceinline__ void tex1DGrad(T *ret, cudaTextureObject_t t, float x, float dx, float dy) { *ret = tex1DGrad<T>(t, x, dx, dy); }
template <class T> static __device__ __forceinline__ T tex2D(cudaTextureObject_t t, float x, float y) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2D(t, x, y));
}
template <class T> static __device__ __forceinline__ void tex2D(T *ret, cudaTextureObject_t t, float x, float y) { *ret = tex2D<T>(t, x, y); }
template <class T> static __device__ __forceinline__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2DLod(t, x, y, level));
}
template <class T> static __device__ __forceinline__ void tex2DLod(T *ret, cudaTextureObject_t t, float x, float y, float level) { *ret = tex2DLod<T>(t, x, y, level); }
template <class T> static __device__ __forceinline__ T tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2DGrad(t, x, y, dx, dy));
}
template <class T> static __device__ __forceinline__ void tex2DGrad(T *ret, cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) { *ret = tex2DGrad<T>(t, x, y, dx, dy); }
template <class T> static __device__ __forceinline__ T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2Dgather(t, x, y, comp));
}
template <class T> static __device__ __forceinline__ void tex2Dgather(T *ret, cudaTextureObject_t t, float x, float y, int comp) { *ret = tex2Dgather<T>(t, x, y, comp); }
template <class T> static __device__ __forceinline__ T tex3D(cudaTextureObject_t t, float x, float y, float z) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex3D(t, x, y, z));
}
template <class T> static __device__ __forceinline__ void tex3D(T *ret, cudaTextureObject_t t, float x, float y, float z) { *ret = tex3D<T>(t, x, y, z); }
template <class T> static __device__ __forceinline__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex3DLod(t, x, y, z, level));
}
template <class T> static __device__ __forceinline__ void tex3DLod(T *ret, cudaTextureObject_t t, float x, float y, float z, float level) { *ret = tex3DLod<T>(t, x, y, z, level); }
template <class T> static __device__ __forceinline__ T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex3DGrad(t, x, y, z, dx, dy));
}
template <class T> static __device__ __forceinline__ void tex3DGrad(T *ret, cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) { *ret = tex3DGrad<T>(t, x, y, z, dx, dy); }
template <class T> static __device__ __forceinline__ T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1DLayered(t, x, layer));
}
template <class T> static __device__ __forceinline__ void tex1DLayered(T *ret, cudaTextureObject_t t, float x, int layer) { *ret = tex1DLayered<T>(t, x, layer); }
template <class T> static __device__ __forceinline__ T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1DLayeredLod(t, x, layer, level));
}
template <class T> static __device__ __forceinline__ void tex1DLayeredLod(T *ret, cudaTextureObject_t t, float x, int layer, float level) { *ret = tex1DLayeredLod<T>(t, x, layer, level); }
template <class T> static __device__ __forceinline__ T tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dx, float dy) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex1DLayeredGrad(t, x, layer, dx, dy));
}
template <class T> static __device__ __forceinline__ void tex1DLayeredGrad(T *ret, cudaTextureObject_t t, float x, int layer, float dx, float dy) { *ret = tex1DLayeredGrad<T>(t, x, layer, dx, dy); }
template <class T> static __device__ __forceinline__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2DLayered(t, x, y, layer));
}
template <class T> static __device__ __forceinline__ void tex2DLayered(T *ret, cudaTextureObject_t t, float x, float y, int layer) { *ret = tex2DLayered<T>(t, x, y, layer); }
template <class T> static __device__ __forceinline__ T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2DLayeredLod(t, x, y, layer, level));
}
template <class T> static __device__ __forceinline__ void tex2DLayeredLod(T *ret, cudaTextureObject_t t, float x, float y, int layer, float level) { *ret = tex2DLayeredLod<T>(t, x, y, layer, level); }
template <class T> static __device__ __forceinline__ T tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::tex2DLayeredGrad(t, x, y, layer, dx, dy));
}
template <class T> static __device__ __forceinline__ void tex2DLayeredGrad(T *ret, cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) { *ret = tex2DLayeredGrad<T>(t, x, y, layer, dx, dy); }
template <class T> static __device__ __forceinline__ T texCubemap(cudaTextureObject_t t, float x, float y, float z) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::texCubemap(t, x, y, z));
}
template <class T> static __device__ __forceinline__ void texCubemap(T *ret, cudaTextureObject_t t, float x, float y, float z) { *ret = texCubemap<T>(t, x, y, z); }
template <class T> static __device__ __forceinline__ T texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::texCubemapLod(t, x, y, z, level));
}
template <class T> static __device__ __forceinline__ void texCubemapLod(T *ret, cudaTextureObject_t t, float x, float y, float z, float level) { *ret = texCubemapLod<T>(t, x, y, z, level); }
template <class T> static __device__ __forceinline__ T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::texCubemapLayered(t, x, y, z, layer));
}
template <class T> static __device__ __forceinline__ void texCubemapLayered(T *ret, cudaTextureObject_t t, float x, float y, float z, int layer) { *ret = texCubemapLayered<T>(t, x, y, z, layer); }
template <class T> static __device__ __forceinline__ T texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level) {
  return __ws_texel<T>::make(__ws_fetch<__ws_texel<T>::kind>::texCubemapLayeredLod(t, x, y, z, layer, level));
}
template <class T> static __device__ __forceinline__ void texCubemapLayeredLod(T *ret, cudaTextureObject_t t, float x, float y, float z, int layer, float level) { *ret = texCubemapLayeredLod<T>(t, x, y, z, layer, level); }

#endif
#endif
