// Texture fetches from float CUDA arrays, 1D, 2D and 3D, under every
// address mode, point and linear filtering, unnormalized and normalized
// coordinates, at coordinates inside, between and outside the texels
// (fractions that fall between the 1/256 steps of the linear filter's
// weights included). Prints each result's bits.
#include "common.h"

__global__ void k1(cudaTextureObject_t t, const float *x, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(t, x[i]);
}
__global__ void k2(cudaTextureObject_t t, const float2 *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, x[i].x, x[i].y);
}
__global__ void k3(cudaTextureObject_t t, const float4 *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, x[i].x, x[i].y, x[i].z);
}

enum { N1 = 5, W2 = 4, H2 = 3, W3 = 3, H3 = 2, D3 = 4, NC = 48 };

int main() {
  float t1[N1] = {0.1f, 1.7f, -2.25f, 3.3f, 10.0f};
  float t2[W2 * H2], t3[W3 * H3 * D3];
  // Products through a volatile, so no compiler fuses them into an FMA
  // (clang does in CUDA mode, GCC does not): every rounding is explicit.
  for (int i = 0; i < W2 * H2; i++) {
    volatile float p = 0.3f * (float)(i * i % 7);
    t2[i] = p - 1.0f + (float)i / 3.0f;
  }
  for (int i = 0; i < W3 * H3 * D3; i++) {
    volatile float p = (float)((i * 5) % 11) * 0.7f;
    t3[i] = p - 2.0f;
  }

  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2, a3;
  CHECK(cudaMallocArray(&a1, &fd, N1));
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, t1, sizeof t1, sizeof t1, 1, cudaMemcpyHostToDevice));
  CHECK(cudaMallocArray(&a2, &fd, W2, H2));
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, t2, W2 * 4, W2 * 4, H2, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(W3, H3, D3)));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(t3, W3 * 4, W3, H3);
  p.dstArray = a3;
  p.extent = make_cudaExtent(W3, H3, D3);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));

  // Unnormalized coordinates: fixed interesting points, then random ones.
  const float fixed[] = {-1.3f, -0.5f, 0.0f, 0.25f, 0.5f, 0.501953125f, 0.5009765625f, 0.5029296875f,
                         0.50390625f, 1.0f, 1.2f, 1.0f + 1.0f / 3.0f, 2.999f, 3.5f, 4.5f, 4.99f, 5.0f, 5.5f,
                         6.7f, 12.3f, -7.1f, 1.5f - 1.0f / 1024.0f, 2.5f + 1.0f / 2048.0f, 0.75f};
  const int nf = sizeof fixed / sizeof fixed[0];
  float *dx, *dout;
  float4 *dout4;
  CHECK(cudaMalloc(&dx, NC * 16));
  CHECK(cudaMalloc(&dout, NC * 4));
  CHECK(cudaMalloc(&dout4, NC * 16));
  float hx[NC * 4], hout[NC * 4];
  char label[64];

  for (int norm = 0; norm < 2; norm++)
    for (int addr = 0; addr < 4; addr++)
      for (int filter = 0; filter < 2; filter++) {
        cudaResourceDesc r1 = arrayRes(a1), r2 = arrayRes(a2), r3 = arrayRes(a3);
        cudaTextureDesc td = texDesc(addr, filter, norm, 0);
        cudaTextureObject_t o1, o2, o3;
        cudaError_t e1 = cudaCreateTextureObject(&o1, &r1, &td, NULL);
        cudaError_t e2 = cudaCreateTextureObject(&o2, &r2, &td, NULL);
        cudaError_t e3 = cudaCreateTextureObject(&o3, &r3, &td, NULL);
        printf("norm=%d addr=%d filter=%d: create %s %s %s\n", norm, addr, filter, cudaGetErrorName(e1),
               cudaGetErrorName(e2), cudaGetErrorName(e3));
        if (e1 || e2 || e3) continue;
        // 1D
        lcg_state = 1000 + addr * 10 + filter + norm * 100;
        for (int i = 0; i < NC; i++) {
          float x = i < nf ? fixed[i] : coord(-2.0f * N1, 3.0f * N1);
          hx[i] = norm ? x / N1 : x;
        }
        CHECK(cudaMemcpy(dx, hx, NC * 4, cudaMemcpyHostToDevice));
        k1<<<2, 32>>>(o1, dx, dout4, NC);
        CHECK(cudaMemcpy(hout, dout4, NC * 16, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "1d n%d a%d f%d", norm, addr, filter);
        printHex(label, hout, NC * 4);
        // 2D
        for (int i = 0; i < NC; i++) {
          float x = i < nf ? fixed[i] : coord(-2.0f * W2, 3.0f * W2);
          float y = i < nf ? fixed[(i * 7) % nf] * 0.6f : coord(-2.0f * H2, 3.0f * H2);
          hx[2 * i] = norm ? x / W2 : x;
          hx[2 * i + 1] = norm ? y / H2 : y;
        }
        CHECK(cudaMemcpy(dx, hx, NC * 8, cudaMemcpyHostToDevice));
        k2<<<2, 32>>>(o2, (float2 *)dx, dout, NC);
        CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "2d n%d a%d f%d", norm, addr, filter);
        printHex(label, hout, NC);
        // 3D
        for (int i = 0; i < NC; i++) {
          float x = coord(-1.0f * W3, 2.0f * W3), y = coord(-1.0f * H3, 2.0f * H3), z = coord(-1.0f * D3, 2.0f * D3);
          hx[4 * i] = norm ? x / W3 : x;
          hx[4 * i + 1] = norm ? y / H3 : y;
          hx[4 * i + 2] = norm ? z / D3 : z;
          hx[4 * i + 3] = 0;
        }
        CHECK(cudaMemcpy(dx, hx, NC * 16, cudaMemcpyHostToDevice));
        k3<<<2, 32>>>(o3, (float4 *)dx, dout, NC);
        CHECK(cudaMemcpy(hout, dout, NC * 4, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "3d n%d a%d f%d", norm, addr, filter);
        printHex(label, hout, NC);
        CHECK(cudaDestroyTextureObject(o1));
        CHECK(cudaDestroyTextureObject(o2));
        CHECK(cudaDestroyTextureObject(o3));
      }
  CHECK(cudaFreeArray(a1));
  CHECK(cudaFreeArray(a2));
  CHECK(cudaFreeArray(a3));
  printf("done\n");
  return 0;
}
