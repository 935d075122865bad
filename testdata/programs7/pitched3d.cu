// Pitched and 3-D memory: cudaMallocPitch, cudaMemcpy2D (and its errors),
// cudaMalloc3D, cudaMemset3D, cudaMemcpy3D between host, pitched device
// memory and 3-D arrays, CUDA arrays with cudaMemcpy2DToArray/FromArray and
// cudaArrayGetInfo.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static unsigned fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

__global__ void touch3d(cudaPitchedPtr p, int w, int h, int d) {
  int x = threadIdx.x + blockIdx.x * blockDim.x, y = blockIdx.y, z = blockIdx.z;
  if (x < w && y < h && z < d) {
    char *slice = (char *)p.ptr + z * p.pitch * h;
    float *row = (float *)(slice + y * p.pitch);
    row[x] = row[x] * 2 + x + 100 * y + 10000 * z;
  }
}

int main() {
  size_t pitch = 0;
  float *d2;
  const int W = 100, H = 37;
  const int widths[] = {1, 100, 511, 512, 513, 1000, 4096};
  for (int w : widths) {
    void *q;
    size_t pp;
    cudaMallocPitch(&q, &pp, w, 3);
    printf("pitch for width %d: %zu\n", w, pp);
    cudaFree(q);
  }
  cudaMallocPitch((void **)&d2, &pitch, W * sizeof(float), H);
  float *h = (float *)malloc(W * H * sizeof(float)), *g = (float *)malloc(W * H * sizeof(float));
  for (int i = 0; i < W * H; i++) h[i] = (float)(i % 251);
  cudaError_t e = cudaMemcpy2D(d2, pitch, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  printf("memcpy2D to pitched: %s\n", cudaGetErrorName(e));
  e = cudaMemset2D((char *)d2 + 3 * pitch + 40, pitch, 0x3f, 80, 10);
  printf("memset2D: %s\n", cudaGetErrorName(e));
  e = cudaMemcpy2D(g, W * sizeof(float), d2, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost);
  printf("memcpy2D back: %s fnv %08x g[3*100+10]=%g g[5*100+20]=%g\n", cudaGetErrorName(e), fnv(g, W * H * 4),
         g[310], g[520]);
  e = cudaMemcpy2D(g, 16, d2, pitch, 32, 2, cudaMemcpyDeviceToHost);
  printf("memcpy2D width > dpitch: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemcpy2D(g, W * 4, d2, 64, W * 4, 2, cudaMemcpyDeviceToHost);
  printf("memcpy2D width > spitch: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemcpy2D(g, W * 4, d2, pitch, W * 4, 0, cudaMemcpyDeviceToHost);
  printf("memcpy2D height 0: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  // 3-D pitched memory.
  const int X = 50, Y = 20, Z = 6;
  cudaExtent ext = make_cudaExtent(X * sizeof(float), Y, Z);
  cudaPitchedPtr pp;
  e = cudaMalloc3D(&pp, ext);
  printf("malloc3D: %s pitch %zu xsize %zu ysize %zu\n", cudaGetErrorName(e), pp.pitch, pp.xsize, pp.ysize);
  e = cudaMemset3D(pp, 0, ext);
  printf("memset3D: %s\n", cudaGetErrorName(e));
  float *vol = (float *)malloc(X * Y * Z * sizeof(float));
  for (int i = 0; i < X * Y * Z; i++) vol[i] = (float)(i % 1009) * 0.5f;
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(float), X, Y);
  p.dstPtr = pp;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  e = cudaMemcpy3D(&p);
  printf("memcpy3D host to device: %s\n", cudaGetErrorName(e));
  touch3d<<<dim3(1, Y, Z), 64>>>(pp, X, Y, Z);
  // Copy back a sub-box: x 10..29, y 5..14, z 2..4.
  float box[3][10][20];
  cudaMemcpy3DParms q = {};
  q.srcPtr = pp;
  q.srcPos = make_cudaPos(10 * sizeof(float), 5, 2);
  q.dstPtr = make_cudaPitchedPtr(box, 20 * sizeof(float), 20, 10);
  q.extent = make_cudaExtent(20 * sizeof(float), 10, 3);
  q.kind = cudaMemcpyDeviceToHost;
  e = cudaMemcpy3D(&q);
  printf("memcpy3D sub-box back: %s fnv %08x box[0][0][0]=%g box[2][9][19]=%g\n", cudaGetErrorName(e),
         fnv(box, sizeof box), box[0][0][0], box[2][9][19]);

  // A 3-D array: host -> array -> pitched device -> host.
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr3;
  e = cudaMalloc3DArray(&arr3, &cd, make_cudaExtent(X, Y, Z));
  printf("malloc3DArray: %s\n", cudaGetErrorName(e));
  cudaMemcpy3DParms r = {};
  r.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(float), X, Y);
  r.dstArray = arr3;
  r.extent = make_cudaExtent(X, Y, Z);
  r.kind = cudaMemcpyHostToDevice;
  e = cudaMemcpy3D(&r);
  printf("memcpy3D to array: %s\n", cudaGetErrorName(e));
  cudaMemcpy3DParms r2 = {};
  r2.srcArray = arr3;
  r2.srcPos = make_cudaPos(1, 2, 3);
  r2.dstPtr = make_cudaPitchedPtr(box, 20 * sizeof(float), 20, 10);
  r2.extent = make_cudaExtent(20, 10, 3);
  r2.kind = cudaMemcpyDeviceToHost;
  e = cudaMemcpy3D(&r2);
  printf("memcpy3D from array: %s fnv %08x box[1][2][3]=%g\n", cudaGetErrorName(e), fnv(box, sizeof box), box[1][2][3]);
  cudaChannelFormatDesc got;
  cudaExtent gext;
  unsigned int fl = 99;
  e = cudaArrayGetInfo(&got, &gext, &fl, arr3);
  printf("array info: %s x %d y %d z %d w %d kind %d extent %zux%zux%zu flags %u\n", cudaGetErrorName(e), got.x, got.y,
         got.z, got.w, (int)got.f, gext.width, gext.height, gext.depth, fl);

  // 2-D arrays.
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a2;
  e = cudaMallocArray(&a2, &c4, 64, 16);
  printf("mallocArray 64x16 uchar4: %s\n", cudaGetErrorName(e));
  unsigned char img[16][64][4];
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 64; x++)
      for (int c = 0; c < 4; c++) img[y][x][c] = (unsigned char)(x * 3 + y * 7 + c);
  e = cudaMemcpy2DToArray(a2, 0, 0, img, 64 * 4, 64 * 4, 16, cudaMemcpyHostToDevice);
  printf("memcpy2DToArray: %s\n", cudaGetErrorName(e));
  unsigned char part[4][8][4];
  e = cudaMemcpy2DFromArray(part, 8 * 4, a2, 10 * 4, 3, 8 * 4, 4, cudaMemcpyDeviceToHost);
  printf("memcpy2DFromArray 8x4 at (10,3): %s fnv %08x first %d last %d\n", cudaGetErrorName(e), fnv(part, sizeof part),
         part[0][0][0], part[3][7][3]);
  e = cudaMemcpy2DToArray(a2, 60 * 4, 0, img, 64 * 4, 8 * 4, 1, cudaMemcpyHostToDevice);
  printf("memcpy2DToArray past the right edge: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaArrayGetInfo(&got, &gext, &fl, a2);
  printf("2D array info: %s x %d y %d z %d w %d extent %zux%zux%zu\n", cudaGetErrorName(e), got.x, got.y, got.z, got.w,
         gext.width, gext.height, gext.depth);
  cudaArray_t a1;
  cudaMallocArray(&a1, &cd, 1000);
  cudaArrayGetInfo(&got, &gext, &fl, a1);
  printf("1D array extent %zux%zux%zu\n", gext.width, gext.height, gext.depth);
  cudaFreeArray(a1);
  cudaFreeArray(a2);
  cudaFreeArray(arr3);
  cudaFree(pp.ptr);
  cudaFree(d2);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
