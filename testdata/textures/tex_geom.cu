// Layered and cubemap textures, gathers and explicit levels of detail:
// tex1DLayered and tex2DLayered (layer indices outside the array
// included), texCubemap (directions on every face, on edges and corners),
// texCubemapLayered, tex2Dgather of each component, tex2DLod and
// tex2DGrad on a texture without mipmaps. Prints bits in hex.
#include "common.h"

__global__ void layered1(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float>(t, c[i].x, (int)c[i].w);
}
__global__ void layered2(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].w);
}
__global__ void cube(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void cubeLayered(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float>(t, c[i].x, c[i].y, c[i].z, (int)c[i].w);
}
__global__ void gather(cudaTextureObject_t t, const float4 *c, float4 *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[4 * i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
    out[4 * i + 1] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
    out[4 * i + 2] = tex2Dgather<float4>(t, c[i].x, c[i].y, 2);
    out[4 * i + 3] = tex2Dgather<float4>(t, c[i].x, c[i].y, 3);
  }
}
__global__ void lod(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[2 * i] = tex2DLod<float>(t, c[i].x, c[i].y, c[i].z);
    out[2 * i + 1] = tex2DGrad<float>(t, c[i].x, c[i].y, make_float2(c[i].z, 0.5f), make_float2(0.25f, c[i].w));
  }
}

enum { W = 4, H = 3, L = 3, F = 4, NC = 64 };

