// Rodinia-style backpropagation for a two-layer perceptron with a wide
// input layer: the forward kernel has 16x16 blocks, each covering 16 input
// units, multiplies inputs by weights in shared memory and sums the
// products down the block's rows with a power-of-two tree (powf steps, as
// the benchmark writes it); the host adds the per-block partial sums,
// squashes, computes the output and the errors, and the adjust kernel
// updates the weights with momentum.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>

static uint32_t seed = 555u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

// input: in+1 values (index 0 is the bias unit); weights: (in+1) x (hid+1), row-major
__global__ void layer_forward(const float *input, const float *weights, float *partial, int in, int hid) {
  __shared__ float node[HEIGHT];
  __shared__ float w[HEIGHT][WIDTH];
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * by + ty + 1;                 // input unit
  int index = (hid + 1) * row + tx + 1;           // its weight to hidden unit tx+1
  if (tx == 0) node[ty] = input[row];
  __syncthreads();
  w[ty][tx] = weights[index];
  __syncthreads();
  w[ty][tx] = w[ty][tx] * node[ty];
  __syncthreads();
  for (int i = 1; i <= 4; i++) {
    int step = (int)powf(2.0f, (float)i);
    if (ty % step == 0) w[ty][tx] = w[ty][tx] + w[ty + step / 2][tx];
    __syncthreads();
  }
  if (ty == 0) partial[by * hid + tx] = w[0][tx];
}

__global__ void adjust_weights(const float *delta, int hid, const float *ly, int in, float *w, float *oldw) {
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * by + ty + 1;
  int index = (hid + 1) * row + tx + 1;
  float dw = ETA * delta[tx + 1] * ly[row] + MOMENTUM * oldw[index];
  w[index] += dw;
  oldw[index] = dw;
  if (by == 0 && ty == 0) { // the bias row
    int bias = tx + 1;
    float db = ETA * delta[tx + 1] + MOMENTUM * oldw[bias];
    w[bias] += db;
    oldw[bias] = db;
  }
}

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

int main() {
  const int in = 16384, hid = 16, blocks = in / HEIGHT;
  size_t wbytes = (size_t)(in + 1) * (hid + 1) * sizeof(float);
  float *input = (float *)malloc((in + 1) * sizeof(float));
  float *w = (float *)malloc(wbytes), *oldw = (float *)calloc((in + 1) * (hid + 1), sizeof(float));
  float hw[hid + 1], target = 0.1f;
  input[0] = 1.0f;
  for (int i = 1; i <= in; i++) input[i] = frand();
  for (int i = 0; i < (in + 1) * (hid + 1); i++) w[i] = (frand() - 0.5f) * 0.02f;
  for (int j = 0; j <= hid; j++) hw[j] = frand() - 0.5f;
  float *d_in, *d_w, *d_oldw, *d_part, *d_delta;
  CHECK(cudaMalloc(&d_in, (in + 1) * sizeof(float)));
  CHECK(cudaMalloc(&d_w, wbytes)); CHECK(cudaMalloc(&d_oldw, wbytes));
  CHECK(cudaMalloc(&d_part, blocks * hid * sizeof(float)));
  CHECK(cudaMalloc(&d_delta, (hid + 1) * sizeof(float)));
  CHECK(cudaMemcpy(d_in, input, (in + 1) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, w, wbytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_oldw, oldw, wbytes, cudaMemcpyHostToDevice));
  float *part = (float *)malloc(blocks * hid * sizeof(float));
  dim3 grid(1, blocks), block(WIDTH, HEIGHT);
  for (int epoch = 0; epoch < 2; epoch++) {
    layer_forward<<<grid, block>>>(d_in, d_w, d_part, in, hid);
    CHECK(cudaMemcpy(part, d_part, blocks * hid * sizeof(float), cudaMemcpyDeviceToHost));
    float hidden[hid + 1];
    hidden[0] = 1.0f;
    for (int j = 1; j <= hid; j++) {
      float sum = 0.0f;
      for (int b = 0; b < blocks; b++) sum += part[b * hid + j - 1];
      hidden[j] = squash(sum + w[j]); // bias weight, from the host copy
    }
    float o = 0.0f;
    for (int j = 0; j <= hid; j++) o += hw[j] * hidden[j];
    o = squash(o);
    float od = o * (1.0f - o) * (target - o);
    float delta[hid + 1];
    delta[0] = 0;
    for (int j = 1; j <= hid; j++) delta[j] = hidden[j] * (1.0f - hidden[j]) * od * hw[j];
    for (int j = 0; j <= hid; j++) hw[j] += ETA * od * hidden[j];
    printf("epoch %d output %a error %a hidden[1] %a hidden[16] %a\n", epoch, o, od, hidden[1], hidden[16]);
    CHECK(cudaMemcpy(d_delta, delta, (hid + 1) * sizeof(float), cudaMemcpyHostToDevice));
    adjust_weights<<<grid, block>>>(d_delta, hid, d_in, in, d_w, d_oldw);
    CHECK(cudaMemcpy(w, d_w, wbytes, cudaMemcpyDeviceToHost));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(oldw, d_oldw, wbytes, cudaMemcpyDeviceToHost));
  printf("weights fnv %016llx momentum fnv %016llx\n", (unsigned long long)fnv(w, wbytes), (unsigned long long)fnv(oldw, wbytes));
  printf("partial fnv %016llx\n", (unsigned long long)fnv(part, blocks * hid * sizeof(float)));
  for (int i = 0; i < 5; i++) printf("w[%d] = %a\n", i * 50021, w[i * 50021]);
  return 0;
}
