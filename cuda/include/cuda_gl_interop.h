/* warpsim: graphics interoperability (cuda_gl_interop.h) needs a real GPU and driver.
 * This file stands in front of a CUDA toolkit's copy. */
#error "cuda_gl_interop.h: OpenGL/EGL/Direct3D/VDPAU interoperability is not available with warpsim cc"
