// FlashAttention-minimal style forward: Q, K, V tiles of Bc = Br = 32 rows
// in dynamic shared memory, one thread per query row, online softmax with
// running max m and sum l kept in global memory between key tiles.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

__global__ void forward_kernel(const float* Q, const float* K, const float* V, const int N, const int d,
                               const int Tc, const int Tr, const int Bc, const int Br, const float softmax_scale,
                               float* l, float* m, float* O) {
  int tx = threadIdx.x;
  int bx = blockIdx.x; int by = blockIdx.y;  // batch and head index
  int qkv_offset = (bx * gridDim.y * N * d) + (by * N * d);
  int lm_offset = (bx * gridDim.y * N) + (by * N);
  extern __shared__ float sram[];
  int tile_size = Bc * d;
  float* Qi = sram;
  float* Kj = &sram[tile_size];
  float* Vj = &sram[tile_size * 2];
  float* S = &sram[tile_size * 3];
  for (int j = 0; j < Tc; j++) {
    for (int x = 0; x < d; x++) {
      Kj[(tx * d) + x] = K[qkv_offset + (tile_size * j) + (tx * d) + x];
      Vj[(tx * d) + x] = V[qkv_offset + (tile_size * j) + (tx * d) + x];
    }
    __syncthreads();
    for (int i = 0; i < Tr; i++) {
      for (int x = 0; x < d; x++) Qi[(tx * d) + x] = Q[qkv_offset + (tile_size * i) + (tx * d) + x];
      float row_m_prev = m[lm_offset + (Br * i) + tx];
      float row_l_prev = l[lm_offset + (Br * i) + tx];
      float row_m = -INFINITY;
      for (int y = 0; y < Bc; y++) {
        float sum = 0;
        for (int x = 0; x < d; x++) sum += Qi[(tx * d) + x] * Kj[(y * d) + x];
        sum *= softmax_scale;
        S[(Bc * tx) + y] = sum;
        if (sum > row_m) row_m = sum;
      }
      float row_l = 0;
      for (int y = 0; y < Bc; y++) {
        S[(Bc * tx) + y] = __expf(S[(Bc * tx) + y] - row_m);
        row_l += S[(Bc * tx) + y];
      }
      float row_m_new = max(row_m_prev, row_m);
      float row_l_new = (__expf(row_m_prev - row_m_new) * row_l_prev) + (__expf(row_m - row_m_new) * row_l);
      for (int x = 0; x < d; x++) {
        float pv = 0;
        for (int y = 0; y < Bc; y++) pv += S[(Bc * tx) + y] * Vj[(y * d) + x];
        O[qkv_offset + (tile_size * i) + (tx * d) + x] = (1 / row_l_new) *
            ((row_l_prev * __expf(row_m_prev - row_m_new) * O[qkv_offset + (tile_size * i) + (tx * d) + x]) +
             (__expf(row_m - row_m_new) * pv));
      }
      m[lm_offset + (Br * i) + tx] = row_m_new;
      l[lm_offset + (Br * i) + tx] = row_l_new;
    }
    __syncthreads();
  }
}

// reference: naive attention, one thread per (b, h, query row), expf
__global__ void naive_attention(const float* Q, const float* K, const float* V, int N, int d, float scale, float* O) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int bh = blockIdx.y;
  if (row >= N) return;
  const float* q = Q + (size_t)bh * N * d + row * d;
  float mx = -INFINITY;
  for (int k = 0; k < N; k++) { float s = 0; for (int x = 0; x < d; x++) s += q[x] * K[(size_t)bh * N * d + k * d + x]; mx = fmaxf(mx, s * scale); }
  float den = 0;
  for (int k = 0; k < N; k++) { float s = 0; for (int x = 0; x < d; x++) s += q[x] * K[(size_t)bh * N * d + k * d + x]; den += expf(s * scale - mx); }
  for (int x = 0; x < d; x++) {
    float acc = 0;
    for (int k = 0; k < N; k++) {
      float s = 0; for (int y = 0; y < d; y++) s += q[y] * K[(size_t)bh * N * d + k * d + y];
      acc += expf(s * scale - mx) / den * V[(size_t)bh * N * d + k * d + x];
    }
    O[(size_t)bh * N * d + row * d + x] = acc;
  }
}

