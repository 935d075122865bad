// Rodinia-style SRAD (speckle-reducing anisotropic diffusion) on an
// ultrasound-like image: the image is extracted with expf, then each
// iteration reduces the sum and sum of squares of the image in shared
// memory (partials summed on the host), computes the four directional
// derivatives and the diffusion coefficient per pixel, and applies the
// divergence; finally the image is compressed back with logf.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 99u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define BLOCK 256

__global__ void extract(float *img, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) img[i] = expf(img[i] / 255.0f);
}

__global__ void sum_squares(const float *img, float *partial, int n) {
  __shared__ float s[BLOCK], s2[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? img[i] : 0.0f;
  s[threadIdx.x] = v;
  s2[threadIdx.x] = v * v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) {
      s[threadIdx.x] += s[threadIdx.x + stride];
      s2[threadIdx.x] += s2[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) { partial[2 * blockIdx.x] = s[0]; partial[2 * blockIdx.x + 1] = s2[0]; }
}

__global__ void coefficients(const float *J, float *dN, float *dS, float *dW, float *dE, float *c, int rows, int cols, float q0sqr) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  int k = y * cols + x;
  int n = y == 0 ? k : k - cols, s = y == rows - 1 ? k : k + cols;
  int w = x == 0 ? k : k - 1, e = x == cols - 1 ? k : k + 1;
  float jc = J[k];
  float gn = J[n] - jc, gs = J[s] - jc, gw = J[w] - jc, ge = J[e] - jc;
  float g2 = (gn * gn + gs * gs + gw * gw + ge * ge) / (jc * jc);
  float l = (gn + gs + gw + ge) / jc;
  float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
  float den = 1.0f + (0.25f * l);
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float cc = 1.0f / (1.0f + den);
  c[k] = cc < 0.0f ? 0.0f : (cc > 1.0f ? 1.0f : cc);
  dN[k] = gn; dS[k] = gs; dW[k] = gw; dE[k] = ge;
}

__global__ void diffuse(float *J, const float *dN, const float *dS, const float *dW, const float *dE, const float *c, int rows, int cols, float lambda) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  int k = y * cols + x;
  int s = y == rows - 1 ? k : k + cols, e = x == cols - 1 ? k : k + 1;
  float cn = c[k], cw = c[k], cs = c[s], ce = c[e];
  float d = cn * dN[k] + cs * dS[k] + cw * dW[k] + ce * dE[k];
  J[k] = J[k] + 0.25f * lambda * d;
}

__global__ void compress(float *img, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) img[i] = logf(img[i]) * 255.0f;
}

int main() {
  const int rows = 160, cols = 192, n = rows * cols, iters = 4;
  const float lambda = 0.5f;
  float *img = (float *)malloc(n * sizeof(float));
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++) {
      int speckle = lcg() % 64;
      img[y * cols + x] = (float)((x / 24 + y / 20) % 2 ? 150 + speckle : 60 + speckle);
    }
  float *d_J, *d_dN, *d_dS, *d_dW, *d_dE, *d_c, *d_part;
  int blocks = (n + BLOCK - 1) / BLOCK;
  CHECK(cudaMalloc(&d_J, n * 4)); CHECK(cudaMalloc(&d_dN, n * 4)); CHECK(cudaMalloc(&d_dS, n * 4));
  CHECK(cudaMalloc(&d_dW, n * 4)); CHECK(cudaMalloc(&d_dE, n * 4)); CHECK(cudaMalloc(&d_c, n * 4));
  CHECK(cudaMalloc(&d_part, blocks * 2 * 4));
  CHECK(cudaMemcpy(d_J, img, n * 4, cudaMemcpyHostToDevice));
  float *part = (float *)malloc(blocks * 2 * 4);
  extract<<<blocks, BLOCK>>>(d_J, n);
  dim3 b2(16, 16), g2((cols + 15) / 16, (rows + 15) / 16);
  for (int it = 0; it < iters; it++) {
    sum_squares<<<blocks, BLOCK>>>(d_J, d_part, n);
    CHECK(cudaMemcpy(part, d_part, blocks * 2 * 4, cudaMemcpyDeviceToHost));
    float sum = 0, sum2 = 0;
    for (int b = 0; b < blocks; b++) { sum += part[2 * b]; sum2 += part[2 * b + 1]; }
    float mean = sum / n, var = (sum2 / n) - mean * mean, q0sqr = var / (mean * mean);
    printf("iteration %d: sum %a sum2 %a q0sqr %a\n", it, sum, sum2, q0sqr);
    coefficients<<<g2, b2>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_c, rows, cols, q0sqr);
    diffuse<<<g2, b2>>>(d_J, d_dN, d_dS, d_dW, d_dE, d_c, rows, cols, lambda);
  }
  compress<<<blocks, BLOCK>>>(d_J, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(img, d_J, n * 4, cudaMemcpyDeviceToHost));
  printf("image fnv %016llx\n", (unsigned long long)fnv(img, n * 4));
  for (int i = 0; i < 6; i++) printf("img[%d] = %a\n", i * 5003, img[i * 5003]);
  return 0;
}
