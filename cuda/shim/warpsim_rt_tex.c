/* The warpsim CUDA runtime: CUDA arrays, texture objects and surface
 * objects. Included by warpsim_rt.c (one translation unit), after the
 * allocation and copy helpers it uses.
 *
 * A CUDA array is an ordinary device allocation holding its elements row
 * by row (rows of width × element bytes, then height rows per slice, then
 * the slices: depth, layers or cubemap faces), with its shape kept here.
 * A texture or surface object is a 128-byte descriptor in a device
 * allocation of its own; its handle is that allocation's address, which
 * the engine reads at each fetch (internal/engine/tex.go documents the
 * layout; keep the two in step). */
#include "texture_types.h"

#define ARRAY_MAGIC 0x41525259
#define TEX_MAGIC 0x58455457
#define SURF_MAGIC 0x46525357

struct cudaArray {
  int magic;
  struct cudaChannelFormatDesc desc;
  struct cudaExtent extent; /* as created */
  unsigned flags;
  size_t elem, pitch, rows, slice, slices;
  uint64_t base;
};

struct warpsim_texdesc {
  uint32_t magic, res_type;
  uint64_t base, pitch, slice;
  uint32_t width, height, depth, layers;
  uint32_t flags, nchan, bits, kind, elem;
  uint32_t addr[3];
  uint32_t filter, read_mode, normalized, srgb;
  uint32_t border[4];
  uint64_t size, pad;
};
_Static_assert(sizeof(struct warpsim_texdesc) == 128, "texture descriptor is 128 bytes");

/* The objects alive, for the Get…Desc queries. */
struct tex_object {
  uint64_t handle;
  int surface;
  struct cudaResourceDesc res;
  struct cudaTextureDesc tex;
};
static struct tex_object *tex_objects;
static int ntex_objects;

/* Descriptors live in slabs of DESC_PER_SLAB, so a program that creates
 * and destroys objects in a loop does not spend one allocation (of the
 * window's few thousand) on each; a slab is freed when its last object is
 * destroyed. */
#define DESC_PER_SLAB 512
struct desc_slab { uint64_t base; int live; unsigned char used[DESC_PER_SLAB]; };
static struct desc_slab *desc_slabs;
static int ndesc_slabs;

static cudaError_t desc_alloc(uint64_t *h) {
  for (int s = 0; s < ndesc_slabs; s++) {
    struct desc_slab *sl = &desc_slabs[s];
    if (sl->live == DESC_PER_SLAB) continue;
    for (int i = 0; i < DESC_PER_SLAB; i++)
      if (!sl->used[i]) {
        sl->used[i] = 1;
        sl->live++;
        *h = sl->base + (uint64_t)i * sizeof(struct warpsim_texdesc);
        return 0;
      }
  }
  void *p = NULL;
  cudaError_t e = alloc_kind(&p, DESC_PER_SLAB * sizeof(struct warpsim_texdesc), kindDevice);
  if (e) return e;
  memset(p, 0, DESC_PER_SLAB * sizeof(struct warpsim_texdesc));
  desc_slabs = grow(desc_slabs, ndesc_slabs, sizeof *desc_slabs);
  struct desc_slab *sl = &desc_slabs[ndesc_slabs++];
  memset(sl, 0, sizeof *sl);
  sl->base = (uintptr_t)p;
  sl->used[0] = 1;
  sl->live = 1;
  *h = sl->base;
  return 0;
}

static cudaError_t desc_free(uint64_t h) {
  for (int s = 0; s < ndesc_slabs; s++) {
    struct desc_slab *sl = &desc_slabs[s];
    if (h < sl->base || h >= sl->base + DESC_PER_SLAB * sizeof(struct warpsim_texdesc)) continue;
    /* Kernels still running may use the object: wait for them, as a
     * free would, before its descriptor is cleared. */
    cudaError_t e = cudaDeviceSynchronize();
    if (e) return e;
    memset((void *)(uintptr_t)h, 0, sizeof(struct warpsim_texdesc));
    sl->used[(h - sl->base) / sizeof(struct warpsim_texdesc)] = 0;
    if (--sl->live == 0) {
      e = free_alloc((void *)(uintptr_t)sl->base, -1, NULL, 0);
      desc_slabs[s] = desc_slabs[--ndesc_slabs];
      return e;
    }
    return 0;
  }
  return set_error(cudaErrorInvalidValue);
}

