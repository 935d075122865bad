/* warpsim: graphics interoperability (cudaGL.h) needs a real GPU and driver.
 * This file stands in front of a CUDA toolkit's copy. */
#error "cudaGL.h: OpenGL/EGL/Direct3D/VDPAU interoperability is not available with warpsim cc"
