// Surface objects: surf1D, surf2D, surf3D and surf2DLayered writes and
// reads of char, short, int, float and vector elements (x in bytes), the
// clamp and zero boundary modes outside the array, arrays copied back with
// cudaMemcpy2DFromArray and cudaMemcpy3D; then, last, a trap-mode write
// outside the array and the error the next synchronization returns.
#include "common.h"

__global__ void write2D(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite(x * 100 + y, s, x * 4, y);
}
__global__ void readModes(cudaSurfaceObject_t s, const int2 *c, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[2 * i] = surf2Dread<int>(s, c[i].x * 4, c[i].y, cudaBoundaryModeClamp);
    out[2 * i + 1] = surf2Dread<int>(s, c[i].x * 4, c[i].y, cudaBoundaryModeZero);
  }
}
__global__ void writeModes(cudaSurfaceObject_t s, const int2 *c, int n) {
  int i = threadIdx.x;
  if (i < n) {
    surf2Dwrite(-1000 - i, s, c[i].x * 4, c[i].y, cudaBoundaryModeZero);
    if (i % 3 == 0) surf2Dwrite(-2000 - i, s, c[i].x * 4, c[i].y, cudaBoundaryModeClamp);
  }
}
__global__ void types(cudaSurfaceObject_t s8, cudaSurfaceObject_t s16, cudaSurfaceObject_t sf4, cudaSurfaceObject_t si2,
                      unsigned *out) {
  int x = threadIdx.x;
  surf1Dwrite((unsigned char)(x * 37), s8, x);
  surf1Dwrite((short)(x * -1234), s16, x * 2);
  surf1Dwrite(make_float4(x, x * 0.5f, -x, x * x), sf4, x * 16);
  surf1Dwrite(make_int2(x * 7, -x), si2, x * 8);
  __syncthreads();
  int y = 15 - x;
  out[4 * x] = surf1Dread<unsigned char>(s8, y);
  out[4 * x + 1] = (unsigned short)surf1Dread<short>(s16, y * 2);
  float4 f = surf1Dread<float4>(sf4, y * 16);
  int2 v = surf1Dread<int2>(si2, y * 8);
  out[4 * x + 2] = __float_as_uint(f.y) ^ __float_as_uint(f.w);
  out[4 * x + 3] = v.x * 3 + v.y;
}
__global__ void volume(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) {
    surf3Dwrite((float)(x + 10 * y + 100 * z) * 0.5f, s3, x * 4, y, z);
    surf2DLayeredwrite(make_uchar4(x, y, z, 255), sl, x * 4, y, z);
  }
}
__global__ void volumeRead(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, float *o3, unsigned *ol, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) {
    int i = (z * h + y) * w + x;
    o3[i] = surf3Dread<float>(s3, (w - 1 - x) * 4, y, z);
    uchar4 c = surf2DLayeredread<uchar4>(sl, x * 4, h - 1 - y, z);
    ol[i] = c.x | c.y << 8 | c.z << 16 | c.w << 24;
  }
}
__global__ void trapWrite(cudaSurfaceObject_t s, int x) { surf2Dwrite(1, s, x * 4, 0); }

static cudaResourceDesc res(cudaArray_t a) { return arrayRes(a); }