static struct cudaArray *array_of(const void *a) {
  struct cudaArray *arr = (struct cudaArray *)a;
  if (!arr || arr->magic != ARRAY_MAGIC) return NULL;
  return arr;
}

/* channel_layout checks a channel description: 1, 2 or 4 channels of 8,
 * 16 or 32 bits, all alike, signed, unsigned or float (16 or 32 bits). */
static int channel_layout(const struct cudaChannelFormatDesc *d, uint32_t *nchan, uint32_t *bits, size_t *elem) {
  int b[4] = {d->x, d->y, d->z, d->w};
  int n = 0;
  while (n < 4 && b[n] > 0) n++;
  for (int i = n; i < 4; i++)
    if (b[i] != 0) return 0;
  if (n == 0 || n == 3) return 0;
  for (int i = 1; i < n; i++)
    if (b[i] != b[0]) return 0;
  if (b[0] != 8 && b[0] != 16 && b[0] != 32) return 0;
  if (d->f == cudaChannelFormatKindFloat && b[0] == 8) return 0;
  if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned && d->f != cudaChannelFormatKindFloat)
    return 0;
  *nchan = (uint32_t)n;
  *bits = (uint32_t)b[0];
  *elem = (size_t)n * (size_t)b[0] / 8;
  return 1;
}

static cudaError_t new_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent e, unsigned flags) {
  if (!array || !desc) return set_error(cudaErrorInvalidValue);
  uint32_t nchan, bits;
  size_t elem;
  if (!channel_layout(desc, &nchan, &bits, &elem)) return set_error(cudaErrorInvalidChannelDescriptor);
  if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    return set_error(cudaErrorInvalidValue);
  if (e.width == 0 || (e.height == 0 && e.depth != 0 && !(flags & cudaArrayLayered))) return set_error(cudaErrorInvalidValue);
  if ((flags & cudaArrayCubemap) && (e.width != e.height || e.depth == 0 || e.depth % 6 != 0 || (!(flags & cudaArrayLayered) && e.depth != 6)))
    return set_error(cudaErrorInvalidValue);
  if ((flags & cudaArrayLayered) && e.depth == 0) return set_error(cudaErrorInvalidValue);
  struct cudaArray *a = calloc(1, sizeof *a);
  if (!a) return set_error(cudaErrorMemoryAllocation);
  a->magic = ARRAY_MAGIC;
  a->desc = *desc;
  a->extent = e;
  a->flags = flags;
  a->elem = elem;
  a->pitch = e.width * elem;
  a->rows = e.height ? e.height : 1;
  a->slice = a->pitch * a->rows;
  a->slices = e.depth ? e.depth : 1;
  void *p = NULL;
  cudaError_t err = alloc_kind(&p, a->slice * a->slices, kindDevice);
  if (err) {
    free(a);
    return err;
  }
  a->base = (uintptr_t)p;
  *array = a;
  return 0;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height, unsigned flags) {
  ENTER();
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return set_error(cudaErrorInvalidValue);
  struct cudaExtent e = {width, height, 0};
  return new_array(array, desc, e, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned flags) {
  ENTER();
  return new_array(array, desc, extent, flags);
}

cudaError_t cudaMallocMipmappedArray(void *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned levels, unsigned flags) {
  (void)array, (void)desc, (void)extent, (void)levels, (void)flags;
  ENTER();
  fprintf(stderr, "warpsim runtime: mipmapped arrays are not supported\n");
  return set_error(cudaErrorNotSupported);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  ENTER();
  if (!array) return 0;
  struct cudaArray *a = array_of(array);
  if (!a) return set_error(cudaErrorInvalidValue);
  cudaError_t e = free_alloc((void *)(uintptr_t)a->base, -1, NULL, 0);
  if (e) return e;
  a->magic = 0;
  free(a);
  return 0;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned *flags, cudaArray_t array) {
  ENTER();
  struct cudaArray *a = array_of(array);
  if (!a) return set_error(cudaErrorInvalidResourceHandle);
  if (desc) *desc = a->desc;
  if (extent) *extent = a->extent;
  if (flags) *flags = a->flags;
  return 0;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  ENTER();
  struct cudaArray *a = array_of(array);
  if (!a) return set_error(cudaErrorInvalidResourceHandle);
  if (!desc) return set_error(cudaErrorInvalidValue);
  *desc = a->desc;
  return 0;
}

/* ---- Copies to and from arrays ---- */

/* array_at is the address of byte column x (bytes) of row y, slice z. */
static char *array_at(const struct cudaArray *a, size_t x, size_t y, size_t z) {
  return (char *)(uintptr_t)(a->base + z * a->slice + y * a->pitch + x);
}

static cudaError_t copy_to_array(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, int kind, void *s, int async) {
  struct cudaArray *a = array_of(dst);
  if (!a) return set_error(cudaErrorInvalidValue);
  if (width > spitch && height > 1) return set_error(cudaErrorInvalidPitchValue);
  if (wOffset + width > a->pitch || hOffset + height > a->rows) return set_error(cudaErrorInvalidValue);
  return copy2d(array_at(a, wOffset, hOffset, 0), a->pitch, src, height > 1 ? spitch : width, width, height, kind, s, async);
}

static cudaError_t copy_from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, int kind, void *s, int async) {
  struct cudaArray *a = array_of(src);
  if (!a) return set_error(cudaErrorInvalidValue);
  if (width > dpitch && height > 1) return set_error(cudaErrorInvalidPitchValue);
  if (wOffset + width > a->pitch || hOffset + height > a->rows) return set_error(cudaErrorInvalidValue);
  return copy2d(dst, height > 1 ? dpitch : width, array_at(a, wOffset, hOffset, 0), a->pitch, width, height, kind, s, async);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return copy_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, NULL, 0);
}
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, int kind, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  return copy_to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, s, 1);
}
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return copy_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, NULL, 0);
}
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, int kind, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  return copy_from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, s, 1);
}

