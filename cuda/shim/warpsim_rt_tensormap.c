/* warpsim runtime: tensor maps (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col). Included by
 * warpsim_rt.c.
 *
 * Fills the 128 bytes of a CUtensorMap with warpsim's own encoding, which
 * the simulated TMA instructions read: the layout and the checks are
 * internal/tmap's (keep the two in step); the checks return what the H100's
 * driver returned for the same arguments (testdata/tma/out/log.txt). */

#include "__warpsim_tensormap.h"

static int tm_elem_size(unsigned t) {
  switch (t) {
    case 0: return 1;
    case 1: case 6: case 9: return 2;
    case 4: case 5: case 8: return 8;
    default: return t <= 12 ? 4 : 0;
  }
}

static void tm_put(unsigned char *b, int off, uint64_t v, int n) {
  for (int i = 0; i < n; i++) b[off + i] = (unsigned char)(v >> (8 * i));
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  unsigned t = (unsigned)tensorDataType;
  if (!tensorMap || t > 12 || tensorRank < 1 || tensorRank > 5 || !globalDim || !boxDim || !elementStrides ||
      (tensorRank > 1 && !globalStrides))
    return CUDA_ERROR_INVALID_VALUE;
  if ((unsigned)interleave > 2 || (unsigned)swizzle > 3 || (unsigned)l2Promotion > 3 || (unsigned)oobFill > 1)
    return CUDA_ERROR_INVALID_VALUE;
  /* interleaved layouts: rank 3 to 5, a 32-byte interleave wants 32-byte aligned addresses and strides, and the
   * inner box may be wider than the swizzle span (testdata/tma/il_cases.txt) */
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && tensorRank < 3) return CUDA_ERROR_INVALID_VALUE;
  if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && t < 6) return CUDA_ERROR_INVALID_VALUE;
  uint64_t addr = (uint64_t)(uintptr_t)globalAddress;
  uint64_t align = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16;
  if (addr % align) return CUDA_ERROR_INVALID_VALUE;
  uint64_t es = (uint64_t)tm_elem_size(t);
  for (unsigned i = 0; i < tensorRank; i++) {
    if (globalDim[i] == 0 || globalDim[i] > (1ull << 32)) return CUDA_ERROR_INVALID_VALUE;
    if (boxDim[i] == 0 || boxDim[i] > 256) return CUDA_ERROR_INVALID_VALUE;
    if (elementStrides[i] == 0 || elementStrides[i] > 8) return CUDA_ERROR_INVALID_VALUE;
    if (i > 0 && (globalStrides[i - 1] % align || globalStrides[i - 1] >= (1ull << 40))) return CUDA_ERROR_INVALID_VALUE;
  }
  uint64_t inner = (uint64_t)boxDim[0] * es;
  if (inner % 16) return CUDA_ERROR_INVALID_VALUE;
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && inner > (16ull << swizzle))
    return CUDA_ERROR_INVALID_VALUE;
  unsigned char *b = (unsigned char *)tensorMap;
  memset(b, 0, 128);
  tm_put(b, 0, addr, 8);
  for (unsigned i = 0; i < 5; i++) {
    int in = i < tensorRank;
    tm_put(b, 8 + 4 * i, in ? globalDim[i] - 1 : 0, 4);
    tm_put(b, 64 + 2 * i, in ? boxDim[i] : 1, 2);
    b[74 + i] = (unsigned char)(in ? elementStrides[i] - 1 : 0);
    if (i > 0 && in) tm_put(b, 32 + 8 * (i - 1), globalStrides[i - 1], 8);
  }
  b[79] = (unsigned char)(tensorRank - 1);
  b[80] = (unsigned char)t;
  b[81] = (unsigned char)interleave;
  b[82] = (unsigned char)swizzle;
  b[83] = (unsigned char)l2Promotion;
  b[84] = (unsigned char)oobFill;
  return CUDA_SUCCESS;
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress) {
  uint64_t addr = (uint64_t)(uintptr_t)globalAddress;
  if (!tensorMap || addr % 16) return CUDA_ERROR_INVALID_VALUE;
  tm_put((unsigned char *)tensorMap, 0, addr, 8);
  return CUDA_SUCCESS;
}

/* An im2col map (internal/tmap/im2col.go, the same checks): rank 3 to 5, C, W[, H[, D]], N; the pixel box's
 * corners (W first) fit the rank's signed width (16, 8, 5 bits) and leave the box non-empty; 1 to 256 channels
 * of a multiple of 16 bytes per pixel, 1 to 1024 pixels per column (testdata/tma/im2col_cases.txt). */
