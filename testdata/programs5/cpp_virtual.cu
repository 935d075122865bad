// C++ objects in kernels: virtual functions on objects built on the device
// (placement new into global and shared memory, new/delete from the device
// heap), operator overloading, inheritance.
#include <cstdio>
#include <new>

struct Vec2 {
  float x, y;
  __host__ __device__ Vec2(float x = 0, float y = 0) : x(x), y(y) {}
  __host__ __device__ Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }
  __host__ __device__ Vec2 operator*(float s) const { return Vec2(x * s, y * s); }
  __host__ __device__ Vec2 &operator+=(const Vec2 &o) { x += o.x; y += o.y; return *this; }
  __host__ __device__ float operator[](int i) const { return i ? y : x; }
  __host__ __device__ bool operator<(const Vec2 &o) const { return x < o.x || (x == o.x && y < o.y); }
};

struct Shape {
  int id;
  __device__ Shape(int id) : id(id) {}
  __device__ virtual ~Shape() {}
  __device__ virtual float area() const = 0;
  __device__ virtual int sides() const { return 0; }
  __device__ virtual const char *name() const { return "shape"; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(int id, float w, float h) : Shape(id), w(w), h(h) {}
  __device__ float area() const override { return w * h; }
  __device__ int sides() const override { return 4; }
  __device__ const char *name() const override { return "rect"; }
};
struct Square : Rect {
  __device__ Square(int id, float s) : Rect(id, s, s) {}
  __device__ const char *name() const override { return "square"; }
};
struct Tri : Shape {
  float b, h;
  __device__ Tri(int id, float b, float h) : Shape(id), b(b), h(h) {}
  __device__ float area() const override { return 0.5f * b * h; }
  __device__ int sides() const override { return 3; }
  __device__ const char *name() const override { return "tri"; }
};
struct Circle : Shape {
  float r;
  __device__ Circle(int id, float r) : Shape(id), r(r) {}
  __device__ float area() const override { return 3.14159265f * r * r; }
};

union Slot {
  Rect r; Square s; Tri t; Circle c;
  __device__ Slot() {}
  __device__ ~Slot() {}
};

__global__ void build(Shape **objs, Slot *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = 1.f + (i % 13) * 0.25f, b = 2.f + (i % 5) * 0.5f;
  switch (i % 4) {
  case 0: objs[i] = new (&slots[i]) Rect(i, a, b); break;
  case 1: objs[i] = new (&slots[i]) Square(i, a); break;
  case 2: objs[i] = new (&slots[i]) Tri(i, a, b); break;
  default: objs[i] = new Circle(i, a); break;  // device heap
  }
}

__global__ void use(Shape **objs, float *areas, int *sides, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Shape *s = objs[i];
  areas[i] = s->area();
  sides[i] = s->sides() * 1000 + s->id;
  if (i < 6) printf("obj %d: %s area %.4f sides %d\n", s->id, s->name(), s->area(), s->sides());
}

__global__ void destroy(Shape **objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i % 4 == 3) delete objs[i];
  else objs[i]->~Shape();
}

__global__ void shared_objects(float *out) {
  __shared__ alignas(16) unsigned char buf[32 * sizeof(Tri)];
  Shape *s;
  if (threadIdx.x & 1) s = new (buf + threadIdx.x * sizeof(Tri)) Tri(threadIdx.x, threadIdx.x, 2.f);
  else s = new (buf + threadIdx.x * sizeof(Tri)) Square(threadIdx.x, (float)threadIdx.x);
  __syncthreads();
  const Shape *other = reinterpret_cast<const Shape *>(buf + (31 - threadIdx.x) * sizeof(Tri));
  Vec2 v(s->area(), other->area());
  v += Vec2(1, 2) * 0.5f;
  out[threadIdx.x] = v[0] + v[1] * (v < Vec2(100, 0) ? 1.f : -1.f);
  s->~Shape();
}

int main() {
  const int N = 1000;
  Shape **objs;
  Slot *slots;
  float *areas;
  int *sides;
  cudaMalloc(&objs, N * sizeof(Shape *));
  cudaMalloc(&slots, N * sizeof(Slot));
  cudaMalloc(&areas, N * 4);
  cudaMalloc(&sides, N * 4);
  build<<<(N + 127) / 128, 128>>>(objs, slots, N);
  use<<<(N + 127) / 128, 128>>>(objs, areas, sides, N);
  destroy<<<(N + 127) / 128, 128>>>(objs, N);
  printf("kernels: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  float ha[N];
  int hs[N];
  cudaMemcpy(ha, areas, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hs, sides, sizeof hs, cudaMemcpyDeviceToHost);
  double tot = 0;
  long long st = 0;
  for (int i = 0; i < N; i++) { tot += ha[i]; st += hs[i]; }
  printf("areas sum %a sides sum %lld area[3] %a area[997] %a\n", tot, st, ha[3], ha[997]);
  float *o;
  cudaMalloc(&o, 32 * 4);
  shared_objects<<<1, 32>>>(o);
  float ho[32];
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; i += 4) printf("%g %g %g %g\n", ho[i], ho[i + 1], ho[i + 2], ho[i + 3]);
  Vec2 hv = Vec2(1, 2) + Vec2(3, 4) * 2;
  printf("host Vec2 %g %g\n", hv.x, hv.y);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
