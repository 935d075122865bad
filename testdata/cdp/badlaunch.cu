// A device launch with more threads per block than the GPU allows fails
// with cudaErrorInvalidConfiguration (9); the largest block launches.
//   warpsim compile --arch sm_90 --rdc badlaunch.cu -o badlaunch.sm90.ptx
__global__ void child(int *ran) { if (threadIdx.x == 0) atomicAdd(ran, 1); }
__global__ void parent(int *codes, int *ran) {
  child<<<1, 2048>>>(ran);
  codes[0] = cudaGetLastError();
  child<<<1, 1024>>>(ran);
  codes[1] = cudaGetLastError();
}
