/* warpsim's CUDA headers: execution-space and storage attributes for clang.
 *
 * These headers are warpsim's own, written for clang's CUDA mode without a
 * CUDA toolkit (clang is run with -nocudainc -nocudalib). Device code is
 * compiled to PTX; math functions are left as calls of libdevice's __nv_*
 * functions, which the warpsim engine implements natively. */
#ifndef __WARPSIM_DEFINES_H__
#define __WARPSIM_DEFINES_H__
/* NVIDIA's include-guard name, which programs test. */
#define __HOST_DEFINES_H__

#if defined(__WARPSIM_RUNTIME_C__)
/* The runtime's C side reads the type declarations only. */
#define __host__
#define __device__
#define __forceinline__ __inline__
#define __WARPSIM_DI__ static __inline__
#define __WARPSIM_HDI__ static __inline__
#define __align__(n) __attribute__((aligned(n)))
#elif !defined(__CUDA__)
/* Host-only C++ (a .cpp file of a CUDA program): the runtime API and the
 * types, no device code. */
#ifndef __WARPSIM_HOST_ONLY__
#define __WARPSIM_HOST_ONLY__ 1
#endif
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __forceinline__ __inline__ __attribute__((always_inline))
/* No __noinline__ here, as in CUDA's header for a host compiler:
 * libstdc++ writes __attribute__((__noinline__)) (<memory>). */
#define __align__(n) __attribute__((aligned(n)))
#define __WARPSIM_DI__ static __inline__
#define __WARPSIM_HDI__ static __inline__
#endif

#define __WARPSIM__ 1
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __NVCC__
/* Not defined: warpsim is not nvcc, and programs testing __NVCC__ expect
 * nvcc-only extensions. */
#endif
#if defined(__CUDA__) && !defined(_LIBCUDACXX_HAS_CUDA_ATOMIC_IMPL)
/* libcu++ (1.8, Debian's libcu++-dev) enables its CUDA atomics backend,
 * which cuda::std::atomic, cuda::atomic_ref, cuda::barrier, latch and
 * semaphore rest on, only when it sees nvcc (__NVCC__). That backend is
 * inline PTX and NV_IF_TARGET dispatch, which clang's CUDA mode compiles
 * as nvcc does; libcu++ defines nothing else from this macro. */
#define _LIBCUDACXX_HAS_CUDA_ATOMIC_IMPL
#endif

#if defined(__CUDA__) && !defined(__WARPSIM_RUNTIME_C__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang's CUDA mode has no managed variables (it ignores the attribute), so
 * a __managed__ variable is a __device__ variable whose host shadow sits
 * alone on its own pages of the section warpsim_managed; the runtime maps
 * those pages onto the device variable's memory (cuda/shim/
 * warpsim_rt_managed.c), so host and kernels share its bytes. */
#if defined(__CUDA_ARCH__)
#define __managed__ __device__
#else
#define __managed__ __device__ __attribute__((section("warpsim_managed"), aligned(4096)))
#endif
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
/* clang-22 accepts the cluster_dims attribute but emits nothing for it on
 * NVPTX (and, written where CUDA puts it, after the return type, it takes
 * __global__ away); `warpsim cc` adds .reqnctapercluster from the
 * preprocessed source instead, where __WARPSIM_CLUSTER_SCAN__ makes the
 * attribute a marker (cuda/cc/clusterdims.go, docs/clusters.md). */
#ifdef __WARPSIM_CLUSTER_SCAN__
#define __cluster_dims__(...) __warpsim_cluster_dims__(__VA_ARGS__)
#else
#define __cluster_dims__(...)
#endif
#define __grid_constant__ __attribute__((grid_constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __restrict__ __restrict
#define __builtin_align__(a) __align__(a)
#define CUDARTAPI
#define __cudart_builtin__
#define __device_builtin__
#define __cuda_builtin_vector_align8(tag, members) \
  struct __align__(8) tag { members }

/* __WARPSIM_DI__: an always-inlined device helper; __WARPSIM_HDI__: the same
 * for host and device. Both are static so each translation unit gets its own. */
#define __WARPSIM_DI__ static __device__ __forceinline__
#define __WARPSIM_HDI__ static __host__ __device__ __forceinline__
#endif

#endif
