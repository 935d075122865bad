// Diagnostic: CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES (cudaFuncAttributes::
// constSizeBytes) for PTX modules with __constant__ data of several sizes,
// and for this program's own kernels through cudaFuncGetAttributes.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
__constant__ char c1[1];
__constant__ float c100[25];
__global__ void useNone(float *o) { o[0] = 1; }
__global__ void useC(float *o) { o[threadIdx.x] = c100[threadIdx.x % 25] + c1[0]; }
int main() {
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, useNone);
  printf("program useNone const %zu\n", a.constSizeBytes);
  cudaFuncGetAttributes(&a, useC);
  printf("program useC const %zu\n", a.constSizeBytes);
  cuInit(0);
  cudaFree(0);
  const int sizes[] = {0, 1, 4, 100, 255, 256, 257, 1000, 4096, 65536};
  for (int sz : sizes) {
    char ptx[1024];
    if (sz)
      snprintf(ptx, sizeof ptx,
               ".version 8.0\n.target sm_90\n.address_size 64\n.const .align 4 .b8 tab[%d];\n"
               ".visible .entry k(.param .u64 o) {\n .reg .b64 rd<3>; .reg .b32 r<2>;\n ld.param.u64 rd1, [o];\n"
               " ld.const.u8 r1, [tab];\n cvta.to.global.u64 rd2, rd1;\n st.global.u32 [rd2], r1;\n ret;\n}\n",
               sz);
    else
      snprintf(ptx, sizeof ptx,
               ".version 8.0\n.target sm_90\n.address_size 64\n"
               ".visible .entry k(.param .u64 o) {\n .reg .b64 rd<3>;\n ld.param.u64 rd1, [o];\n"
               " cvta.to.global.u64 rd2, rd1;\n st.global.u32 [rd2], 0;\n ret;\n}\n");
    CUmodule m;
    CUresult r = cuModuleLoadData(&m, ptx);
    CUfunction f;
    cuModuleGetFunction(&f, m, "k");
    int cs = -1, ls = -1, ss = -1;
    cuFuncGetAttribute(&cs, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f);
    cuFuncGetAttribute(&ls, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
    cuFuncGetAttribute(&ss, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    printf("ptx .const %6d bytes: load %d const %d local %d shared %d\n", sz, (int)r, cs, ls, ss);
  }
  return 0;
}
