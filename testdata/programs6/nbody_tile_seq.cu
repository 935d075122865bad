// nbody_tile with its inputs drawn in a sequenced order (nbody_tile draws
// them as make_float4 arguments, whose order C++ leaves unspecified: gcc,
// nvcc's host compiler, evaluates them right to left, clang left to right).
// An n-body step in the style of the GPU Gems chapter: float4 positions
// (w = mass), shared-memory tiles of blockDim bodies, rsqrtf with a
// softening term, an unrolled inner loop, leapfrog integration; three steps.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define SOFTENING2 0.01f

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
  float3 r;
  r.x = bj.x - bi.x; r.y = bj.y - bi.y; r.z = bj.z - bi.z;
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING2;
  float invDist = rsqrtf(distSqr);
  float invDistCube = invDist * invDist * invDist;
  float s = bj.w * invDistCube;
  ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
  return ai;
}

__global__ void integrate(float4* __restrict__ newPos, float4* __restrict__ vel, const float4* __restrict__ oldPos, float dt, int n) {
  extern __shared__ float4 shPos[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 myPos = oldPos[i];
  float3 acc = {0.0f, 0.0f, 0.0f};
  for (int tile = 0; tile < n / blockDim.x; tile++) {
    shPos[threadIdx.x] = oldPos[tile * blockDim.x + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < blockDim.x; j++) acc = bodyBodyInteraction(myPos, shPos[j], acc);
    __syncthreads();
  }
  float4 v = vel[i];
  v.x += acc.x * dt; v.y += acc.y * dt; v.z += acc.z * dt;
  v.x *= 0.999f; v.y *= 0.999f; v.z *= 0.999f;
  myPos.x += v.x * dt; myPos.y += v.y * dt; myPos.z += v.z * dt;
  newPos[i] = myPos;
  vel[i] = v;
}

static unsigned lcg_state = 1u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float frand() { return (float)((int)(lcg() >> 9) - (1 << 22)) * (1.0f / (1 << 22)); }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int n = 1024, bs = 128;
  float4 *hp = (float4*)malloc(n * 16), *hv = (float4*)malloc(n * 16);
  for (int i = 0; i < n; i++) {
    float px = frand() * 4.0f, py = frand() * 4.0f, pz = frand() * 4.0f, pw = 0.5f + (frand() + 1.0f) * 0.25f;
    float vx = frand() * 0.125f, vy = frand() * 0.125f, vz = frand() * 0.125f;
    hp[i] = make_float4(px, py, pz, pw);
    hv[i] = make_float4(vx, vy, vz, 0.0f);
  }
  float4 *p0, *p1, *v;
  CHECK(cudaMalloc(&p0, n * 16)); CHECK(cudaMalloc(&p1, n * 16)); CHECK(cudaMalloc(&v, n * 16));
  CHECK(cudaMemcpy(p0, hp, n * 16, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(v, hv, n * 16, cudaMemcpyHostToDevice));
  for (int step = 0; step < 3; step++) {
    integrate<<<n / bs, bs, bs * sizeof(float4)>>>(p1, v, p0, 0.01f, n);
    CHECK(cudaGetLastError());
    float4* t = p0; p0 = p1; p1 = t;
    CHECK(cudaMemcpy(hp, p0, n * 16, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hv, v, n * 16, cudaMemcpyDeviceToHost));
    printf("step %d pos fnv %08x vel fnv %08x p[0] %a %a %a v[513] %a %a %a\n", step, fnv(hp, n * 16), fnv(hv, n * 16), hp[0].x, hp[0].y, hp[0].z,
           hv[513].x, hv[513].y, hv[513].z);
  }
  return 0;
}
