/* warpsim runtime: cooperative launches. Included by warpsim_rt.c.
 *
 * cudaLaunchCooperativeKernel queues the launch as opLaunchCooperative
 * (internal/cudart/coop.go): the simulator checks the grid against what can
 * be resident at once (the occupancy calculator's blocks per SM times the
 * SM count; more is cudaErrorCooperativeLaunchTooLarge, as the driver
 * answers) and runs it with every block resident, so grid_group::sync()
 * works and grid_group::is_valid() is true in it. */

enum { opLaunchCooperative = 64 }; /* keep in step with internal/cudart/protocol.go */

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream) {
  ENTER();
  if (!valid_stream(stream)) return set_error(400);
  struct function *f = find_function(func);
  if (!f) return set_error(98); /* cudaErrorInvalidDeviceFunction */
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  /* A graph has no cooperative kernel nodes here: refuse to capture one. */
  if (capturing(stream)) return set_error(cudaErrorStreamCaptureUnsupported);
  char *params = pack(f, args);
  uint32_t hdr[9] = {stream_id(stream), (uint32_t)f->kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, (uint32_t)shmem};
  if (shmem > 0xffffffffu) hdr[8] = 0xffffffffu;
  struct reply r = call3(opLaunchCooperative, hdr, sizeof hdr, params, f->param_bytes, NULL, 0);
  free(r.data);
  free(params);
  return set_error(r.code);
}