CUresult cuTensorMapEncodeIm2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                                 void *globalAddress, const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
                                 const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
                                 cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                 const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                 CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                 CUtensorMapFloatOOBfill oobFill) {
  unsigned t = (unsigned)tensorDataType;
  if (!tensorMap || t > 12 || tensorRank < 3 || tensorRank > 5 || !globalDim || !globalStrides || !elementStrides ||
      !pixelBoxLowerCorner || !pixelBoxUpperCorner)
    return CUDA_ERROR_INVALID_VALUE;
  if ((unsigned)interleave > 2 || (unsigned)swizzle > 3 || (unsigned)l2Promotion > 3 || (unsigned)oobFill > 1)
    return CUDA_ERROR_INVALID_VALUE;
  if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && t < 6) return CUDA_ERROR_INVALID_VALUE;
  /* interleaved maps encode (as the driver's do) but loads through them are not simulated yet */
  uint64_t align = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16;
  uint64_t addr = (uint64_t)(uintptr_t)globalAddress;
  if (addr % align) return CUDA_ERROR_INVALID_VALUE;
  uint64_t es = (uint64_t)tm_elem_size(t);
  for (unsigned i = 0; i < tensorRank; i++) {
    if (globalDim[i] == 0 || globalDim[i] > (1ull << 32)) return CUDA_ERROR_INVALID_VALUE;
    if (elementStrides[i] == 0 || elementStrides[i] > 8) return CUDA_ERROR_INVALID_VALUE;
    if (i > 0 && (globalStrides[i - 1] % align || globalStrides[i - 1] >= (1ull << 40))) return CUDA_ERROR_INVALID_VALUE;
  }
  int lim = tensorRank == 3 ? 1 << 15 : (tensorRank == 4 ? 1 << 7 : 1 << 4);
  for (unsigned i = 0; i + 2 < tensorRank; i++) {
    int lo = pixelBoxLowerCorner[i], up = pixelBoxUpperCorner[i];
    if (lo < -lim || lo >= lim || up < -lim || up >= lim) return CUDA_ERROR_INVALID_VALUE;
    if ((int64_t)lo > (int64_t)globalDim[i + 1] - 1 + up) return CUDA_ERROR_INVALID_VALUE;
  }
  if (channelsPerPixel == 0 || channelsPerPixel > 256 || pixelsPerColumn == 0 || pixelsPerColumn > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  uint64_t inner = (uint64_t)channelsPerPixel * es;
  if (inner % 16) return CUDA_ERROR_INVALID_VALUE;
  if (swizzle != CU_TENSOR_MAP_SWIZZLE_NONE && inner > (16ull << swizzle)) return CUDA_ERROR_INVALID_VALUE;
  unsigned char *b = (unsigned char *)tensorMap;
  memset(b, 0, 128);
  tm_put(b, 0, addr, 8);
  for (unsigned i = 0; i < 5; i++) {
    int in = i < tensorRank;
    tm_put(b, 8 + 4 * i, in ? globalDim[i] - 1 : 0, 4);
    tm_put(b, 64 + 2 * i, i == 0 ? channelsPerPixel : 1, 2);
    b[74 + i] = (unsigned char)(in ? elementStrides[i] - 1 : 0);
    if (i > 0 && in) tm_put(b, 32 + 8 * (i - 1), globalStrides[i - 1], 8);
  }
  b[79] = (unsigned char)(tensorRank - 1);
  b[80] = (unsigned char)t;
  b[81] = (unsigned char)interleave;
  b[82] = (unsigned char)swizzle;
  b[83] = (unsigned char)l2Promotion;
  b[84] = (unsigned char)oobFill;
  b[85] = 1; /* im2col */
  tm_put(b, 86, channelsPerPixel, 2);
  tm_put(b, 88, pixelsPerColumn, 2);
  for (unsigned i = 0; i + 2 < tensorRank; i++) {
    tm_put(b, 90 + 2 * i, (uint64_t)(uint16_t)(int16_t)pixelBoxLowerCorner[i], 2);
    tm_put(b, 96 + 2 * i, (uint64_t)(uint16_t)(int16_t)pixelBoxUpperCorner[i], 2);
  }
  return CUDA_SUCCESS;
}
