/* warpsim runtime: thread-block clusters. Included by warpsim_rt.c.
 *
 * A cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension is queued
 * as opLaunchCluster (internal/cudart/cluster.go), which checks the shape as
 * the driver does (cudaErrorInvalidClusterSize) and runs the blocks of each
 * cluster together. cudaOccupancyMaxActiveClusters and
 * cudaOccupancyMaxPotentialClusterSize are answered by the simulator with
 * the H100 driver's measured answers. */

enum { opLaunchCluster = 66, opOccupancyCluster = 67, opPotentialCluster = 68 }; /* keep in step with internal/cudart/protocol.go */

static cudaError_t launch_cluster(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream, const unsigned cl[3]) {
  if (!valid_stream(stream)) return set_error(400);
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  if (capturing(stream)) return set_error(cudaErrorStreamCaptureUnsupported);
  char *params = pack(f, args);
  uint32_t hdr[12] = {cl[0], cl[1], cl[2], stream_id(stream), (uint32_t)f->kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, (uint32_t)shmem};
  if (shmem > 0xffffffffu) hdr[11] = 0xffffffffu;
  struct reply r = call3(opLaunchCluster, hdr, sizeof hdr, params, f->param_bytes, NULL, 0);
  free(r.data);
  free(params);
  return set_error(r.code);
}

/* cluster_attr finds the cluster dimension among a launch configuration's
 * attributes; 0 when there is none. */
static int cluster_attr(const cudaLaunchConfig_t *cfg, unsigned cl[3]) {
  cl[0] = cl[1] = cl[2] = 0;
  if (!cfg || !cfg->attrs) return 0;
  for (unsigned i = 0; i < cfg->numAttrs; i++) {
    if (cfg->attrs[i].id == cudaLaunchAttributeClusterDimension) {
      cl[0] = cfg->attrs[i].val.clusterDim.x;
      cl[1] = cfg->attrs[i].val.clusterDim.y;
      cl[2] = cfg->attrs[i].val.clusterDim.z;
      return 1;
    }
  }
  return 0;
}

cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func, const cudaLaunchConfig_t *cfg) {
  ENTER();
  if (!n || !cfg) return set_error(1);
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  unsigned cl[3];
  cluster_attr(cfg, cl);
  uint32_t a[6] = {(uint32_t)f->kernel, cfg->blockDim.x * cfg->blockDim.y * cfg->blockDim.z, (uint32_t)cfg->dynamicSmemBytes, cl[0], cl[1], cl[2]};
  if (cfg->dynamicSmemBytes > 0xffffffffu) a[2] = 0xffffffffu;
  struct reply r = call(opOccupancyCluster, a, sizeof a);
  if (!r.code && r.len >= 4) memcpy(n, r.data, 4);
  free(r.data);
  return set_error(r.code);
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *n, const void *func, const cudaLaunchConfig_t *cfg) {
  ENTER();
  if (!n || !cfg) return set_error(1);
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  uint32_t a[3] = {(uint32_t)f->kernel, cfg->blockDim.x * cfg->blockDim.y * cfg->blockDim.z, (uint32_t)cfg->dynamicSmemBytes};
  if (cfg->dynamicSmemBytes > 0xffffffffu) a[2] = 0xffffffffu;
  struct reply r = call(opPotentialCluster, a, sizeof a);
  if (!r.code && r.len >= 4) memcpy(n, r.data, 4);
  free(r.data);
  return set_error(r.code);
}
