// Texture and surface objects over CUDA arrays: point and linear
// filtering, normalized coordinates, the four address modes, element and
// normalized-float read modes, a surface written by one kernel and read
// by the next, and the resource descriptors read back.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t t, const float2 *uv, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}
__global__ void sample4(cudaTextureObject_t t, const float2 *uv, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, uv[i].x, uv[i].y);
}
__global__ void writeSurf(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) surf2Dwrite(make_int2(x * y, x - y), s, x * (int)sizeof(int2), y);
}
__global__ void readSurf(cudaSurfaceObject_t s, int w, int h, long long *acc) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    int2 v = surf2Dread<int2>(s, x * (int)sizeof(int2), y);
    atomicAdd((unsigned long long *)acc, (unsigned long long)(long long)(v.x * 3 + v.y));
  }
}

static const char *amode(cudaTextureAddressMode m) {
  switch (m) {
  case cudaAddressModeWrap: return "wrap";
  case cudaAddressModeClamp: return "clamp";
  case cudaAddressModeMirror: return "mirror";
  case cudaAddressModeBorder: return "border";
  }
  return "?";
}

int main() {
  const int W = 8, H = 4;
  float img[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = (float)(10 * y + x);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &cd, W, H);
  cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);

  const int N = 12;
  float2 uvUn[N] = {{0.5f, 0.5f}, {1.5f, 0.5f}, {1.0f, 0.5f}, {1.25f, 1.75f}, {-0.5f, 0.5f}, {8.5f, 0.5f},
                    {9.7f, 2.2f}, {-3.3f, -1.1f}, {7.99f, 3.99f}, {0.0f, 0.0f}, {4.1f, 2.6f}, {12.5f, 5.5f}};
  float2 uvNorm[N];
  for (int i = 0; i < N; i++) uvNorm[i] = make_float2(uvUn[i].x / W, uvUn[i].y / H);
  float2 *duv;
  float *dout;
  cudaMalloc(&duv, sizeof uvUn);
  cudaMalloc(&dout, N * sizeof(float));

  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  for (int norm = 0; norm < 2; norm++)
    for (int filt = 0; filt < 2; filt++)
      for (int m = 0; m < 4; m++) {
        cudaTextureAddressMode mode = (cudaTextureAddressMode)m;
        if (!norm && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = mode;
        td.filterMode = filt ? cudaFilterModeLinear : cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = norm;
        td.borderColor[0] = -1.0f;
        cudaTextureObject_t t = 0;
        cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
        cudaMemcpy(duv, norm ? uvNorm : uvUn, sizeof uvUn, cudaMemcpyHostToDevice);
        sample<<<1, 32>>>(t, duv, dout, N);
        float out[N];
        cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
        printf("%s %s %-6s %s:", norm ? "norm" : "unnorm", filt ? "linear" : "point", amode(mode), cudaGetErrorName(e));
        for (int i = 0; i < N; i++) printf(" %.6g", out[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
      }

  // uchar4 with normalized-float reads and linear filtering.
  uchar4 px[2][4];
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 4; x++) px[y][x] = make_uchar4(x * 60, y * 200, 255 - x * 50, 17 * (x + y));
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr4;
  cudaMallocArray(&arr4, &c4, 4, 2);
  cudaMemcpy2DToArray(arr4, 0, 0, px, sizeof px[0], sizeof px[0], 2, cudaMemcpyHostToDevice);
  cudaResourceDesc rd4 = {};
  rd4.resType = cudaResourceTypeArray;
  rd4.res.array.array = arr4;
  cudaTextureDesc td4 = {};
  td4.addressMode[0] = td4.addressMode[1] = cudaAddressModeClamp;
  td4.filterMode = cudaFilterModeLinear;
  td4.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t4;
  cudaError_t e = cudaCreateTextureObject(&t4, &rd4, &td4, nullptr);
  printf("uchar4 normalized-float texture: %s\n", cudaGetErrorName(e));
  float2 uv4[4] = {{0.5f, 0.5f}, {1.0f, 1.0f}, {2.3f, 0.9f}, {3.5f, 1.5f}};
  cudaMemcpy(duv, uv4, sizeof uv4, cudaMemcpyHostToDevice);
  float4 *d4;
  cudaMalloc(&d4, 4 * sizeof(float4));
  sample4<<<1, 32>>>(t4, duv, d4, 4);
  float4 o4[4];
  cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) printf("  (%g,%g): %.7g %.7g %.7g %.7g\n", uv4[i].x, uv4[i].y, o4[i].x, o4[i].y, o4[i].z, o4[i].w);
  cudaResourceDesc back;
  cudaGetTextureObjectResourceDesc(&back, t4);
  cudaTextureDesc tback;
  cudaGetTextureObjectTextureDesc(&tback, t4);
  printf("read back: resType %d same array %d filter %d readMode %d\n", (int)back.resType, back.res.array.array == arr4,
         (int)tback.filterMode, (int)tback.readMode);
  // A linear filter on an integer element read is refused.
  cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
  cudaArray_t arri;
  cudaMallocArray(&arri, &ci, 4, 4);
  cudaResourceDesc rdi = {};
  rdi.resType = cudaResourceTypeArray;
  rdi.res.array.array = arri;
  cudaTextureDesc tdi = {};
  tdi.filterMode = cudaFilterModeLinear;
  tdi.readMode = cudaReadModeElementType;
  cudaTextureObject_t ti = 0;
  e = cudaCreateTextureObject(&ti, &rdi, &tdi, nullptr);
  printf("linear filter on int elements: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  // Surfaces need cudaArraySurfaceLoadStore.
  cudaChannelFormatDesc c2 = cudaCreateChannelDesc<int2>();
  cudaArray_t sarr, plain;
  cudaMallocArray(&sarr, &c2, 37, 9, cudaArraySurfaceLoadStore);
  cudaMallocArray(&plain, &c2, 37, 9);
  cudaResourceDesc sd = {};
  sd.resType = cudaResourceTypeArray;
  sd.res.array.array = plain;
  cudaSurfaceObject_t so = 0;
  e = cudaCreateSurfaceObject(&so, &sd);
  printf("surface on an array without the flag: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  sd.res.array.array = sarr;
  e = cudaCreateSurfaceObject(&so, &sd);
  printf("surface: %s\n", cudaGetErrorName(e));
  writeSurf<<<dim3(2, 9), 32>>>(so, 37, 9);
  long long *acc;
  cudaMalloc(&acc, 8);
  cudaMemset(acc, 0, 8);
  readSurf<<<dim3(2, 9), 32>>>(so, 37, 9, acc);
  long long hacc;
  cudaMemcpy(&hacc, acc, 8, cudaMemcpyDeviceToHost);
  int2 row[37];
  cudaMemcpy2DFromArray(row, sizeof row, sarr, 0, 4, sizeof row, 1, cudaMemcpyDeviceToHost);
  printf("surface sum %lld row4: (%d,%d) (%d,%d) (%d,%d)\n", hacc, row[0].x, row[0].y, row[5].x, row[5].y, row[36].x,
         row[36].y);
  cudaDestroySurfaceObject(so);
  cudaDestroyTextureObject(t4);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
