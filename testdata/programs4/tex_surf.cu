// Texture objects over a CUDA array (normalized coordinates, linear
// filtering, wrap and mirror), a surface object written by one kernel and
// read through a texture by the next, and a pitch2D texture.
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", #x, __LINE__, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void sample(cudaTextureObject_t t, float *out, int n, float shift) {
  int i = threadIdx.x, j = blockIdx.x;
  float u = (i + shift) / 16.0f - 0.3f, v = (j + 0.5f) / 8.0f * 1.7f;
  out[j * n + i] = tex2D<float>(t, u, v);
}
__global__ void writeSurf(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    uchar4 c = make_uchar4(x * 8, y * 16, (x ^ y) * 4, 255 - x);
    surf2Dwrite(c, s, x * sizeof(uchar4), y);
  }
}
__global__ void readBack(cudaTextureObject_t t, cudaSurfaceObject_t s, float4 *o, uchar4 *raw) {
  int i = threadIdx.x;
  o[i] = tex2D<float4>(t, 0.37f + i * 0.61f, 0.81f + i * 0.23f);
  raw[i] = surf2Dread<uchar4>(s, (i % 32) * 4, i / 32, cudaBoundaryModeClamp);
}
__global__ void pitchTex(cudaTextureObject_t t, float *o) {
  int i = threadIdx.x;
  o[i] = tex2D<float>(t, i * 0.75f + 0.1f, 3.3f);
}

int main() {
  const int W = 16, H = 8;
  float h[H][W];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) h[y][x] = (x * 7 + y * 13) % 17 + 0.1f * x;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &fd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  float *out, r[2][H * 24];
  CK(cudaMalloc(&out, sizeof r));
  for (int mode = 0; mode < 2; mode++) {
    cudaTextureDesc td = {};
    td.addressMode[0] = mode ? cudaAddressModeMirror : cudaAddressModeWrap;
    td.addressMode[1] = mode ? cudaAddressModeWrap : cudaAddressModeMirror;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample<<<H, 24>>>(t, out + mode * H * 24, 24, 0.37f);
    CK(cudaDestroyTextureObject(t));
  }
  CK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
  for (int m = 0; m < 2; m++) {
    unsigned ck = 0;
    for (int i = 0; i < H * 24; i++) ck = ck * 33 + *(unsigned *)&r[m][i];
    printf("mode %d: %a %a %a checksum %08x\n", m, r[m][0], r[m][37], r[m][H * 24 - 1], ck);
    for (int j = 0; j < H; j++) {
      for (int i = 0; i < 24; i++) printf(" %08x", *(unsigned *)&r[m][j * 24 + i]);
      printf("\n");
    }
  }

  const int SW = 32, SH = 4;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t sa;
  CK(cudaMallocArray(&sa, &cd, SW, SH, cudaArraySurfaceLoadStore));
  cudaResourceDesc srd = {};
  srd.resType = cudaResourceTypeArray;
  srd.res.array.array = sa;
  cudaSurfaceObject_t so;
  CK(cudaCreateSurfaceObject(&so, &srd));
  writeSurf<<<dim3(1, SH), SW>>>(so, SW, SH);
  cudaTextureDesc ntd = {};
  ntd.addressMode[0] = ntd.addressMode[1] = cudaAddressModeClamp;
  ntd.filterMode = cudaFilterModeLinear;
  ntd.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t nt;
  CK(cudaCreateTextureObject(&nt, &srd, &ntd, nullptr));
  float4 *o4, h4[40];
  uchar4 *raw, hr[40];
  CK(cudaMalloc(&o4, sizeof h4)); CK(cudaMalloc(&raw, sizeof hr));
  readBack<<<1, 40>>>(nt, so, o4, raw);
  CK(cudaMemcpy(h4, o4, sizeof h4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hr, raw, sizeof hr, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 40; i += 7)
    printf("%2d: %a %a %a %a | %u %u %u %u\n", i, h4[i].x, h4[i].y, h4[i].z, h4[i].w, hr[i].x, hr[i].y, hr[i].z, hr[i].w);

  float *lin;
  size_t pitch;
  CK(cudaMallocPitch(&lin, &pitch, W * sizeof(float), H));
  CK(cudaMemcpy2D(lin, pitch, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaResourceDesc prd = {};
  prd.resType = cudaResourceTypePitch2D;
  prd.res.pitch2D.devPtr = lin;
  prd.res.pitch2D.desc = fd;
  prd.res.pitch2D.width = W;
  prd.res.pitch2D.height = H;
  prd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc ptd = {};
  ptd.addressMode[0] = ptd.addressMode[1] = cudaAddressModeBorder;
  ptd.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t pt;
  CK(cudaCreateTextureObject(&pt, &prd, &ptd, nullptr));
  float po[24];
  pitchTex<<<1, 24>>>(pt, out);
  CK(cudaMemcpy(po, out, sizeof po, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 24; i++) printf("%a ", po[i]);
  printf("\n");
  CK(cudaDestroyTextureObject(pt)); CK(cudaDestroyTextureObject(nt)); CK(cudaDestroySurfaceObject(so));
  CK(cudaFreeArray(arr)); CK(cudaFreeArray(sa)); CK(cudaFree(lin));
  return 0;
}
