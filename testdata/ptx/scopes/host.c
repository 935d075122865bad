// host.c loads one cubin, runs its kernel k(out) with one block of 32
// threads on a zeroed 1 KiB buffer and writes the buffer to a file.
// Build: nvcc -o host host.c -lcuda. Usage: host k.cubin out.bin
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char *s = 0; \
	cuGetErrorString(e, &s); fprintf(stderr, "%s: %s\n", #x, s ? s : "?"); return 1; } } while (0)

int main(int argc, char **argv) {
	if (argc != 3) { fprintf(stderr, "usage: host k.cubin out.bin\n"); return 2; }
	CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn; CUdeviceptr out;
	unsigned char buf[1024];
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CK(cuModuleLoad(&mod, argv[1]));
	CK(cuModuleGetFunction(&fn, mod, "k"));
	CK(cuMemAlloc(&out, sizeof buf));
	CK(cuMemsetD8(out, 0, sizeof buf));
	void *args[] = { &out };
	CK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(buf, out, sizeof buf));
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, sizeof buf, f) != sizeof buf) { perror(argv[2]); return 1; }
	fclose(f);
	for (int t = 0; t < 32; t++) {
		unsigned *w = (unsigned *)(buf + 32 * t);
		printf("%s%u/%u", t ? " " : "", w[0], w[1]);
	}
	printf("\n");
	return 0;
}