int main() {
  const int w = 8, h = 6;
  cudaChannelFormatDesc di = cudaCreateChannelDesc<int>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &di, w, h, cudaArraySurfaceLoadStore));
  cudaResourceDesc r = res(a);
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  write2D<<<h, w>>>(s, w, h);
  CHECK(cudaDeviceSynchronize());
  int host[w * h];
  CHECK(cudaMemcpy2DFromArray(host, w * 4, a, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  printf("2d:");
  for (int i = 0; i < w * h; i++) printf(" %d", host[i]);
  printf("\n");
  int2 hc[32];
  for (int i = 0; i < 32; i++) hc[i] = make_int2(i % 11 - 2, i / 3 - 2);
  int2 *dc;
  int *dout;
  CHECK(cudaMalloc(&dc, sizeof hc));
  CHECK(cudaMalloc(&dout, 64 * 4));
  CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
  readModes<<<1, 32>>>(s, dc, dout, 32);
  int hout[64];
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  printf("read clamp/zero:");
  for (int i = 0; i < 64; i++) printf(" %d", hout[i]);
  printf("\n");
  writeModes<<<1, 32>>>(s, dc, 32);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy2DFromArray(host, w * 4, a, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  printf("after writes:");
  for (int i = 0; i < w * h; i++) printf(" %d", host[i]);
  printf("\n");

  // Element types through 1D surfaces.
  cudaArray_t a8, a16, af4, ai2;
  cudaChannelFormatDesc d8 = cudaCreateChannelDesc<unsigned char>(), d16 = cudaCreateChannelDesc<short>(),
                        df4 = cudaCreateChannelDesc<float4>(), di2 = cudaCreateChannelDesc<int2>();
  CHECK(cudaMallocArray(&a8, &d8, 16, 0, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&a16, &d16, 16, 0, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&af4, &df4, 16, 0, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&ai2, &di2, 16, 0, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s8, s16, sf4, si2;
  cudaResourceDesc r8 = res(a8), r16 = res(a16), rf4 = res(af4), ri2 = res(ai2);
  CHECK(cudaCreateSurfaceObject(&s8, &r8));
  CHECK(cudaCreateSurfaceObject(&s16, &r16));
  CHECK(cudaCreateSurfaceObject(&sf4, &rf4));
  CHECK(cudaCreateSurfaceObject(&si2, &ri2));
  unsigned *du;
  CHECK(cudaMalloc(&du, 64 * 4));
  types<<<1, 16>>>(s8, s16, sf4, si2, du);
  unsigned hu[64];
  CHECK(cudaMemcpy(hu, du, sizeof hu, cudaMemcpyDeviceToHost));
  printf("types:");
  for (int i = 0; i < 64; i++) printf(" %08x", hu[i]);
  printf("\n");
  unsigned char b8[16];
  CHECK(cudaMemcpyFromArray(b8, a8, 0, 0, 16, cudaMemcpyDeviceToHost));
  printf("u8 array:");
  for (int i = 0; i < 16; i++) printf(" %02x", b8[i]);
  printf("\n");

  // 3D and 2D layered surfaces.
  const int W = 5, H = 3, D = 4;
  cudaChannelFormatDesc df = cudaCreateChannelDesc<float>(), dc4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a3, al;
  CHECK(cudaMalloc3DArray(&a3, &df, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&al, &dc4, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore | cudaArrayLayered));
  cudaSurfaceObject_t s3, sl;
  cudaResourceDesc r3 = res(a3), rl = res(al);
  CHECK(cudaCreateSurfaceObject(&s3, &r3));
  CHECK(cudaCreateSurfaceObject(&sl, &rl));
  volume<<<D, dim3(W, H)>>>(s3, sl, W, H, D);
  float *d3;
  unsigned *dl;
  CHECK(cudaMalloc(&d3, W * H * D * 4));
  CHECK(cudaMalloc(&dl, W * H * D * 4));
  volumeRead<<<D, dim3(W, H)>>>(s3, sl, d3, dl, W, H, D);
  float h3[W * H * D];
  unsigned hl[W * H * D];
  CHECK(cudaMemcpy(h3, d3, sizeof h3, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost));
  printHex("3d read", h3, W * H * D);
  printf("layered read:");
  for (int i = 0; i < W * H * D; i++) printf(" %08x", hl[i]);
  printf("\n");
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcArray = a3;
  p.srcPos = make_cudaPos(1, 1, 1);
  p.dstPtr = make_cudaPitchedPtr(h3, 3 * 4, 3, 2);
  p.extent = make_cudaExtent(3, 2, 2);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  printHex("3d copy", h3, 12);

  CHECK(cudaDestroySurfaceObject(s8));
  CHECK(cudaDestroySurfaceObject(s16));
  CHECK(cudaDestroySurfaceObject(sf4));
  CHECK(cudaDestroySurfaceObject(si2));
  CHECK(cudaDestroySurfaceObject(s3));
  CHECK(cudaDestroySurfaceObject(sl));
  // Last: a trap-mode write outside the array.
  trapWrite<<<1, 1>>>(s, w + 3);
  cudaError_t e = cudaDeviceSynchronize();
  printf("trap: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 2;
}
