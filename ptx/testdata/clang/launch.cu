// launch.cu: a device-side kernel launch (dynamic parallelism, -fgpu-rdc).
#include "mini.h"

__global__ void child(int *x, int depth) {
	x[TID_X] += depth;
}

__global__ void parent(int *x, int depth) {
	if (TID_X == 0 && depth < 3)
		child<<<1, 32>>>(x, depth + 1);
}
