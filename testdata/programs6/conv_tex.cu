// Image convolution: a 5x5 filter in __constant__ memory, the image read
// through a texture object on a cudaArray (point sampling, clamp and
// border addressing, unnormalized and normalized coordinates), a
// shared-memory tiled version with halo, a separable version, and a
// bilinear-filtered texture fetch.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define R 2
#define FW (2 * R + 1)
#define TILE 16

__constant__ float c_filter[FW * FW];
__constant__ float c_row[FW];
__constant__ float c_col[FW];

__global__ void conv_texture(float* out, cudaTextureObject_t tex, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0.0f;
#pragma unroll
  for (int dy = -R; dy <= R; dy++)
#pragma unroll
    for (int dx = -R; dx <= R; dx++) sum += c_filter[(dy + R) * FW + dx + R] * tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
  out[y * w + x] = sum;
}

__global__ void conv_shared(float* out, const float* in, int w, int h) {
  __shared__ float tile[TILE + 2 * R][TILE + 2 * R];
  int x0 = blockIdx.x * TILE - R, y0 = blockIdx.y * TILE - R;
  for (int i = threadIdx.y * TILE + threadIdx.x; i < (TILE + 2 * R) * (TILE + 2 * R); i += TILE * TILE) {
    int ty = i / (TILE + 2 * R), tx = i % (TILE + 2 * R);
    int gx = min(max(x0 + tx, 0), w - 1), gy = min(max(y0 + ty, 0), h - 1);
    tile[ty][tx] = in[gy * w + gx];
  }
  __syncthreads();
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0.0f;
#pragma unroll
  for (int dy = 0; dy < FW; dy++)
#pragma unroll
    for (int dx = 0; dx < FW; dx++) sum += c_filter[dy * FW + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * w + x] = sum;
}

__global__ void conv_rows(float* out, cudaTextureObject_t tex, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int k = -R; k <= R; k++) s += c_row[k + R] * tex2D<float>(tex, x + k + 0.5f, y + 0.5f);
  out[y * w + x] = s;
}
__global__ void conv_cols(float* out, const float* in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int k = -R; k <= R; k++) s += c_col[k + R] * in[min(max(y + k, 0), h - 1) * w + x];
  out[y * w + x] = s;
}

__global__ void sample_bilinear(float* out, cudaTextureObject_t texN, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float u = (float)i / (float)n * 1.25f - 0.125f, v = (float)(i % 37) / 37.0f;
  out[i] = tex2D<float>(texN, u, v);
}

static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

static cudaTextureObject_t makeTex(cudaArray_t arr, cudaTextureAddressMode mode, cudaTextureFilterMode filter, int normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = mode; td.addressMode[1] = mode;
  td.filterMode = filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
  return t;
}

int main() {
  const int w = 100, h = 72;
  float* img = (float*)malloc(w * h * 4);
  unsigned s = 99u;
  for (int i = 0; i < w * h; i++) { s = s * 1664525u + 1013904223u; img[i] = (float)(s >> 24) * (1.0f / 256); }
  float filt[FW * FW], row[FW] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16}, col[FW] = {-0.125f, 0.25f, 0.75f, 0.25f, -0.125f};
  for (int i = 0; i < FW; i++) for (int j = 0; j < FW; j++) filt[i * FW + j] = row[i] * col[j] + (i == j ? 0.01f : 0.0f);
  CHECK(cudaMemcpyToSymbol(c_filter, filt, sizeof filt)); CHECK(cudaMemcpyToSymbol(c_row, row, sizeof row)); CHECK(cudaMemcpyToSymbol(c_col, col, sizeof col));
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &cd, w, h));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaTextureObject_t texClamp = makeTex(arr, cudaAddressModeClamp, cudaFilterModePoint, 0);
  cudaTextureObject_t texBorder = makeTex(arr, cudaAddressModeBorder, cudaFilterModePoint, 0);
  cudaTextureObject_t texLinear = makeTex(arr, cudaAddressModeWrap, cudaFilterModeLinear, 1);
  float *din, *dout, *dtmp, *hout = (float*)malloc(w * h * 4);
  CHECK(cudaMalloc(&din, w * h * 4)); CHECK(cudaMalloc(&dout, w * h * 4)); CHECK(cudaMalloc(&dtmp, w * h * 4));
  CHECK(cudaMemcpy(din, img, w * h * 4, cudaMemcpyHostToDevice));
  dim3 blk(TILE, TILE), grd((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  const char* names[] = {"tex clamp", "tex border", "shared", "separable"};
  for (int v = 0; v < 4; v++) {
    if (v == 0) conv_texture<<<grd, blk>>>(dout, texClamp, w, h);
    if (v == 1) conv_texture<<<grd, blk>>>(dout, texBorder, w, h);
    if (v == 2) conv_shared<<<grd, blk>>>(dout, din, w, h);
    if (v == 3) { conv_rows<<<grd, blk>>>(dtmp, texClamp, w, h); conv_cols<<<grd, blk>>>(dout, dtmp, w, h); }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, dout, w * h * 4, cudaMemcpyDeviceToHost));
    printf("%-10s fnv %08x [0] %a [101] %a [%d] %a\n", names[v], fnv(hout, w * h * 4), hout[0], hout[101], w * h - 1, hout[w * h - 1]);
  }
  const int ns = 1000;
  sample_bilinear<<<(ns + 127) / 128, 128>>>(dout, texLinear, ns);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hout, dout, ns * 4, cudaMemcpyDeviceToHost));
  printf("bilinear fnv %08x [0] %a [1] %a [500] %a [999] %a\n", fnv(hout, ns * 4), hout[0], hout[1], hout[500], hout[999]);
  CHECK(cudaDestroyTextureObject(texClamp)); CHECK(cudaDestroyTextureObject(texBorder)); CHECK(cudaDestroyTextureObject(texLinear));
  CHECK(cudaFreeArray(arr));
  return 0;
}
