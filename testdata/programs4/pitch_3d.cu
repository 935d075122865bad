// Pitched 2D and 3D memory: cudaMallocPitch, cudaMemcpy2D, cudaMemset2D,
// cudaMalloc3D, cudaMemcpy3D between host, device and a sub-box.
#include <cstdio>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", #x, __LINE__, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void transform2D(float *p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)p + y * pitch);
    row[x] = row[x] * 2.0f + y;
  }
}
__global__ void touch3D(cudaPitchedPtr pp, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) {
    char *slice = (char *)pp.ptr + z * pp.pitch * h;
    int *row = (int *)(slice + y * pp.pitch);
    row[x] += 1000 * z;
  }
}

int main() {
  const int W = 37, H = 19;
  float *d;
  size_t pitch;
  CK(cudaMallocPitch(&d, &pitch, W * sizeof(float), H));
  printf("pitch multiple of 128 %d, >= width %d\n", pitch % 128 == 0, pitch >= W * sizeof(float));
  static float h[H][W], back[H][W];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) h[y][x] = x + 0.25f * y;
  CK(cudaMemset2D(d, pitch, 0xff, W * sizeof(float), H));
  CK(cudaMemcpy2D(d, pitch, h, W * sizeof(float), (W - 5) * sizeof(float), H, cudaMemcpyHostToDevice));
  transform2D<<<dim3(2, 2), dim3(32, 16)>>>(d, pitch, W, H);
  CK(cudaMemcpy2D(back, W * sizeof(float), d, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  printf("2D: %g %g %g %08x\n", back[0][0], back[3][10], back[18][31], *(unsigned *)&back[5][34]);
  // column block copy device to device
  float *d2;
  size_t pitch2;
  CK(cudaMallocPitch(&d2, &pitch2, 8 * sizeof(float), 8));
  CK(cudaMemcpy2D(d2, pitch2, (char *)d + 4 * pitch + 3 * sizeof(float), pitch, 8 * sizeof(float), 8, cudaMemcpyDeviceToDevice));
  float blk[8][8];
  CK(cudaMemcpy2D(blk, 32, d2, pitch2, 32, 8, cudaMemcpyDeviceToHost));
  float s = 0;
  for (int y = 0; y < 8; y++) for (int x = 0; x < 8; x++) s += blk[y][x] * (x + 1);
  printf("block %g %g sum %g\n", blk[0][0], blk[7][7], s);

  const int X = 20, Y = 6, Z = 5;
  cudaExtent ext = make_cudaExtent(X * sizeof(int), Y, Z);
  cudaPitchedPtr dp;
  CK(cudaMalloc3D(&dp, ext));
  printf("3D pitch ok %d xsize %zu ysize %zu\n", dp.pitch >= X * sizeof(int), dp.xsize, dp.ysize);
  static int h3[Z][Y][X], r3[Z][Y][X];
  for (int z = 0; z < Z; z++) for (int y = 0; y < Y; y++) for (int x = 0; x < X; x++) h3[z][y][x] = z * 100 + y * 10 + x;
  CK(cudaMemset3D(dp, 0, ext));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h3, X * sizeof(int), X, Y);
  p.dstPtr = dp;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  touch3D<<<dim3(Y, Z), 32>>>(dp, X, Y, Z);
  // copy back only a sub-box: x 2..9, y 1..4, z 1..3
  memset(r3, 0, sizeof r3);
  cudaMemcpy3DParms q = {};
  q.srcPtr = dp;
  q.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
  q.dstPtr = make_cudaPitchedPtr(r3, X * sizeof(int), X, Y);
  q.dstPos = make_cudaPos(2 * sizeof(int), 1, 1);
  q.extent = make_cudaExtent(8 * sizeof(int), 4, 3);
  q.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&q));
  long long t = 0;
  for (int z = 0; z < Z; z++) for (int y = 0; y < Y; y++) for (int x = 0; x < X; x++) t += (long long)r3[z][y][x] * (x + 3 * y + 7 * z + 1);
  printf("3D: %d %d %d %d total %lld\n", r3[1][1][2], r3[3][4][9], r3[0][0][0], r3[4][5][19], t);
  cudaError_t e = cudaMemcpy2D(d, pitch, h, W * sizeof(float), pitch + 4, H, cudaMemcpyHostToDevice);
  printf("too wide: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CK(cudaFree(d)); CK(cudaFree(d2)); CK(cudaFree(dp.ptr));
  return 0;
}