int main() {
  float *dc, *dout;
  CHECK(cudaMalloc(&dc, NC * 16));
  CHECK(cudaMalloc(&dout, NC * 64));
  float4 hc[NC];
  float hout[NC * 16];
  // 1D layered: W texels by L layers; 2D layered: W×H by L layers.
  float l1[W * L], l2[W * H * L];
  for (int i = 0; i < W * L; i++) l1[i] = (float)(i * 7 % 13) * 0.5f - 1.0f;
  for (int i = 0; i < W * H * L; i++) l2[i] = (float)(i * 11 % 17) * 0.25f + (float)i;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2, ac, acl;
  CHECK(cudaMalloc3DArray(&a1, &fd, make_cudaExtent(W, 0, L), cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&a2, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(l1, W * 4, W, 1);
  p.dstArray = a1;
  p.extent = make_cudaExtent(W, 1, L);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  p.srcPtr = make_cudaPitchedPtr(l2, W * 4, W, H);
  p.dstArray = a2;
  p.extent = make_cudaExtent(W, H, L);
  CHECK(cudaMemcpy3D(&p));
  cudaExtent e;
  unsigned flags;
  cudaChannelFormatDesc got;
  CHECK(cudaArrayGetInfo(&got, &e, &flags, a1));
  printf("a1 info: %d %d %d %d %d extent %zu %zu %zu flags %u\n", got.x, got.y, got.z, got.w, (int)got.f, e.width,
         e.height, e.depth, flags);
  CHECK(cudaArrayGetInfo(&got, &e, &flags, a2));
  printf("a2 info: extent %zu %zu %zu flags %u\n", e.width, e.height, e.depth, flags);
  for (int filter = 0; filter < 2; filter++)
    for (int addr = 0; addr < 2; addr++) {
      cudaTextureDesc td = texDesc(addr == 0 ? 1 : 3, filter, 0, 0);
      cudaResourceDesc r1 = arrayRes(a1), r2 = arrayRes(a2);
      cudaTextureObject_t o1, o2;
      CHECK(cudaCreateTextureObject(&o1, &r1, &td, NULL));
      CHECK(cudaCreateTextureObject(&o2, &r2, &td, NULL));
      lcg_state = 31 + filter * 2 + addr;
      for (int i = 0; i < NC; i++) {
        float w = (float)(int)coord(-2.0f, L + 2.0f), y = coord(-1.0f, H + 1.0f), x = coord(-1.0f, W + 1.0f);
        hc[i] = make_float4(x, y, 0.0f, w);
      }
      CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
      layered1<<<1, NC>>>(o1, (float4 *)dc, dout, NC);
      CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
      char label[64];
      snprintf(label, sizeof label, "layered1d f%d %s", filter, addr ? "border" : "clamp");
      printHex(label, hout, NC);
      layered2<<<1, NC>>>(o2, (float4 *)dc, dout, NC);
      CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
      snprintf(label, sizeof label, "layered2d f%d %s", filter, addr ? "border" : "clamp");
      printHex(label, hout, NC);
      CHECK(cudaDestroyTextureObject(o1));
      CHECK(cudaDestroyTextureObject(o2));
    }
  // Cubemaps: F×F faces, 6 faces (and 2 layers of 6).
  float cf[F * F * 12];
  for (int i = 0; i < F * F * 12; i++) cf[i] = (float)i + (float)(i % 5) * 0.125f;
  CHECK(cudaMalloc3DArray(&ac, &fd, make_cudaExtent(F, F, 6), cudaArrayCubemap));
  CHECK(cudaMalloc3DArray(&acl, &fd, make_cudaExtent(F, F, 12), cudaArrayCubemap | cudaArrayLayered));
  p.srcPtr = make_cudaPitchedPtr(cf, F * 4, F, F);
  p.dstArray = ac;
  p.extent = make_cudaExtent(F, F, 6);
  CHECK(cudaMemcpy3D(&p));
  p.dstArray = acl;
  p.extent = make_cudaExtent(F, F, 12);
  CHECK(cudaMemcpy3D(&p));
  const float dirs[][3] = {{1, 0.2f, -0.3f}, {-1, 0.1f, 0.7f}, {0.3f, 1, -0.4f}, {0.25f, -1, 0.6f}, {-0.5f, 0.45f, 1},
                           {0.6f, -0.2f, -1}, {2, 2, 1}, {-1, -1, 0.5f}, {1, 1, 1}, {0.5f, 1, 1}, {1, 0.5f, -1},
                           {3.0f, -0.001f, 2.9f}, {0.1f, 0.1f, -5}, {-7, 3.5f, -7}, {0.001f, 0.0f, 0.0f},
                           {-0.2f, -0.9f, 0.9f}};
  const int nd = sizeof dirs / sizeof dirs[0];
  for (int filter = 0; filter < 2; filter++) {
    cudaTextureDesc td = texDesc(1, filter, 1, 0);
    cudaResourceDesc rc = arrayRes(ac), rcl = arrayRes(acl);
    cudaTextureObject_t oc, ocl;
    CHECK(cudaCreateTextureObject(&oc, &rc, &td, NULL));
    CHECK(cudaCreateTextureObject(&ocl, &rcl, &td, NULL));
    lcg_state = 57 + filter;
    for (int i = 0; i < NC; i++) {
      if (i < nd) {
        hc[i] = make_float4(dirs[i][0], dirs[i][1], dirs[i][2], (float)(i % 3));
      } else {
        float z = coord(-2, 2), y = coord(-2, 2), x = coord(-2, 2);
        hc[i] = make_float4(x, y, z, (float)(i % 2));
      }
    }
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    cube<<<1, NC>>>(oc, (float4 *)dc, dout, NC);
    CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
    printHex(filter ? "cube linear" : "cube point", hout, NC);
    cubeLayered<<<1, NC>>>(ocl, (float4 *)dc, dout, NC);
    CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
    printHex(filter ? "cube layered linear" : "cube layered point", hout, NC);
    CHECK(cudaDestroyTextureObject(oc));
    CHECK(cudaDestroyTextureObject(ocl));
  }
  // Gather from a float4 texture; Lod and Grad without mipmaps.
  float4 g[W * H];
  for (int i = 0; i < W * H; i++) g[i] = make_float4((float)i, (float)i + 0.25f, -(float)i, (float)(i * i));
  cudaChannelFormatDesc d4 = cudaCreateChannelDesc<float4>();
  cudaArray_t ag, al;
  CHECK(cudaMallocArray(&ag, &d4, W, H, cudaArrayTextureGather));
  CHECK(cudaMemcpy2DToArray(ag, 0, 0, g, W * 16, W * 16, H, cudaMemcpyHostToDevice));
  CHECK(cudaMallocArray(&al, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(al, 0, 0, l2, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  for (int addr = 0; addr < 2; addr++) {
    cudaTextureDesc td = texDesc(addr == 0 ? 1 : 3, 0, 0, 0);
    cudaResourceDesc rg = arrayRes(ag);
    cudaTextureObject_t og;
    CHECK(cudaCreateTextureObject(&og, &rg, &td, NULL));
    lcg_state = 91 + addr;
    for (int i = 0; i < 32; i++) {
      float y = coord(-1, H + 1), x = coord(-1, W + 1);
      hc[i] = make_float4(x, y, 0, 0);
    }
    CHECK(cudaMemcpy(dc, hc, 32 * 16, cudaMemcpyHostToDevice));
    gather<<<1, 32>>>(og, (float4 *)dc, (float4 *)dout, 32);
    CHECK(cudaMemcpy(hout, dout, 32 * 64, cudaMemcpyDeviceToHost));
    printHex(addr ? "gather border" : "gather clamp", hout, 32 * 16);
    CHECK(cudaDestroyTextureObject(og));
  }
  for (int filter = 0; filter < 2; filter++) {
    cudaTextureDesc td = texDesc(1, filter, 0, 0);
    cudaResourceDesc rl = arrayRes(al);
    cudaTextureObject_t ol;
    CHECK(cudaCreateTextureObject(&ol, &rl, &td, NULL));
    lcg_state = 17 + filter;
    for (int i = 0; i < 32; i++) {
      float w = coord(0, 8), z = coord(-2, 4), y = coord(-1, H + 1), x = coord(-1, W + 1);
      hc[i] = make_float4(x, y, z, w);
    }
    CHECK(cudaMemcpy(dc, hc, 32 * 16, cudaMemcpyHostToDevice));
    lod<<<1, 32>>>(ol, (float4 *)dc, dout, 32);
    CHECK(cudaMemcpy(hout, dout, 64 * 4, cudaMemcpyDeviceToHost));
    printHex(filter ? "lod grad linear" : "lod grad point", hout, 64);
    CHECK(cudaDestroyTextureObject(ol));
  }
  CHECK(cudaFreeArray(a1));
  CHECK(cudaFreeArray(a2));
  CHECK(cudaFreeArray(ac));
  CHECK(cudaFreeArray(acl));
  CHECK(cudaFreeArray(ag));
  CHECK(cudaFreeArray(al));
  printf("done\n");
  return 0;
}
