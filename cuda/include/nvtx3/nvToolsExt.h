/* warpsim: NVTX (NVIDIA Tools Extension, open source and header-only in
 * version 3) as a CPU run needs it: every call is a no-op, as NVTX's calls
 * are when no tool (Nsight Systems, Nsight Compute) is attached. Ranges and
 * marks do not appear in warpsim's profiles. Written for warpsim: the
 * names, types and constants are NVTX's API; nothing else is. */
#ifndef __WARPSIM_NVTX3_H
#define __WARPSIM_NVTX3_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#ifndef NVTX_VERSION
#define NVTX_VERSION 3
#endif
#define NVTX_SUCCESS 0
#define NVTX_FAIL 1
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char *ascii;
  const wchar_t *unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef nvtxEventAttributes_v2 nvtxEventAttributes_t;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

#ifdef __cplusplus
#define __WARPSIM_NVTX static inline
#else
#define __WARPSIM_NVTX static inline __attribute__((unused))
#endif

__WARPSIM_NVTX void nvtxInitialize(const void *reserved) { (void)reserved; }
__WARPSIM_NVTX void nvtxMarkEx(const nvtxEventAttributes_t *a) { (void)a; }
__WARPSIM_NVTX void nvtxMarkA(const char *m) { (void)m; }
__WARPSIM_NVTX void nvtxMarkW(const wchar_t *m) { (void)m; }
__WARPSIM_NVTX nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *a) { (void)a; return 0; }
__WARPSIM_NVTX nvtxRangeId_t nvtxRangeStartA(const char *m) { (void)m; return 0; }
__WARPSIM_NVTX nvtxRangeId_t nvtxRangeStartW(const wchar_t *m) { (void)m; return 0; }
__WARPSIM_NVTX void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
__WARPSIM_NVTX int nvtxRangePushEx(const nvtxEventAttributes_t *a) { (void)a; return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX int nvtxRangePushA(const char *m) { (void)m; return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX int nvtxRangePushW(const wchar_t *m) { (void)m; return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX void nvtxNameCategoryA(uint32_t c, const char *n) { (void)c; (void)n; }
__WARPSIM_NVTX void nvtxNameCategoryW(uint32_t c, const wchar_t *n) { (void)c; (void)n; }
__WARPSIM_NVTX void nvtxNameOsThreadA(uint32_t t, const char *n) { (void)t; (void)n; }
__WARPSIM_NVTX void nvtxNameOsThreadW(uint32_t t, const wchar_t *n) { (void)t; (void)n; }
__WARPSIM_NVTX nvtxDomainHandle_t nvtxDomainCreateA(const char *n) { (void)n; return 0; }
__WARPSIM_NVTX nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *n) { (void)n; return 0; }
__WARPSIM_NVTX void nvtxDomainDestroy(nvtxDomainHandle_t d) { (void)d; }
__WARPSIM_NVTX void nvtxDomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; }
__WARPSIM_NVTX nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; return 0; }
__WARPSIM_NVTX void nvtxDomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) { (void)d; (void)id; }
__WARPSIM_NVTX int nvtxDomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX int nvtxDomainRangePop(nvtxDomainHandle_t d) { (void)d; return NVTX_NO_PUSH_POP_TRACKING; }
__WARPSIM_NVTX nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t d, const char *s) { (void)d; (void)s; return 0; }
__WARPSIM_NVTX nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t *s) { (void)d; (void)s; return 0; }
__WARPSIM_NVTX void nvtxDomainNameCategoryA(nvtxDomainHandle_t d, uint32_t c, const char *n) { (void)d; (void)c; (void)n; }
__WARPSIM_NVTX void nvtxDomainNameCategoryW(nvtxDomainHandle_t d, uint32_t c, const wchar_t *n) { (void)d; (void)c; (void)n; }
/* The CUDA resource naming of nvToolsExtCuda.h / nvToolsExtCudaRt.h. */
__WARPSIM_NVTX void nvtxNameCudaDeviceA(int device, const char *n) { (void)device; (void)n; }
__WARPSIM_NVTX void nvtxNameCudaStreamA(void *stream, const char *n) { (void)stream; (void)n; }
__WARPSIM_NVTX void nvtxNameCudaEventA(void *event, const char *n) { (void)event; (void)n; }

#endif
