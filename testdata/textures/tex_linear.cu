// Textures over linear and pitched memory: tex1Dfetch of float, int,
// normalized unsigned char and float4 elements at indices inside and
// outside the buffer, tex2D over a pitch2D resource with point and linear
// filtering and normalized coordinates; the resource descriptor read back.
#include "common.h"

__global__ void fetchF(cudaTextureObject_t t, const int *idx, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, idx[i]);
}
__global__ void fetchI(cudaTextureObject_t t, const int *idx, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, idx[i]);
}
__global__ void fetchF4(cudaTextureObject_t t, const int *idx, float4 *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, idx[i]);
}
__global__ void fetch2D(cudaTextureObject_t t, const float2 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

enum { N = 40, NI = 48 };

static cudaResourceDesc linearRes(void *p, cudaChannelFormatDesc d, size_t bytes) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = p;
  r.res.linear.desc = d;
  r.res.linear.sizeInBytes = bytes;
  return r;
}

int main() {
  int hidx[NI];
  for (int i = 0; i < NI; i++) hidx[i] = i - 4;
  hidx[NI - 1] = 1 << 20, hidx[NI - 2] = -100000;
  int *didx;
  void *dout, *buf;
  CHECK(cudaMalloc(&didx, sizeof hidx));
  CHECK(cudaMalloc(&dout, NI * 16));
  CHECK(cudaMalloc(&buf, N * 16));
  CHECK(cudaMemcpy(didx, hidx, sizeof hidx, cudaMemcpyHostToDevice));
  float hf[N * 4], out[NI * 4];
  for (int i = 0; i < N * 4; i++) hf[i] = (float)i * 1.5f - 7.0f;
  CHECK(cudaMemcpy(buf, hf, sizeof hf, cudaMemcpyHostToDevice));

  cudaTextureDesc td = texDesc(1, 0, 0, 0);
  cudaResourceDesc r = linearRes(buf, cudaCreateChannelDesc<float>(), N * 4);
  cudaTextureObject_t o;
  CHECK(cudaCreateTextureObject(&o, &r, &td, NULL));
  fetchF<<<1, NI>>>(o, didx, (float *)dout, NI);
  CHECK(cudaMemcpy(out, dout, NI * 4, cudaMemcpyDeviceToHost));
  printHex("fetch float", out, NI);
  cudaResourceDesc back;
  CHECK(cudaGetTextureObjectResourceDesc(&back, o));
  printf("resdesc: type %d size %zu same ptr %d desc %d %d\n", (int)back.resType, back.res.linear.sizeInBytes,
         back.res.linear.devPtr == buf, back.res.linear.desc.x, (int)back.res.linear.desc.f);
  CHECK(cudaDestroyTextureObject(o));

  r = linearRes(buf, cudaCreateChannelDesc<int>(), N * 4);
  CHECK(cudaCreateTextureObject(&o, &r, &td, NULL));
  fetchI<<<1, NI>>>(o, didx, (int *)dout, NI);
  CHECK(cudaMemcpy(out, dout, NI * 4, cudaMemcpyDeviceToHost));
  printHex("fetch int", out, NI);
  CHECK(cudaDestroyTextureObject(o));

  td = texDesc(1, 0, 0, 1);
  r = linearRes(buf, cudaCreateChannelDesc<unsigned char>(), N);
  CHECK(cudaCreateTextureObject(&o, &r, &td, NULL));
  fetchF<<<1, NI>>>(o, didx, (float *)dout, NI);
  CHECK(cudaMemcpy(out, dout, NI * 4, cudaMemcpyDeviceToHost));
  printHex("fetch uchar norm", out, NI);
  CHECK(cudaDestroyTextureObject(o));

  td = texDesc(1, 0, 0, 0);
  r = linearRes(buf, cudaCreateChannelDesc<float4>(), N * 16);
  CHECK(cudaCreateTextureObject(&o, &r, &td, NULL));
  fetchF4<<<1, NI>>>(o, didx, (float4 *)dout, NI);
  CHECK(cudaMemcpy(out, dout, NI * 16, cudaMemcpyDeviceToHost));
  printHex("fetch float4", out, NI * 4);
  CHECK(cudaDestroyTextureObject(o));

  // Pitched 2D memory: 6×5 floats in rows of the device's pitch.
  const int w = 6, h = 5;
  float img[w * h];
  for (int i = 0; i < w * h; i++) img[i] = (float)((i * 13) % 17) - 3.5f + (float)i / 8.0f;
  void *pitched;
  size_t pitch;
  CHECK(cudaMallocPitch(&pitched, &pitch, w * 4, h));
  CHECK(cudaMemcpy2D(pitched, pitch, img, w * 4, w * 4, h, cudaMemcpyHostToDevice));
  float2 hc[64];
  lcg_state = 3;
  for (int i = 0; i < 64; i++) {
    float y = coord(-1.0f, h + 1.0f), x = coord(-1.0f, w + 1.0f); // sequenced as GCC evaluates arguments
    hc[i] = make_float2(x, y);
  }
  float2 *dc;
  CHECK(cudaMalloc(&dc, sizeof hc));
  for (int mode = 0; mode < 4; mode++) {
    int filter = mode & 1, norm = mode >> 1;
    float2 c[64];
    for (int i = 0; i < 64; i++) c[i] = norm ? make_float2(hc[i].x / w, hc[i].y / h) : hc[i];
    CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    cudaResourceDesc rp;
    memset(&rp, 0, sizeof rp);
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pitched;
    rp.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rp.res.pitch2D.width = w;
    rp.res.pitch2D.height = h;
    rp.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc tp = texDesc(norm ? 0 : 1, filter, norm, 0);
    CHECK(cudaCreateTextureObject(&o, &rp, &tp, NULL));
    fetch2D<<<1, 64>>>(o, dc, (float *)dout, 64);
    float res[64];
    CHECK(cudaMemcpy(res, dout, sizeof res, cudaMemcpyDeviceToHost));
    char label[64];
    snprintf(label, sizeof label, "pitch2d f%d n%d", filter, norm);
    printHex(label, res, 64);
    CHECK(cudaDestroyTextureObject(o));
  }
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(buf));
  printf("done\n");
  return 0;
}
