// Device-side cudaMemcpyAsync and cudaMemsetAsync (dynamic parallelism,
// CDP2): a copy or fill is work on the given stream, ordered with the
// launches into that stream. Build: -arch=sm_90 -rdc=true -lcudadevrt.
#include <cstdio>
#define N 64
__global__ void sum(const int *a, int n, int *out) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  *out = s;
}
__global__ void fill(int *a, int n, int v) {
  for (int i = 0; i < n; i++) a[i] = v;
}
__global__ void parent(const int *src, int *dst, int *dst2, unsigned char *bytes, int *sums, int *codes) {
  if (threadIdx.x != 0) return;
  // A copy on the NULL stream, then a kernel on it that reads the copy.
  codes[0] = cudaMemcpyAsync(dst, src, N * sizeof(int), cudaMemcpyDeviceToDevice, 0);
  sum<<<1, 1>>>(dst, N, &sums[0]);
  // A fill, then a kernel that reads it.
  codes[1] = cudaMemsetAsync(bytes, 0x01, 16, 0);
  sum<<<1, 1>>>((const int *)bytes, 4, &sums[1]);
  // cudaMemcpyDefault on a stream the kernel made, then a kernel there.
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  codes[2] = cudaMemcpyAsync(dst2, src + 8, 8 * sizeof(int), cudaMemcpyDefault, s);
  sum<<<1, 1, 0, s>>>(dst2, 8, &sums[2]);
  cudaStreamDestroy(s);
  // Copies the device runtime does not make.
  codes[3] = cudaMemcpyAsync(dst2 + 8, src, 4, cudaMemcpyHostToDevice, 0);
  codes[4] = cudaMemcpyAsync(dst2 + 9, src, 4, cudaMemcpyDeviceToHost, 0);
  codes[5] = cudaMemcpyAsync(dst2 + 10, src, 4, cudaMemcpyHostToHost, 0);
  codes[6] = cudaGetLastError();
  // The special streams.
  codes[7] = cudaMemcpyAsync(dst2 + 16, src, 16, cudaMemcpyDeviceToDevice, cudaStreamTailLaunch);
  codes[8] = cudaMemcpyAsync(dst2 + 20, src, 16, cudaMemcpyDeviceToDevice, cudaStreamFireAndForget);
  // Zero bytes, and a kind out of range.
  codes[9] = cudaMemcpyAsync(dst2 + 24, src, 0, cudaMemcpyDeviceToDevice, 0);
  codes[10] = cudaMemcpyAsync(dst2 + 25, src, 4, (cudaMemcpyKind)7, 0);
  codes[11] = cudaMemsetAsync(bytes + 16, 0x11, 16, cudaStreamTailLaunch);
  codes[12] = cudaGetLastError();
  // A copy waits for the kernel launched before it on its stream.
  fill<<<1, 1>>>(dst2 + 32, 4, 5);
  codes[13] = cudaMemcpyAsync(dst2 + 40, dst2 + 32, 16, cudaMemcpyDeviceToDevice, 0);
  sum<<<1, 1>>>(dst2 + 40, 4, &sums[3]);
}
int main() {
  int h[N], *src, *dst, *dst2, *sums, *codes;
  unsigned char *bytes;
  for (int i = 0; i < N; i++) h[i] = i + 1;
  cudaMalloc(&src, sizeof h);
  cudaMalloc(&dst, sizeof h);
  cudaMalloc(&dst2, sizeof h);
  cudaMalloc(&bytes, 32);
  cudaMalloc(&sums, 16);
  cudaMalloc(&codes, 14 * sizeof(int));
  cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dst, 0, sizeof h);
  cudaMemset(dst2, 0xff, sizeof h);
  cudaMemset(bytes, 0, 32);
  cudaMemset(sums, 0, 16);
  cudaMemset(codes, 0xff, 14 * sizeof(int));
  parent<<<1, 32>>>(src, dst, dst2, bytes, sums, codes);
  cudaError_t e = cudaDeviceSynchronize();
  printf("parent: %s\n", cudaGetErrorName(e));
  int c[14], s[4], d2[N];
  unsigned char b[32];
  cudaMemcpy(c, codes, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(s, sums, sizeof s, cudaMemcpyDeviceToHost);
  cudaMemcpy(d2, dst2, sizeof d2, cudaMemcpyDeviceToHost);
  cudaMemcpy(b, bytes, sizeof b, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 14; i++) printf("code %d: %s\n", i, cudaGetErrorName((cudaError_t)c[i]));
  printf("sums: %d %d %d %d\n", s[0], s[1], s[2], s[3]);
  printf("dst2:");
  for (int i = 0; i < 44; i++) printf(" %d", d2[i]);
  printf("\nbytes:");
  for (int i = 0; i < 32; i++) printf(" %02x", b[i]);
  printf("\n");
  return 0;
}