/* The deprecated 1D forms copy count bytes from (wOffset, hOffset) on,
 * running on along the rows. */
static cudaError_t copy_linear_array(struct cudaArray *a, size_t wOffset, size_t hOffset, size_t count, size_t *off) {
  if (!a) return set_error(cudaErrorInvalidValue);
  *off = hOffset * a->pitch + wOffset;
  if (wOffset > a->pitch || *off + count > a->slice * a->slices) return set_error(cudaErrorInvalidValue);
  return 0;
}
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  size_t off;
  struct cudaArray *a = array_of(dst);
  cudaError_t e = copy_linear_array(a, wOffset, hOffset, count, &off);
  if (e) return e;
  return copy_on((char *)(uintptr_t)a->base + off, src, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  size_t off;
  struct cudaArray *a = array_of(dst);
  cudaError_t e = copy_linear_array(a, wOffset, hOffset, count, &off);
  if (e) return e;
  return copy_on((char *)(uintptr_t)a->base + off, src, count, kind, s, 1);
}
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  size_t off;
  struct cudaArray *a = array_of(src);
  cudaError_t e = copy_linear_array(a, wOffset, hOffset, count, &off);
  if (e) return e;
  return copy_on(dst, (char *)(uintptr_t)a->base + off, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, int kind, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  size_t off;
  struct cudaArray *a = array_of(src);
  cudaError_t e = copy_linear_array(a, wOffset, hOffset, count, &off);
  if (e) return e;
  return copy_on(dst, (char *)(uintptr_t)a->base + off, count, kind, s, 1);
}
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  struct cudaArray *d = array_of(dst), *s = array_of(src);
  if (!d || !s) return set_error(cudaErrorInvalidValue);
  if (wOffsetDst + width > d->pitch || hOffsetDst + height > d->rows || wOffsetSrc + width > s->pitch || hOffsetSrc + height > s->rows)
    return set_error(cudaErrorInvalidValue);
  return copy2d(array_at(d, wOffsetDst, hOffsetDst, 0), d->pitch, array_at(s, wOffsetSrc, hOffsetSrc, 0), s->pitch, width, height, kind, NULL, 0);
}
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  struct cudaArray *d = array_of(dst), *s = array_of(src);
  size_t doff, soff;
  cudaError_t e = copy_linear_array(d, wOffsetDst, hOffsetDst, count, &doff);
  if (!e) e = copy_linear_array(s, wOffsetSrc, hOffsetSrc, count, &soff);
  if (e) return e;
  return copy_on((char *)(uintptr_t)d->base + doff, (char *)(uintptr_t)s->base + soff, count, kind, NULL, 0);
}

