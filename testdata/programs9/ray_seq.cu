// ISPASS-style ray tracer (RAY): one thread per pixel casts a ray into a
// scene of spheres held in __constant__, with float3 struct arithmetic in
// small inline functions, nearest-hit search, a shadow ray to a point
// light, Lambert shading, and reflections followed iteratively up to
// DEPTH bounces (the recursion written as a loop, as GPU ports do).
// Writes an RGBA8 image and the per-pixel float luminance. ray.cu with the
// scene's random draws sequenced: ray.cu draws them as the arguments of
// one call, whose order gcc (nvcc's host compiler) and clang evaluate
// differently; this file fixes gcc's order, so both builds draw one scene.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 24u;
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
#define W 256
#define H 192
#define NSPH 9
#define DEPTH 4

struct vec3 { float x, y, z; };
__device__ __host__ inline vec3 mk(float x, float y, float z) { vec3 v; v.x = x; v.y = y; v.z = z; return v; }
__device__ inline vec3 operator+(vec3 a, vec3 b) { return mk(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ inline vec3 operator-(vec3 a, vec3 b) { return mk(a.x - b.x, a.y - b.y, a.z - b.z); }
__device__ inline vec3 operator*(vec3 a, float s) { return mk(a.x * s, a.y * s, a.z * s); }
__device__ inline vec3 mul(vec3 a, vec3 b) { return mk(a.x * b.x, a.y * b.y, a.z * b.z); }
__device__ inline float dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ inline vec3 normalize(vec3 a) { return a * (1.0f / sqrtf(dot(a, a))); }

struct Sphere { vec3 c; float r; vec3 color; float refl; };
__constant__ Sphere spheres[NSPH];
__constant__ vec3 light;

// nearest hit along o + t*d (d normalized), t > 1e-3; -1 if none
__device__ int hit(vec3 o, vec3 d, float *tout) {
  int best = -1;
  float bt = 1e30f;
  for (int s = 0; s < NSPH; s++) {
    vec3 oc = o - spheres[s].c;
    float b = dot(oc, d), c = dot(oc, oc) - spheres[s].r * spheres[s].r;
    float disc = b * b - c;
    if (disc < 0.0f) continue;
    float sq = sqrtf(disc), t = -b - sq;
    if (t < 1e-3f) t = -b + sq;
    if (t > 1e-3f && t < bt) { bt = t; best = s; }
  }
  *tout = bt;
  return best;
}

__global__ void render(uchar4 *img, float *lum) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  vec3 o = mk(0.0f, 1.0f, -4.0f);
  vec3 d = normalize(mk((x - W * 0.5f) / H, (H * 0.5f - y) / H, 1.0f));
  vec3 col = mk(0, 0, 0), att = mk(1, 1, 1);
  int bounces = 0;
  for (int depth = 0; depth < DEPTH; depth++) {
    float t;
    int s = hit(o, d, &t);
    if (s < 0) { col = col + mul(att, mk(0.2f, 0.3f, 0.5f) * (0.5f + 0.5f * d.y)); break; }
    bounces++;
    vec3 p = o + d * t;
    vec3 n = normalize(p - spheres[s].c);
    vec3 l = light - p;
    float ldist = sqrtf(dot(l, l));
    l = l * (1.0f / ldist);
    float diff = dot(n, l);
    if (diff < 0.0f) diff = 0.0f;
    float st;
    if (diff > 0.0f && hit(p, l, &st) >= 0 && st < ldist) diff *= 0.25f; // in shadow
    float kd = 1.0f - spheres[s].refl;
    col = col + mul(att, spheres[s].color) * (kd * (0.1f + 0.9f * diff));
    att = mul(att, spheres[s].color) * spheres[s].refl;
    if (spheres[s].refl <= 0.0f) break;
    d = normalize(d - n * (2.0f * dot(d, n)));
    o = p;
  }
  float r = col.x > 1.0f ? 1.0f : col.x, g = col.y > 1.0f ? 1.0f : col.y, b = col.z > 1.0f ? 1.0f : col.z;
  img[y * W + x] = make_uchar4((unsigned char)(r * 255.0f), (unsigned char)(g * 255.0f), (unsigned char)(b * 255.0f), (unsigned char)bounces);
  lum[y * W + x] = 0.2126f * col.x + 0.7152f * col.y + 0.0722f * col.z;
}

int main() {
  Sphere sph[NSPH];
  sph[0].c = mk(0.0f, -1000.0f, 0.0f); sph[0].r = 999.0f; sph[0].color = mk(0.6f, 0.6f, 0.55f); sph[0].refl = 0.2f;
  for (int s = 1; s < NSPH; s++) {
    // the draws one per statement, in the order gcc evaluates the
    // arguments of ray.cu's mk(frand(), frand(), frand()): right to left
    float cz = frand() * 6.0f + 1.0f, cy = frand() * 1.5f, cx = frand() * 6.0f - 3.0f;
    sph[s].c = mk(cx, cy, cz);
    sph[s].r = 0.3f + frand() * 0.7f;
    float b = 0.3f + 0.7f * frand(), g = 0.3f + 0.7f * frand(), r = 0.3f + 0.7f * frand();
    sph[s].color = mk(r, g, b);
    sph[s].refl = (s % 3 == 0) ? 0.0f : frand() * 0.8f;
  }
  vec3 lp = mk(-4.0f, 6.0f, -3.0f);
  CHECK(cudaMemcpyToSymbol(spheres, sph, sizeof(sph)));
  CHECK(cudaMemcpyToSymbol(light, &lp, sizeof(lp)));
  uchar4 *dimg;
  float *dlum;
  CHECK(cudaMalloc(&dimg, W * H * 4)); CHECK(cudaMalloc(&dlum, W * H * 4));
  render<<<dim3(W / 16, H / 8), dim3(16, 8)>>>(dimg, dlum);
  CHECK(cudaGetLastError());
  uchar4 *img = (uchar4 *)malloc(W * H * 4);
  float *lum = (float *)malloc(W * H * 4);
  CHECK(cudaMemcpy(img, dimg, W * H * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(lum, dlum, W * H * 4, cudaMemcpyDeviceToHost));
  long hist[DEPTH + 1] = {0};
  for (int i = 0; i < W * H; i++) hist[img[i].w]++;
  printf("ray %dx%d spheres %d depth %d\n", W, H, NSPH, DEPTH);
  printf("image fnv %016llx\n", (unsigned long long)fnv(img, W * H * 4));
  printf("bounces:");
  for (int i = 0; i <= DEPTH; i++) printf(" %ld", hist[i]);
  printf("\n");
  showf("lum", lum, W * H);
  return 0;
}
