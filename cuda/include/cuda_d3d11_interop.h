/* warpsim: graphics interoperability (cuda_d3d11_interop.h) needs a real GPU and driver.
 * This file stands in front of a CUDA toolkit's copy. */
#error "cuda_d3d11_interop.h: OpenGL/EGL/Direct3D/VDPAU interoperability is not available with warpsim cc"
