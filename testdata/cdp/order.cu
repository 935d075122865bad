// Stream order of device launches (CUDA programming guide, "CUDA Dynamic
// Parallelism": launches into one stream run in order, and a grid is
// complete only when the grids it launched are; a block's NULL stream is
// shared by its threads). top's thread launches A = mid(1), which launches
// leaf(10), then B = leaf(2) into the same NULL stream, so 1 and 10 come
// before 2; C = mid(3) goes to a stream of its own and waits for nothing.
//   warpsim compile --arch sm_90 --rdc order.cu -o order.sm90.ptx
__global__ void leaf(int *log, int v) { int i = atomicAdd(&log[0], 1); log[1 + i] = v; }
__global__ void mid(int *log, int v) {
  leaf<<<1, 1>>>(log, v * 10);
  int i = atomicAdd(&log[0], 1); log[1 + i] = v;
}
__global__ void top(int *log) {
  mid<<<1, 1>>>(log, 1);
  leaf<<<1, 1>>>(log, 2);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  mid<<<1, 1, 0, s>>>(log, 3);
  cudaStreamDestroy(s);
}
