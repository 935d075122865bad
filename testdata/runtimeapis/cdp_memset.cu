// Device-side cudaMemsetAsync and the 2D copies and fills, in detail: the
// buffer starts as 0xff bytes, so a fill that writes the wrong value and a
// fill that writes nothing differ. Build: -arch=sm_90 -rdc=true -lcudadevrt.
#include <cstdio>
__global__ void show(const unsigned char *p, int n, int *out) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  *out = s;
}
__global__ void parent(unsigned char *b, int *codes, int *seen) {
  codes[0] = cudaMemsetAsync(b, 0x01, 16, 0);
  codes[1] = cudaMemsetAsync(b + 64, 0x02, 17, 0);
  codes[2] = cudaMemsetAsync(b + 128 + 3, 0x03, 5, 0);
  codes[3] = cudaMemsetAsync(b + 4096, 0x04, 4096, 0);
  codes[4] = cudaMemsetAsync(b + 65536, 0x105, 65536, 0);
  show<<<1, 1>>>(b, 16, &seen[0]);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  codes[5] = cudaMemsetAsync(b + 256, 0x06, 32, s);
  show<<<1, 1, 0, s>>>(b + 256, 32, &seen[1]);
  cudaStreamDestroy(s);
  codes[6] = cudaMemset2DAsync(b + 512, 16, 0x07, 8, 3, 0);
  codes[7] = cudaMemcpy2DAsync(b + 1024, 16, b + 131072, 8, 8, 3, cudaMemcpyDeviceToDevice, 0);
  codes[8] = cudaMemcpyAsync(b + 2048 + 1, b + 131072, 5, cudaMemcpyDeviceToDevice, 0);
  codes[9] = cudaMemsetAsync(b + 3072, 0x09, 16, cudaStreamFireAndForget);
  codes[10] = cudaMemsetAsync(b + 200000, 0x0a, 16, 0);
  codes[11] = cudaGetLastError();
}
int main() {
  const int n = 1 << 18;
  unsigned char *b, h[1 << 18];
  int *codes, *seen, c[12], s[2];
  cudaMalloc(&b, n);
  cudaMalloc(&codes, sizeof c);
  cudaMalloc(&seen, sizeof s);
  for (int i = 0; i < n; i++) h[i] = 0xff;
  for (int i = 0; i < 24; i++) h[131072 + i] = (unsigned char)(i + 1);
  cudaMemcpy(b, h, n, cudaMemcpyHostToDevice);
  cudaMemset(codes, 0xff, sizeof c);
  cudaMemset(seen, 0xff, sizeof s);
  parent<<<1, 1>>>(b, codes, seen);
  printf("parent: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, b, n, cudaMemcpyDeviceToHost);
  cudaMemcpy(c, codes, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(s, seen, sizeof s, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 12; i++) printf("code %d: %s\n", i, cudaGetErrorName((cudaError_t)c[i]));
  printf("seen %d %d\n", s[0], s[1]);
  const int at[] = {0, 64, 128, 256, 512, 1024, 2048, 3072, 4096, 8192 - 8, 65536, 131072 - 8, 200000};
  for (int a : at) {
    printf("%6d:", a);
    for (int i = 0; i < 24; i++) printf(" %02x", h[a + i]);
    printf("\n");
  }
  int changed = 0;
  for (int i = 0; i < n; i++) changed += h[i] != 0xff;
  printf("bytes not 0xff: %d\n", changed);
  return 0;
}
