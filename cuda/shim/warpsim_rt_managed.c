/* warpsim runtime: __managed__ variables. Included by warpsim_rt.c.
 *
 * clang's CUDA mode has no managed variables, so warpsim's headers make a
 * __managed__ variable a __device__ variable whose host shadow (the
 * variable host code reads and writes directly) is aligned to a page in the
 * section warpsim_managed; __warpsim_managed_end, linked after the
 * program's objects, closes the section on a page boundary, so the pages of
 * each shadow hold nothing else. Once the module is loaded, each shadow's
 * pages are mapped (MAP_FIXED) onto the pages of the device variable in the
 * shared device memory file: host code and kernels then read and write the
 * same bytes, and the host sees the variable's initializer; the simulator
 * makes the shadow's address a device address of the variable as well
 * (opManagedAlias), so a kernel may also be handed the host's &x. The module is
 * loaded, and the mapping made, when clang's constructor has registered it
 * (before main; with -rdc=true when warpsim's constructor hands over the
 * file's PTX), so host code may use the variable before any CUDA call.
 *
 * What it guarantees, as on a GPU without concurrent managed access: a
 * kernel sees what the host wrote before the launch, the host sees what a
 * kernel wrote once it has synchronized with it. The host's &x and
 * cudaGetSymbolAddress's pointer are two addresses of the same bytes. */

extern char __start_warpsim_managed[] __attribute__((weak));
__attribute__((section("warpsim_managed"), aligned(4096), used)) char __warpsim_managed_end[1];

enum { managed_page = 4096 };

/* is_managed_shadow reports whether p is the host shadow of a __managed__
 * variable. */
static int is_managed_shadow(const void *p) {
  const char *c = p;
  return __start_warpsim_managed && c >= __start_warpsim_managed && c < __warpsim_managed_end;
}

/* map_managed maps every registered managed variable's shadow onto its
 * device variable (modules loaded). */
static void map_managed(void) {
  for (int i = 0; i < nvariables; i++) {
    struct variable *v = &variables[i];
    if (v->mapped || !is_managed_shadow(v->host)) continue;
    struct variable *dv = find_var(v->host);
    if (!dv) continue;
    v->mapped = 1;
    uint64_t dev = dv->addr;
    if (!in_window((void *)(uintptr_t)dev) || (dev - window_base) % managed_page || (uintptr_t)v->host % managed_page) {
      fprintf(stderr, "warpsim runtime: __managed__ variable %s cannot be shared with the host (device address %#llx)\n",
              v->name, (unsigned long long)dev);
      continue;
    }
    size_t len = (dv->size + managed_page - 1) / managed_page * managed_page;
    if (mmap((void *)v->host, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mem_fd, (off_t)(dev - window_base)) == MAP_FAILED) {
      fprintf(stderr, "warpsim runtime: mapping __managed__ variable %s: %s\n", v->name, strerror(errno));
      continue;
    }
    no_fork(v->host, len, 1);
    /* Kernels handed the host's &x reach the variable too. */
    uint64_t a[3] = {(uint64_t)(uintptr_t)v->host, dev, dv->size};
    struct reply r = call(opManagedAlias, a, sizeof a);
    free(r.data);
  }
}

/* managed_module_end runs when clang's constructor has registered module
 * (__cudaRegisterFatBinaryEnd): a module with managed variables starts the
 * simulator, which loads it, and its variables are mapped; a module
 * registered once the simulator runs (an earlier module had managed
 * variables) is loaded now. */
static void managed_module_end(int module) {
  int any = 0;
  if (module >= 0 && module < nmodules && modules[module].rdc)
    /* -rdc: variables are registered from the offload entries when the
     * simulator starts; any managed variable in the program counts. */
    any = __start_warpsim_managed && __start_warpsim_managed < __warpsim_managed_end;
  for (int i = 0; i < nvariables && !any; i++)
    any = variables[i].module == module && is_managed_shadow(variables[i].host);
  if (!any && !started) return;
  LOCK();
  if (started && module >= 0 && module < nmodules && modules[module].id < 0 && !modules[module].err) {
    struct reply r = call(opModule, modules[module].ptx, (uint32_t)modules[module].len);
    modules[module].err = r.code;
    if (!r.code && r.len >= 4) memcpy(&modules[module].id, r.data, 4);
    free(r.data);
  }
  if (!any || start()) return;
  map_managed();
}