/* tex_copy3d is cudaMemcpy3D with an array on either side: the array
 * becomes the pitched memory it is, with positions and the extent's width
 * in elements turned into bytes. */
static cudaError_t tex_copy3d(const struct cudaMemcpy3DParms *p, void *s, int async) {
  struct cudaMemcpy3DParms q = *p;
  struct cudaArray *sa = NULL, *da = NULL;
  size_t elem = 1;
  if (p->srcArray && !(sa = array_of(p->srcArray))) return set_error(cudaErrorInvalidValue);
  if (p->dstArray && !(da = array_of(p->dstArray))) return set_error(cudaErrorInvalidValue);
  if (sa && da && sa->elem != da->elem) return set_error(cudaErrorInvalidValue);
  elem = sa ? sa->elem : da->elem;
  struct cudaExtent e = p->extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return 0;
  struct cudaArray *arrs[2] = {sa, da};
  struct cudaPos *pos[2] = {&q.srcPos, &q.dstPos};
  struct cudaPitchedPtr *ptr[2] = {&q.srcPtr, &q.dstPtr};
  for (int i = 0; i < 2; i++) {
    struct cudaArray *a = arrs[i];
    if (!a) {
      pos[i]->x *= elem;
      continue;
    }
    if (pos[i]->x + e.width > a->extent.width || pos[i]->y + e.height > a->rows || pos[i]->z + e.depth > a->slices)
      return set_error(cudaErrorInvalidValue);
    ptr[i]->ptr = (void *)(uintptr_t)a->base;
    ptr[i]->pitch = a->pitch;
    ptr[i]->xsize = a->extent.width * a->elem;
    ptr[i]->ysize = a->rows;
    pos[i]->x *= a->elem;
  }
  q.srcArray = q.dstArray = NULL;
  q.extent.width = e.width * elem;
  return copy3d(&q, s, async);
}

/* ---- Texture and surface objects ---- */

