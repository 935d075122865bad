// Host side of mathref.cu: deterministic inputs, kernel launches, the results file.
//
// File format (little-endian):
//   "WSLDREF1", u32 record count, then per record:
//   u16 name length, name, u8 nargs, arg type letters, u8 nrets, result type letters,
//   u32 n, then each argument's n values, then each result's n values.
// Type letters: f float, d double, i int, u unsigned int, l long long,
// L unsigned long long, h unsigned short (sizes 4 8 4 4 8 8 2).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#ifndef LOCAL_CHECK
#include <cuda_runtime.h>
#else
enum cudaError_t { cudaSuccess };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
cudaError_t cudaMalloc(void**, size_t);
cudaError_t cudaFree(void*);
cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
const char* cudaGetErrorString(cudaError_t);
#endif

struct Entry {
  const char* name;
  const char* args;
  const char* rets;
  void (*launch)(void** bufs, int n);
};

static uint64_t g_rng;
static uint64_t next64() {  // splitmix64
  uint64_t z = (g_rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static double unit() { return (next64() >> 11) * (1.0 / 9007199254740992.0); }

static int tsize(char t) {
  switch (t) {
    case 'f': case 'i': case 'u': return 4;
    case 'd': case 'l': case 'L': return 8;
    case 'h': return 2;
  }
  return 0;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static std::vector<uint64_t> special_f32() {
  std::vector<uint64_t> v;
  const uint32_t raw[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                          0x7f800001u, 0x7fa12345u, 0x00000001u, 0x80000001u, 0x00000002u, 0x00400000u,
                          0x007fffffu, 0x807fffffu, 0x00800000u, 0x80800000u, 0x00800001u, 0x7f7fffffu,
                          0xff7fffffu, 0x3f7fffffu, 0x3f800001u, 0xbf7fffffu, 0x33800000u, 0x34000000u};
  for (uint32_t r : raw) v.push_back(r);
  const double vals[] = {1, -1, 0.5, -0.5, 2, -2, 1.5, -1.5, 3, -3, 10, -10, 100, 0.1, -0.1, 1e-10, 1e-20,
                         1e-30, 1e-38, 1e10, 1e20, 1e30, 1e38, -1e30, 0.7, 0.9999, 1.0001, 0.25, 0.75, 4, 5, 6,
                         7, 8, 9, 2.5, 3.5, -2.5, 88.72, 88.7228394, 89, 90, -87.33, -87.34, -103.97, -104, -150,
                         127, 128, 129, -126, -149, -150, -151, 38.5, 38.6, -37.9, -45, -46, 1e5, 105615, 105616,
                         48039, 1e6, 1e7, 16777216, 16777217, 8388608, 8388609, 4194304.5, 3.14159265, 6.2831853,
                         1.57079633, 0.785398163, 1e-4, 1e-3, 0.01, 0.3, 0.45, 0.55, 0.6, 0.9, 0.99, 1.1, 1.2,
                         0.125, 0.0625, 9.5, 10.5, 20, 30, 50, 1000, 4096, -0.75, -0.25, -0.9, -0.99, -0.999999,
                         -1.000001, 0.999999, 1.000001, 171.6, 35.04, 35.05, -35, -34.5, -0.000001, 0.000001,
                         7.5, 8.5, 9.9, 15.5, 33.5, 40.5, 41.5, 0.477, 0.478, 1.0e-5, 2.0e-5, 1.0e-7, 0.6931472,
                         1.0986123, 2.302585, 43.5, 44.0, -10.5, -20.5, -40.5, -100.5, 6.5, 6.7, -6.7};
  for (double d : vals) v.push_back(fbits((float)d));
  for (int k = 1; k <= 24; k++) {  // near multiples of pi/4
    uint32_t b = fbits((float)(k * M_PI / 4));
    for (int d = -2; d <= 2; d++) v.push_back(b + d), v.push_back((b + d) | 0x80000000u);
  }
  const double big[] = {M_PI * 1024, M_PI * 65536, M_PI * 1e6, 1.2e12, 3.3e20, 8.1e35};
  for (double d : big) v.push_back(fbits((float)d)), v.push_back(fbits((float)d) + 1);
  return v;
}

static std::vector<uint64_t> special_f64() {
  std::vector<uint64_t> v;
  const uint64_t raw[] = {0, 0x8000000000000000ULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
                          0x7ff8000000000000ULL, 0xfff8000000000000ULL, 0x7ff0000000000001ULL,
                          0x7ff4000000012345ULL, 1, 0x8000000000000001ULL, 2, 0x0008000000000000ULL,
                          0x000fffffffffffffULL, 0x800fffffffffffffULL, 0x0010000000000000ULL,
                          0x8010000000000000ULL, 0x0010000000000001ULL, 0x7fefffffffffffffULL,
                          0xffefffffffffffffULL, 0x3fefffffffffffffULL, 0x3ff0000000000001ULL,
                          0xbfefffffffffffffULL, 0x3ca0000000000000ULL, 0x3cb0000000000000ULL};
  for (uint64_t r : raw) v.push_back(r);
  const double vals[] = {1, -1, 0.5, -0.5, 2, -2, 1.5, -1.5, 3, -3, 10, -10, 100, 0.1, -0.1, 1e-10, 1e-20, 1e-100,
                         1e-300, 1e-310, 1e10, 1e20, 1e100, 1e300, -1e300, 0.7, 0.9999, 1.0001, 0.25, 0.75, 4, 5,
                         2.5, 3.5, -2.5, 709.78, 709.782712893384, 710, -708.39, -708.4, -744.44, -745.14, -746,
                         1023, 1024, 1025, -1022, -1074, -1075, 1e5, 1e6, 1e15, 9007199254740992.0,
                         9007199254740993.0, 4503599627370496.5, 3.141592653589793, 6.283185307179586,
                         1.5707963267948966, 0.7853981633974483, 1e-4, 0.01, 0.3, 0.45, 0.55, 0.6, 0.9, 0.99,
                         0.125, 9.5, 10.5, 20, 30, 50, 1000, -0.75, -0.25, -0.9, -0.99, -0.9999999999,
                         0.9999999999, 1.0000000001, 171.62, 171.7, 26.55, 27.3, -27, -26.5, -1e-9, 1e-9, 7.5,
                         8.5, 15.5, 33.5, 0.477, 0.478, 0.6931471805599453, 2.302585092994046, -10.5, -20.5,
                         -170.5, -171.5, -100.5, 6.5, 22.5, 38.5, 2.0e-300};
  for (double d : vals) v.push_back(dbits(d));
  for (int k = 1; k <= 24; k++) {
    uint64_t b = dbits(k * M_PI / 4);
    for (int d = -2; d <= 2; d++) v.push_back(b + d), v.push_back((b + d) | 0x8000000000000000ULL);
  }
  const double big[] = {M_PI * 1024, M_PI * 65536, M_PI * 1e6, 1.2e12, 3.3e20, 8.1e35, 5.2e100, 1.7e300};
  for (double d : big) v.push_back(dbits(d)), v.push_back(dbits(d) + 1);
  return v;
}

static uint64_t rand_f32() {
  uint64_t r = next64();
  switch (r % 8) {
    case 0: return (uint32_t)(r >> 32);
    case 1: case 2: case 3: {
      int e = (int)((r >> 8) % 61) - 30;
      uint32_t m = (uint32_t)(r >> 32) & 0x7fffff;
      return ((uint32_t)((r >> 16) & 1) << 31) | ((uint32_t)(e + 127) << 23) | m;
    }
    case 4: { int e = (int)((r >> 8) % 254) + 1; return ((uint32_t)((r >> 16) & 1) << 31) | ((uint32_t)e << 23) | ((uint32_t)(r >> 32) & 0x7fffff); }
    case 5: return fbits((float)(unit() * 20 - 10));
    case 6: return fbits((float)(unit() * 2 - 1));
    default: {
      int k = (int)((r >> 8) % 401) - 200;
      int32_t d = (int32_t)((r >> 20) % 7) - 3;
      if ((r >> 40) & 1) return fbits((float)(k * M_PI / 4)) + d;
      return fbits((float)(k * 0.5)) + d;
    }
  }
}

static uint64_t rand_f64() {
  uint64_t r = next64();
  uint64_t m = next64() & 0xfffffffffffffULL;
  switch (r % 8) {
    case 0: return next64();
    case 1: case 2: case 3: {
      int e = (int)((r >> 8) % 121) - 60;
      return (((r >> 16) & 1) << 63) | ((uint64_t)(e + 1023) << 52) | m;
    }
    case 4: { int e = (int)((r >> 8) % 2046) + 1; return (((r >> 16) & 1) << 63) | ((uint64_t)e << 52) | m; }
    case 5: return dbits(unit() * 20 - 10);
    case 6: return dbits(unit() * 2 - 1);
    default: {
      int k = (int)((r >> 8) % 401) - 200;
      int64_t d = (int64_t)((r >> 20) % 7) - 3;
      if ((r >> 40) & 1) return dbits(k * M_PI / 4) + d;
      return dbits(k * 0.5) + d;
    }
  }
}

// rand_int: small exponents for ldexp-like functions, orders for Bessel, otherwise wide.
static uint64_t rand_int(const std::string& name, char t) {
  uint64_t r = next64();
  if (name.find("ldexp") != std::string::npos || name.find("scalbn") != std::string::npos)
    return (uint32_t)((int32_t)(r % 601) - 300);
  if (name.find("powi") != std::string::npos) return (uint32_t)((int32_t)(r % 41) - 20);
  if (name == "__nv_jnf" || name == "__nv_ynf" || name == "__nv_jn" || name == "__nv_yn")
    return (uint32_t)((int32_t)(r % 14) - 2);
  int sh = (int)((r >> 58) % (t == 'l' || t == 'L' ? 64 : 32));
  uint64_t v = next64() >> sh;
  if (r & 1) v = ~v + 1;
  switch (t) {
    case 'i': case 'u': return (uint32_t)v;
    case 'h': return (uint16_t)v;
  }
  return v;
}

static std::vector<uint64_t> special_int(const std::string& name, char t) {
  if (name.find("ldexp") != std::string::npos || name.find("scalbn") != std::string::npos || name.find("powi") != std::string::npos)
    return {0, 1, 2, 3, (uint32_t)-1, (uint32_t)-2, 127, 128, 149, 150, 254, 255, 277, 278, (uint32_t)-126,
            (uint32_t)-149, (uint32_t)-150, 1023, 1024, 2098, (uint32_t)-1074, (uint32_t)-1075,
            0x7fffffffu, 0x80000000u};
  if (name == "__nv_jnf" || name == "__nv_ynf" || name == "__nv_jn" || name == "__nv_yn")
    return {0, 1, 2, 5, (uint32_t)-1};
  if (t == 'h') return {0, 1, 0x3c00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x03ff, 0x8001, 0x7bff, 0x8000};
  if (t == 'l' || t == 'L')
    return {0, 1, ~0ULL, 0x8000000000000000ULL, 0x7fffffffffffffffULL, (1ULL << 53) + 1, (1ULL << 24) + 1,
            (1ULL << 63) + 1, 0xffffffffffULL, 12345};
  return {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00ffffffu, 0x01000001u, 2, 3, 0x12345678u, 0x00800000u};
}

static std::vector<uint64_t> specials(const std::string& name, char t) {
  if (t == 'f') return special_f32();
  if (t == 'd') return special_f64();
  return special_int(name, t);
}
static uint64_t rand_of(const std::string& name, char t) {
  if (t == 'f') return rand_f32();
  if (t == 'd') return rand_f64();
  return rand_int(name, t);
}

static bool is_trivial(const std::string& n) {
  static const char* pats[] = {"_rn", "_rz", "_ru", "_rd", "as_", "2float", "2double", "2int", "2uint", "2ll",
                               "2ull", "2hiint", "2loint", "fabs", "copysign", "fmin", "fmax", "floor", "ceil",
                               "trunc", "round", "rint", "isnan", "isinf", "finite", "signbit", "saturate",
                               "fdim", "nextafter", "ilogb", "logb", "frexp", "ldexp", "scalbn", "modf", "half"};
  for (const char* p : pats)
    if (n.find(p) != std::string::npos) return true;
  return false;
}

// inputs: specials (one-dimensional per argument, crossed for 2 args over a shorter list), then random.
static int make_inputs(const Entry& e, int nrand, std::vector<std::vector<uint64_t>>& in) {
  std::string name = e.name;
  int na = strlen(e.args);
  bool allint = true;
  for (int k = 0; k < na; k++)
    if (e.args[k] == 'f' || e.args[k] == 'd') allint = false;
  if (is_trivial(name) || allint) nrand /= 4;
  in.assign(na, {});
  if (na == 1) {
    in[0] = specials(name, e.args[0]);
  } else {
    std::vector<std::vector<uint64_t>> sp(na);
    for (int k = 0; k < na; k++) {
      sp[k] = specials(name, e.args[k]);
      if (sp[k].size() > 40 && na == 2) sp[k].resize(40);
      if (sp[k].size() > 12 && na > 2) sp[k].resize(12);
    }
    if (na == 2) {
      for (auto x : sp[0]) for (auto y : sp[1]) in[0].push_back(x), in[1].push_back(y);
    } else {
      for (size_t j = 0; j < sp[0].size() * 8; j++)
        for (int k = 0; k < na; k++) in[k].push_back(sp[k][(j * (k * 7 + 1) + k) % sp[k].size()]);
    }
  }
  bool powlike = name.find("pow") != std::string::npos;
  for (int j = 0; j < nrand; j++) {
    for (int k = 0; k < na; k++) {
      uint64_t v = rand_of(name, e.args[k]);
      if (powlike && k == 1 && (next64() & 1)) {  // integers and half-integers as exponents
        double y = (double)((int64_t)(next64() % 65) - 32) * ((next64() & 1) ? 0.5 : 1);
        v = e.args[k] == 'f' ? fbits((float)y) : dbits(y);
      }
      if (powlike && k == 0 && (next64() % 4) == 0) {  // bases near 1
        double x = 1 + ((double)(int64_t)(next64() % 2001) - 1000) * 1e-6;
        v = e.args[k] == 'f' ? fbits((float)x) : dbits(x);
      }
      in[k].push_back(v);
    }
  }
  return (int)in[0].size();
}

static void put(std::vector<uint8_t>& out, uint64_t v, int size) {
  for (int k = 0; k < size; k++) out.push_back((uint8_t)(v >> (8 * k)));
}

// run_all: argv = OUTFILE NRAND SEED FILTER (all | f32: only functions with an f32 and no f64 in the signature | f64: with an f64).
static int run_all(const Entry* es, int count, int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s OUT NRAND SEED all|f32\n", argv[0]);
    return 2;
  }
  int nrand = atoi(argv[2]);
  g_rng = strtoull(argv[3], nullptr, 0);
  std::string filter = argv[4];
  std::vector<uint8_t> out;
  out.insert(out.end(), {'W', 'S', 'L', 'D', 'R', 'E', 'F', '1'});
  put(out, 0, 4);
  uint32_t nrec = 0;
  int failures = 0;
  for (int i = 0; i < count; i++) {
    const Entry& e = es[i];
    std::string sig = std::string(e.args) + e.rets;
    if (filter == "f64" && sig.find('d') == std::string::npos) continue;
    if (filter == "f32" && (sig.find('f') == std::string::npos || sig.find('d') != std::string::npos)) continue;
    std::vector<std::vector<uint64_t>> in;
    int n = make_inputs(e, nrand, in);
    int na = strlen(e.args), nr = strlen(e.rets);
    std::vector<void*> bufs(na + nr);
    std::vector<std::vector<uint8_t>> host(na + nr);
    for (int k = 0; k < na + nr; k++) {
      char t = k < na ? e.args[k] : e.rets[k - na];
      host[k].resize((size_t)n * tsize(t));
      if (k < na)
        for (int j = 0; j < n; j++) memcpy(&host[k][(size_t)j * tsize(t)], &in[k][j], tsize(t));
      cudaMalloc(&bufs[k], host[k].size());
      if (k < na) cudaMemcpy(bufs[k], host[k].data(), host[k].size(), cudaMemcpyHostToDevice);
    }
    e.launch(bufs.data(), n);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaGetLastError();
    if (err != cudaSuccess) {
      fprintf(stderr, "%s: %s\n", e.name, cudaGetErrorString(err));
      failures++;
    } else {
      for (int k = na; k < na + nr; k++) cudaMemcpy(host[k].data(), bufs[k], host[k].size(), cudaMemcpyDeviceToHost);
      put(out, strlen(e.name), 2);
      out.insert(out.end(), e.name, e.name + strlen(e.name));
      put(out, na, 1);
      out.insert(out.end(), e.args, e.args + na);
      put(out, nr, 1);
      out.insert(out.end(), e.rets, e.rets + nr);
      put(out, n, 4);
      for (int k = 0; k < na + nr; k++) out.insert(out.end(), host[k].begin(), host[k].end());
      nrec++;
    }
    for (void* b : bufs) cudaFree(b);
  }
  memcpy(&out[8], &nrec, 4);
  FILE* f = fopen(argv[1], "wb");
  if (!f || fwrite(out.data(), 1, out.size(), f) != out.size()) {
    perror(argv[1]);
    return 1;
  }
  fclose(f);
  fprintf(stderr, "%s: %u records, %zu bytes, %d failures\n", argv[1], nrec, out.size(), failures);
  return failures ? 1 : 0;
}
