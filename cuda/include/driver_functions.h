/* warpsim: driver_functions.h — CUDA's constructors of the runtime's
 * pitched-pointer, position and extent structs. */
#ifndef __WARPSIM_DRIVER_FUNCTIONS_H__
#define __WARPSIM_DRIVER_FUNCTIONS_H__
#define __DRIVER_FUNCTIONS_H__
#include "driver_types.h" /* struct cudaPos is there, beside cudaMemcpy3DParms */
static __inline__ __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}
#endif