static cudaError_t new_object(unsigned long long *handle, const struct cudaResourceDesc *r, const struct cudaTextureDesc *t, int surface) {
  if (!handle || !r) return set_error(cudaErrorInvalidValue);
  struct warpsim_texdesc d;
  memset(&d, 0, sizeof d);
  d.magic = surface ? SURF_MAGIC : TEX_MAGIC;
  d.res_type = (uint32_t)r->resType;
  const struct cudaChannelFormatDesc *cd = NULL;
  size_t elem = 0;
  switch (r->resType) {
  case cudaResourceTypeArray: {
    struct cudaArray *a = array_of(r->res.array.array);
    if (!a) return set_error(cudaErrorInvalidValue);
    /* An array without cudaArraySurfaceLoadStore still gets a surface
     * object, as on the H100 (testdata/programs7/tex_surf). */
    cd = &a->desc;
    d.base = a->base;
    d.pitch = a->pitch;
    d.slice = a->slice;
    d.width = (uint32_t)a->extent.width;
    d.height = (uint32_t)a->extent.height;
    d.flags = a->flags;
    if (a->flags & (cudaArrayLayered | cudaArrayCubemap))
      d.layers = (uint32_t)a->extent.depth;
    else
      d.depth = (uint32_t)a->extent.depth;
    break;
  }
  case cudaResourceTypeLinear:
    if (surface || !r->res.linear.devPtr) return set_error(cudaErrorInvalidValue);
    cd = &r->res.linear.desc;
    d.base = (uintptr_t)r->res.linear.devPtr;
    d.size = r->res.linear.sizeInBytes;
    break;
  case cudaResourceTypePitch2D:
    if (surface || !r->res.pitch2D.devPtr || r->res.pitch2D.width == 0 || r->res.pitch2D.height == 0) return set_error(cudaErrorInvalidValue);
    cd = &r->res.pitch2D.desc;
    d.base = (uintptr_t)r->res.pitch2D.devPtr;
    d.pitch = r->res.pitch2D.pitchInBytes;
    d.width = (uint32_t)r->res.pitch2D.width;
    d.height = (uint32_t)r->res.pitch2D.height;
    break;
  case cudaResourceTypeMipmappedArray:
    fprintf(stderr, "warpsim runtime: textures over mipmapped arrays are not supported\n");
    return set_error(cudaErrorNotSupported);
  default:
    return set_error(cudaErrorInvalidValue);
  }
  if (!channel_layout(cd, &d.nchan, &d.bits, &elem)) return set_error(cudaErrorInvalidChannelDescriptor);
  d.kind = (uint32_t)cd->f;
  d.elem = (uint32_t)elem;
  if (r->resType == cudaResourceTypePitch2D && (d.pitch < d.width * elem || d.pitch % 32 != 0)) return set_error(cudaErrorInvalidValue);
  if (t) {
    int intFormat = cd->f != cudaChannelFormatKindFloat;
    if (t->readMode == cudaReadModeNormalizedFloat && intFormat && d.bits == 32) return set_error(cudaErrorInvalidNormSetting);
    if (t->filterMode == cudaFilterModeLinear && intFormat && t->readMode == cudaReadModeElementType)
      return set_error(cudaErrorInvalidFilterSetting);
    if (t->sRGB && intFormat && d.bits == 8 && t->readMode == cudaReadModeNormalizedFloat) {
      fprintf(stderr, "warpsim runtime: sRGB textures are not supported\n");
      return set_error(cudaErrorNotSupported);
    }
    for (int i = 0; i < 3; i++) d.addr[i] = (uint32_t)t->addressMode[i];
    d.filter = (uint32_t)t->filterMode;
    d.read_mode = (uint32_t)(intFormat && d.bits < 32 ? t->readMode : cudaReadModeElementType);
    d.normalized = t->normalizedCoords ? 1 : 0;
    memcpy(d.border, t->borderColor, sizeof d.border);
  }
  uint64_t h = 0;
  cudaError_t e = desc_alloc(&h);
  if (e) return e;
  memcpy((void *)(uintptr_t)h, &d, sizeof d);
  tex_objects = grow(tex_objects, ntex_objects, sizeof *tex_objects);
  struct tex_object *o = &tex_objects[ntex_objects++];
  memset(o, 0, sizeof *o);
  o->handle = h;
  o->surface = surface;
  o->res = *r;
  if (t) o->tex = *t;
  *handle = o->handle;
  return 0;
}

static int find_object(uint64_t h, int surface) {
  for (int i = 0; i < ntex_objects; i++)
    if (tex_objects[i].handle == h && tex_objects[i].surface == surface) return i;
  return -1;
}

static cudaError_t destroy_object(uint64_t h, int surface) {
  if (h == 0) return 0;
  int i = find_object(h, surface);
  if (i < 0) return set_error(cudaErrorInvalidValue);
  cudaError_t e = desc_free(h);
  if (e) return e;
  tex_objects[i] = tex_objects[--ntex_objects];
  return 0;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc) {
  ENTER();
  if (!pTexDesc) return set_error(cudaErrorInvalidValue);
  if (pResViewDesc) {
    fprintf(stderr, "warpsim runtime: texture resource views are not supported\n");
    return set_error(cudaErrorNotSupported);
  }
  return new_object(pTexObject, pResDesc, pTexDesc, 0);
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  ENTER();
  return destroy_object(texObject, 0);
}
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject) {
  ENTER();
  int i = find_object(texObject, 0);
  if (i < 0 || !pResDesc) return set_error(cudaErrorInvalidValue);
  *pResDesc = tex_objects[i].res;
  return 0;
}
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject) {
  ENTER();
  int i = find_object(texObject, 0);
  if (i < 0 || !pTexDesc) return set_error(cudaErrorInvalidValue);
  *pTexDesc = tex_objects[i].tex;
  return 0;
}
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc) {
  ENTER();
  if (pResDesc && pResDesc->resType != cudaResourceTypeArray) return set_error(cudaErrorInvalidValue);
  return new_object(pSurfObject, pResDesc, NULL, 1);
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  ENTER();
  return destroy_object(surfObject, 1);
}
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject) {
  ENTER();
  int i = find_object(surfObject, 1);
  if (i < 0 || !pResDesc) return set_error(cudaErrorInvalidValue);
  *pResDesc = tex_objects[i].res;
  return 0;
}
