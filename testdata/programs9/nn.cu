// ISPASS-style neural network (NN): a LeNet-like digit classifier's forward
// pass over a batch of 29x29 images, one launch per layer, one block per
// image: 6 feature maps 13x13 (5x5 kernels, stride 2), 50 maps 5x5 (5x5
// kernels over all 6 maps, stride 2), a 1250->100 fully connected layer and
// a 100->10 output layer, with the suite's scaled tanh (1.7159*tanh(2x/3))
// written as a clamped rational function. Weights and images from the LCG.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 27u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)
static void showf(const char *name, const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(float)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
static void showd(const char *name, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(double)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
#define BATCH 96

__device__ inline float act(float x) {
  x *= 0.6666667f;
  float x2 = x * x;
  float t = x * (27.0f + x2) / (27.0f + 9.0f * x2);
  t = t > 1.0f ? 1.0f : (t < -1.0f ? -1.0f : t);
  return 1.7159f * t;
}

__global__ void layer1(const float *in, const float *w, float *out) {
  int img = blockIdx.x, x = threadIdx.x, y = threadIdx.y;
  const float *p = in + img * 29 * 29;
  for (int m = 0; m < 6; m++) {
    float s = w[m * 26];
    for (int ky = 0; ky < 5; ky++)
      for (int kx = 0; kx < 5; kx++) s += w[m * 26 + 1 + ky * 5 + kx] * p[(2 * y + ky) * 29 + 2 * x + kx];
    out[(img * 6 + m) * 169 + y * 13 + x] = act(s);
  }
}

__global__ void layer2(const float *in, const float *w, float *out) {
  int img = blockIdx.x, m = blockIdx.y * 10 + threadIdx.x / 25, pos = threadIdx.x % 25, x = pos % 5, y = pos / 5;
  const float *p = in + img * 6 * 169;
  const float *wm = w + m * 151;
  float s = wm[0];
  for (int c = 0; c < 6; c++)
    for (int ky = 0; ky < 5; ky++)
      for (int kx = 0; kx < 5; kx++) s += wm[1 + c * 25 + ky * 5 + kx] * p[c * 169 + (2 * y + ky) * 13 + 2 * x + kx];
  out[img * 1250 + m * 25 + pos] = act(s);
}

__global__ void layer3(const float *in, const float *w, float *out) {
  int img = blockIdx.x, n = threadIdx.x;
  const float *wn = w + n * 1251;
  float s = wn[0];
  for (int i = 0; i < 1250; i++) s += wn[1 + i] * in[img * 1250 + i];
  out[img * 100 + n] = act(s);
}

__global__ void layer4(const float *in, const float *w, float *out) {
  int img = blockIdx.x, n = threadIdx.x;
  float s = w[n * 101];
  for (int i = 0; i < 100; i++) s += w[n * 101 + 1 + i] * in[img * 100 + i];
  out[img * 10 + n] = act(s);
}

int main() {
  int nin = BATCH * 841, nw1 = 6 * 26, nw2 = 50 * 151, nw3 = 100 * 1251, nw4 = 10 * 101;
  float *in = (float *)malloc(nin * 4), *w = (float *)malloc((nw1 + nw2 + nw3 + nw4) * 4);
  for (int b = 0; b < BATCH; b++) // strokes on a dark background
    for (int i = 0; i < 841; i++) { int y = i / 29, x = i % 29; in[b * 841 + i] = ((x * (b % 7 + 1) + y * (b % 5 + 2)) % 11 < 3) ? 1.0f : -1.0f + 0.1f * frand(); }
  for (int i = 0; i < nw1; i++) w[i] = (frand() - 0.5f) * 0.4f;
  for (int i = nw1; i < nw1 + nw2; i++) w[i] = (frand() - 0.5f) * 0.16f;
  for (int i = nw1 + nw2; i < nw1 + nw2 + nw3; i++) w[i] = (frand() - 0.5f) * 0.06f;
  for (int i = nw1 + nw2 + nw3; i < nw1 + nw2 + nw3 + nw4; i++) w[i] = (frand() - 0.5f) * 0.2f;
  float *din, *dw, *d1, *d2, *d3, *d4;
  CHECK(cudaMalloc(&din, nin * 4)); CHECK(cudaMalloc(&dw, (nw1 + nw2 + nw3 + nw4) * 4));
  CHECK(cudaMalloc(&d1, BATCH * 6 * 169 * 4)); CHECK(cudaMalloc(&d2, BATCH * 1250 * 4));
  CHECK(cudaMalloc(&d3, BATCH * 100 * 4)); CHECK(cudaMalloc(&d4, BATCH * 10 * 4));
  CHECK(cudaMemcpy(din, in, nin * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, w, (nw1 + nw2 + nw3 + nw4) * 4, cudaMemcpyHostToDevice));
  layer1<<<BATCH, dim3(13, 13)>>>(din, dw, d1);
  layer2<<<dim3(BATCH, 5), 250>>>(d1, dw + nw1, d2);
  layer3<<<BATCH, 100>>>(d2, dw + nw1 + nw2, d3);
  layer4<<<BATCH, 10>>>(d3, dw + nw1 + nw2 + nw3, d4);
  CHECK(cudaGetLastError());
  float *o1 = (float *)malloc(BATCH * 1014 * 4), *o2 = (float *)malloc(BATCH * 1250 * 4), *o4 = (float *)malloc(BATCH * 40);
  CHECK(cudaMemcpy(o1, d1, BATCH * 1014 * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(o2, d2, BATCH * 1250 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o4, d4, BATCH * 40, cudaMemcpyDeviceToHost));
  int votes[10] = {0};
  for (int b = 0; b < BATCH; b++) {
    int best = 0;
    for (int n = 1; n < 10; n++) if (o4[b * 10 + n] > o4[b * 10 + best]) best = n;
    votes[best]++;
  }
  printf("nn batch %d\n", BATCH);
  showf("layer1", o1, BATCH * 1014);
  showf("layer2", o2, BATCH * 1250);
  showf("output", o4, BATCH * 10);
  printf("classes:");
  for (int n = 0; n < 10; n++) printf(" %d", votes[n]);
  printf("\n");
  return 0;
}