static unsigned lcg_state = 4242u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int B = 2, nh = 2, N = 64, d = 32;
  const int Bc = 32, Br = 32;
  const int Tc = (N + Bc - 1) / Bc, Tr = (N + Br - 1) / Br;
  const float softmax_scale = 1.0f / sqrtf((float)d);
  size_t total = (size_t)B * nh * N * d;
  float *hQ = (float*)malloc(total * 4), *hK = (float*)malloc(total * 4), *hV = (float*)malloc(total * 4);
  for (size_t i = 0; i < total; i++) { hQ[i] = frand(); hK[i] = frand(); hV[i] = frand(); }
  float *Q, *K, *V, *O, *O2, *l, *m;
  CHECK(cudaMalloc(&Q, total * 4)); CHECK(cudaMalloc(&K, total * 4)); CHECK(cudaMalloc(&V, total * 4));
  CHECK(cudaMalloc(&O, total * 4)); CHECK(cudaMalloc(&O2, total * 4));
  CHECK(cudaMalloc(&l, B * nh * N * 4)); CHECK(cudaMalloc(&m, B * nh * N * 4));
  CHECK(cudaMemcpy(Q, hQ, total * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(K, hK, total * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(V, hV, total * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(O, 0, total * 4)); CHECK(cudaMemset(l, 0, B * nh * N * 4));
  float* hm = (float*)malloc(B * nh * N * 4);
  for (int i = 0; i < B * nh * N; i++) hm[i] = -INFINITY;
  CHECK(cudaMemcpy(m, hm, B * nh * N * 4, cudaMemcpyHostToDevice));
  const int sram_size = (3 * Bc * d * sizeof(float)) + (Bc * Br * sizeof(float));
  int max_sram;
  CHECK(cudaDeviceGetAttribute(&max_sram, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  printf("Max shared memory: %d, requested shared memory: %d\n", max_sram, sram_size);
  dim3 grid_dim(B, nh), block_dim(Bc);
  forward_kernel<<<grid_dim, block_dim, sram_size>>>(Q, K, V, N, d, Tc, Tr, Bc, Br, softmax_scale, l, m, O);
  CHECK(cudaGetLastError());
  naive_attention<<<dim3(N / 32, B * nh), 32>>>(Q, K, V, N, d, softmax_scale, O2);
  CHECK(cudaDeviceSynchronize());
  float *hO = (float*)malloc(total * 4), *hO2 = (float*)malloc(total * 4), *hl = (float*)malloc(B * nh * N * 4);
  CHECK(cudaMemcpy(hO, O, total * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hO2, O2, total * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl, l, B * nh * N * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hm, m, B * nh * N * 4, cudaMemcpyDeviceToHost));
  double maxdiff = 0;
  for (size_t i = 0; i < total; i++) { double dd = fabs((double)hO[i] - hO2[i]); if (dd > maxdiff) maxdiff = dd; }
  printf("flash O fnv %08x naive O fnv %08x l fnv %08x m fnv %08x maxdiff %a\n", fnv(hO, total * 4), fnv(hO2, total * 4),
         fnv(hl, B * nh * N * 4), fnv(hm, B * nh * N * 4), maxdiff);
  for (int i = 0; i < 5; i++) { size_t k = (i * 1237) % total; printf("O[%zu] %a %a\n", k, hO[k], hO2[k]); }
  printf("l[0] %a m[0] %a l[255] %a m[255] %a\n", hl[0], hm[0], hl[255], hm[255]);
  return 0;
}
