/* warpsim: the texture and surface types of CUDA's driver_types.h,
 * texture_types.h, surface_types.h and channel_descriptor.h, with CUDA's
 * layouts and values, so code that names them (CUB's texture iterator,
 * programs that set up texture objects) compiles. warpsim does not
 * simulate texture or surface fetches: device code that reads a texture
 * fails to compile, saying so, and the host texture API is not offered. */
#ifndef __WARPSIM_TEXTURE_TYPES_H__
#define __WARPSIM_TEXTURE_TYPES_H__
/* NVIDIA's include-guard names, which programs test. */
#define __TEXTURE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#include "__warpsim_defines.h"
#include <stddef.h>

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
  cudaChannelFormatKindNV12 = 4
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width; size_t height; size_t pitchInBytes; } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };

#ifdef __cplusplus
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}
template <class T> struct __warpsim_channel;
#define __WARPSIM_CHANNEL(T, X, Y, Z, W, K) \
  template <> struct __warpsim_channel<T> { static constexpr cudaChannelFormatDesc get() { return {X, Y, Z, W, cudaChannelFormatKind##K}; } };
__WARPSIM_CHANNEL(char, 8, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(signed char, 8, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(unsigned char, 8, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(short, 16, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(unsigned short, 16, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(int, 32, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(unsigned int, 32, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(float, 32, 0, 0, 0, Float)
__WARPSIM_CHANNEL(uchar4, 8, 8, 8, 8, Unsigned)
__WARPSIM_CHANNEL(char4, 8, 8, 8, 8, Signed)
__WARPSIM_CHANNEL(float2, 32, 32, 0, 0, Float)
__WARPSIM_CHANNEL(float4, 32, 32, 32, 32, Float)
__WARPSIM_CHANNEL(int2, 32, 32, 0, 0, Signed)
__WARPSIM_CHANNEL(int4, 32, 32, 32, 32, Signed)
__WARPSIM_CHANNEL(uint4, 32, 32, 32, 32, Unsigned)
#undef __WARPSIM_CHANNEL
template <class T> static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) { return __warpsim_channel<T>::get(); }

#ifndef __WARPSIM_HOST_ONLY__
/* Texture and surface reads: not simulated. */
__device__ void __warpsim_texture_unsupported(void)
    __attribute__((error("texture and surface fetches (tex1Dfetch, tex2D, surf2Dwrite, …) are not simulated by warpsim")));
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T tex1D(cudaTextureObject_t, float) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T tex3D(cudaTextureObject_t, float, float, float) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T tex1DLayered(cudaTextureObject_t, float, int) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T tex2DLayered(cudaTextureObject_t, float, float, int) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ T texCubemap(cudaTextureObject_t, float, float, float) { __warpsim_texture_unsupported(); return T(); }
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) { __warpsim_texture_unsupported(); }
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int, enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap) { __warpsim_texture_unsupported(); return T(); }
#endif
#endif

#endif
