// CUDA arrays on the host side: copies into and out of arrays at offsets
// (cudaMemcpyToArray/FromArray, the 2D forms, array to array, cudaMemcpy3D
// between arrays and pitched memory), their channel descriptions and
// extents, and the errors of copies that do not fit.
#include "common.h"

static void dump(const char *label, const unsigned short *v, int n) {
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf(" %d", v[i]);
  printf("\n");
}

int main() {
  const int w = 7, h = 5;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<unsigned short>();
  cudaArray_t a, b;
  CHECK(cudaMallocArray(&a, &d, w, h));
  CHECK(cudaMallocArray(&b, &d, w, h));
  unsigned short src[w * h], out[w * h];
  for (int i = 0; i < w * h; i++) src[i] = (unsigned short)(i * 3 + 1);
  memset(out, 0, sizeof out);
  CHECK(cudaMemcpy2DToArray(a, 0, 0, out, w * 2, w * 2, h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(a, 2 * 2, 1, src, 5 * 2, 4 * 2, 3, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DFromArray(out, w * 2, a, 0, 0, w * 2, h, cudaMemcpyDeviceToHost));
  dump("2d to array at (2,1)", out, w * h);
  // The deprecated 1D forms: offsets in bytes and rows; the copy runs on
  // along the rows.
  CHECK(cudaMemcpyToArray(a, 3 * 2, 2, src, 9 * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DFromArray(out, w * 2, a, 0, 0, w * 2, h, cudaMemcpyDeviceToHost));
  dump("to array at (3,2) 9 elements", out, w * h);
  memset(out, 0, sizeof out);
  CHECK(cudaMemcpyFromArray(out, a, 1 * 2, 1, 10 * 2, cudaMemcpyDeviceToHost));
  dump("from array at (1,1) 10 elements", out, 10);
  CHECK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, w * 2, h, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy2DArrayToArray(b, 1 * 2, 3, a, 4 * 2, 0, 3 * 2, 2, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy2DFromArray(out, w * 2, b, 0, 0, w * 2, h, cudaMemcpyDeviceToHost));
  dump("array to array", out, w * h);
  // Device memory to and from arrays.
  unsigned short *dev;
  CHECK(cudaMalloc(&dev, sizeof src));
  CHECK(cudaMemcpy(dev, src, sizeof src, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(b, 0, 0, dev + 5, w * 2, 2 * 2, h, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy2DFromArray(dev, w * 2, b, 0, 0, w * 2, h, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(out, dev, sizeof out, cudaMemcpyDeviceToHost));
  dump("device to array and back", out, w * h);
  // Errors: a copy past the array's end, a width wider than the pitch.
  printf("too wide: %s\n", cudaGetErrorName(cudaMemcpy2DToArray(a, 4 * 2, 0, src, w * 2, 4 * 2, 1, cudaMemcpyHostToDevice)));
  cudaGetLastError();
  printf("too tall: %s\n", cudaGetErrorName(cudaMemcpy2DToArray(a, 0, 3, src, w * 2, w * 2, 3, cudaMemcpyHostToDevice)));
  cudaGetLastError();
  printf("pitch: %s\n", cudaGetErrorName(cudaMemcpy2DToArray(a, 0, 0, src, 4, w * 2, 2, cudaMemcpyHostToDevice)));
  cudaGetLastError();
  // 3D: a 3D array filled from pitched host memory, then a box copied out.
  const int W = 4, H = 3, D = 3;
  cudaArray_t v;
  CHECK(cudaMalloc3DArray(&v, &d, make_cudaExtent(W, H, D)));
  unsigned short vol[W * H * D], box[2 * 2 * 2];
  for (int i = 0; i < W * H * D; i++) vol[i] = (unsigned short)(1000 + i);
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(vol, W * 2, W, H);
  p.dstArray = v;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  memset(&p, 0, sizeof p);
  p.srcArray = v;
  p.srcPos = make_cudaPos(1, 1, 1);
  p.dstPtr = make_cudaPitchedPtr(box, 2 * 2, 2, 2);
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  dump("3d box at (1,1,1)", box, 8);
  cudaChannelFormatDesc got;
  cudaExtent e;
  unsigned flags;
  CHECK(cudaGetChannelDesc(&got, v));
  printf("channel: %d %d %d %d kind %d\n", got.x, got.y, got.z, got.w, (int)got.f);
  CHECK(cudaArrayGetInfo(&got, &e, &flags, v));
  printf("3d info: %zu %zu %zu flags %u\n", e.width, e.height, e.depth, flags);
  CHECK(cudaArrayGetInfo(&got, &e, &flags, a));
  printf("2d info: %zu %zu %zu flags %u\n", e.width, e.height, e.depth, flags);
  cudaChannelFormatDesc h4 = cudaCreateChannelDescHalf4(), c2 = cudaCreateChannelDesc<char2>();
  printf("half4: %d %d %d %d kind %d; char2: %d %d %d %d kind %d\n", h4.x, h4.y, h4.z, h4.w, (int)h4.f, c2.x, c2.y, c2.z,
         c2.w, (int)c2.f);
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(b));
  CHECK(cudaFreeArray(v));
  CHECK(cudaFree(dev));
  printf("done\n");
  return 0;
}
