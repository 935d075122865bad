/* warpsim: the texture and surface types of CUDA's driver_types.h,
 * texture_types.h, surface_types.h and channel_descriptor.h, with CUDA's
 * layouts and values; the runtime's CUDA array, texture object and surface
 * object API (cuda/shim/warpsim_rt_tex.c implements it); and, for device
 * code, texture fetches (texture_fetch_functions.h) and surface reads and
 * writes (surface_functions.h) as inline PTX, which warpsim simulates
 * (internal/engine/tex.go). Texture and surface references, mipmapped
 * arrays and sRGB reads are not supported. */
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


/* Channel descriptions (channel_descriptor.h). */
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d;
  d.x = x, d.y = y, d.z = z, d.w = w, d.f = f;
  return d;
}
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf(void) { return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat); }
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf1(void) { return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat); }
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) { return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat); }
static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) { return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat); }


#ifdef __cplusplus
template <class T> struct __warpsim_channel { static cudaChannelFormatDesc get() { return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone); } };
#define __WARPSIM_CHANNEL(T, X, Y, Z, W, K) \
  template <> struct __warpsim_channel<T> { static cudaChannelFormatDesc get() { return cudaCreateChannelDesc(X, Y, Z, W, cudaChannelFormatKind##K); } };
__WARPSIM_CHANNEL(char, 8, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(signed char, 8, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(unsigned char, 8, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(char1, 8, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(char2, 8, 8, 0, 0, Signed)
__WARPSIM_CHANNEL(char4, 8, 8, 8, 8, Signed)
__WARPSIM_CHANNEL(uchar1, 8, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(uchar2, 8, 8, 0, 0, Unsigned)
__WARPSIM_CHANNEL(uchar4, 8, 8, 8, 8, Unsigned)
__WARPSIM_CHANNEL(short, 16, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(short1, 16, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(short2, 16, 16, 0, 0, Signed)
__WARPSIM_CHANNEL(short4, 16, 16, 16, 16, Signed)
__WARPSIM_CHANNEL(unsigned short, 16, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(ushort1, 16, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(ushort2, 16, 16, 0, 0, Unsigned)
__WARPSIM_CHANNEL(ushort4, 16, 16, 16, 16, Unsigned)
__WARPSIM_CHANNEL(int, 32, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(int1, 32, 0, 0, 0, Signed)
__WARPSIM_CHANNEL(int2, 32, 32, 0, 0, Signed)
__WARPSIM_CHANNEL(int4, 32, 32, 32, 32, Signed)
__WARPSIM_CHANNEL(unsigned int, 32, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(uint1, 32, 0, 0, 0, Unsigned)
__WARPSIM_CHANNEL(uint2, 32, 32, 0, 0, Unsigned)
__WARPSIM_CHANNEL(uint4, 32, 32, 32, 32, Unsigned)
__WARPSIM_CHANNEL(float, 32, 0, 0, 0, Float)
__WARPSIM_CHANNEL(float1, 32, 0, 0, 0, Float)
__WARPSIM_CHANNEL(float2, 32, 32, 0, 0, Float)
__WARPSIM_CHANNEL(float4, 32, 32, 32, 32, Float)
#undef __WARPSIM_CHANNEL
template <class T> static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) { return __warpsim_channel<T>::get(); }

#ifndef __WARPSIM_HOST_ONLY__
#include "texture_fetch_functions.h"
#include "surface_functions.h"
#endif
#endif

#endif
