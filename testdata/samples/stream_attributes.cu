// Stream and launch attributes as cuda-samples' simpleAttributes uses them
// (an L2 access-policy window on a stream, the persisting-L2 limit), and
// cudaLaunchKernelEx with attributes: what the GPU reports and which
// values it refuses.
#include <cstdio>

#define SHOW(call) printf("%-60s %d\n", #call, (int)(call))

__global__ void scale(int *p, int n, int f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= f;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int v107 = -1, v108 = -1;
  cudaDeviceGetAttribute(&v107, cudaDevAttrMaxPersistingL2CacheSize, 0);
  cudaDeviceGetAttribute(&v108, cudaDevAttrMaxAccessPolicyWindowSize, 0);
  printf("l2CacheSize %d persistingL2CacheMaxSize %d accessPolicyMaxWindowSize %d attrs %d %d\n", prop.l2CacheSize,
         prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize, v107, v108);
  printf("sizes window %zu value %zu attribute %zu config %zu\n", sizeof(cudaAccessPolicyWindow),
         sizeof(cudaLaunchAttributeValue), sizeof(cudaLaunchAttribute), sizeof(cudaLaunchConfig_t));
  printf("ids %d %d %d %d %d %d %d %d\n", (int)cudaStreamAttributeAccessPolicyWindow,
         (int)cudaStreamAttributeSynchronizationPolicy, (int)cudaStreamAttributePriority,
         (int)cudaLaunchAttributeCooperative, (int)cudaLaunchAttributeClusterDimension,
         (int)cudaLaunchAttributeProgrammaticStreamSerialization, (int)cudaLaunchAttributeProgrammaticEvent,
         (int)cudaLaunchAttributeMemSyncDomain);

  size_t lim = 1;
  SHOW(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
  printf("persisting limit %zu\n", lim);
  SHOW(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize));
  SHOW(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
  printf("persisting limit %zu\n", lim);
  SHOW(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 4096));
  SHOW(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
  printf("persisting limit %zu\n", lim);

  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamAttrValue v;
  memset(&v, 0x5a, sizeof v);
  SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  printf("fresh window %p %zu %g %d %d\n", v.accessPolicyWindow.base_ptr, v.accessPolicyWindow.num_bytes,
         v.accessPolicyWindow.hitRatio, (int)v.accessPolicyWindow.hitProp, (int)v.accessPolicyWindow.missProp);
  memset(&v, 0x5a, sizeof v);
  SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
  printf("fresh sync policy %d\n", (int)v.syncPolicy);

  const int n = 1000;
  int *d, h[n];
  cudaMalloc(&d, n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);

  cudaStreamAttrValue w;
  memset(&w, 0, sizeof w);
  w.accessPolicyWindow.base_ptr = d;
  w.accessPolicyWindow.num_bytes = n * sizeof(int);
  w.accessPolicyWindow.hitRatio = 0.6f;
  w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w));
  memset(&v, 0, sizeof v);
  SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  printf("window same ptr %d bytes %zu hit %g %d %d\n", v.accessPolicyWindow.base_ptr == (void *)d,
         v.accessPolicyWindow.num_bytes, v.accessPolicyWindow.hitRatio, (int)v.accessPolicyWindow.hitProp,
         (int)v.accessPolicyWindow.missProp);
  cudaStreamAttrValue bad = w;
  bad.accessPolicyWindow.hitRatio = 1.5f;
  SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad));
  bad = w;
  bad.accessPolicyWindow.num_bytes = (size_t)prop.accessPolicyMaxWindowSize + 1;
  SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad));
  cudaGetLastError();
  cudaStreamAttrValue sp;
  memset(&sp, 0, sizeof sp);
  sp.syncPolicy = cudaSyncPolicyBlockingSync;
  SHOW(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &sp));
  memset(&v, 0, sizeof v);
  SHOW(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
  printf("sync policy %d\n", (int)v.syncPolicy);
  cudaStream_t s2;
  cudaStreamCreate(&s2);
  SHOW(cudaStreamCopyAttributes(s2, s));
  memset(&v, 0, sizeof v);
  SHOW(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &v));
  printf("copied window bytes %zu hit %g\n", v.accessPolicyWindow.num_bytes, v.accessPolicyWindow.hitRatio);
  SHOW(cudaCtxResetPersistingL2Cache());

  scale<<<(n + 255) / 256, 256, 0, s>>>(d, n, 2);

  cudaLaunchAttribute at[3];
  memset(at, 0, sizeof at);
  at[0].id = cudaLaunchAttributeAccessPolicyWindow;
  at[0].val = w;
  at[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[1].val.programmaticStreamSerializationAllowed = 1;
  at[2].id = cudaLaunchAttributePriority;
  at[2].val.priority = -1;
  cudaLaunchConfig_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cfg.stream = s;
  cfg.attrs = at;
  cfg.numAttrs = 3;
  SHOW(cudaLaunchKernelEx(&cfg, scale, d, n, 3));
  at[0].id = cudaLaunchAttributeCooperative;
  at[0].val.cooperative = 1;
  cfg.numAttrs = 1;
  SHOW(cudaLaunchKernelEx(&cfg, scale, d, n, 5));
  SHOW(cudaStreamSynchronize(s));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("h[1] %d h[999] %d sum %lld\n", h[1], h[999], sum);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
