// Modules: loading PTX onto a device, extern resolution, device-side sync checks and finding a kernel by name.

package warpsim

import (
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/ptx"
)

// Module is a loaded PTX module.
type Module struct {
	dev     *Device
	name    string
	mod     *engine.Module
	kernels []*Kernel
}

// Param is one kernel parameter's place in the parameter buffer.
type Param struct {
	Name                string
	Offset, Size, Align int
	// Type is the PTX type without its dot: "u32", "f32", "u64"; "b8" for a
	// byte array (a struct passed by value).
	Type string
}

func resolveExtern(name string) *engine.Extern {
	f, ok := libdevice.Lookup(name)
	if !ok || f.Impl == nil {
		return nil
	}
	e := &engine.Extern{Fn: f.Impl}
	if len(f.Outs) > 0 {
		e.Out = f.ImplOut
		for _, t := range f.Outs {
			e.OutSizes = append(e.OutSizes, ir.TypeSize(t))
		}
	}
	return e
}

func knownExtern(name string) bool {
	if engine.BuiltinExtern(name) {
		return true
	}
	f, ok := libdevice.Lookup(name)
	return ok && f.Impl != nil
}

// LoadModule parses and lowers PTX source and allocates its module-scope
// variables. Errors print as "file:line:col: message" lines. A construct
// the engine cannot run yet inside a function does not fail the load: the
// kernels that reach it cannot be launched (Launch returns an
// *UnsupportedError naming it; Module.Unsupported lists them), the others
// run.
func (d *Device) LoadModule(filename string, src []byte) (*Module, error) {
	pm, err := ptx.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(pm, d.arch); err != nil {
		return nil, err
	}
	prog, err := ir.Lower(pm, knownExtern)
	if el, ok := err.(ptx.ErrorList); err != nil && (!ok || len(el) != len(prog.Unsupported)) {
		return nil, err
	}
	em, err := engine.Load(d.mem, prog, resolveExtern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	m := &Module{dev: d, name: filename, mod: em}
	refused := d.refuseDeviceSync(filename, prog)
	for _, i := range prog.Kernels() {
		f := prog.Funcs[i]
		k := &Kernel{m: m, idx: i, fn: f, demangled: f.Name, refused: refused}
		if s, err := demangle.ToString(f.Name); err == nil {
			k.demangled = s
		}
		m.kernels = append(m.kernels, k)
	}
	return m, nil
}

// refuseDeviceSync is the error every kernel of a module that calls CDP1's
// device-side cudaDeviceSynchronize gets on sm_90 and later, where the
// driver does not load such a module: an H100 ran nvcc 13's sm_80 build of
// examples/lessons/nested4.cu and every launch, of whichever kernel, failed with
// cudaErrorUnsupportedDevSideSync (testdata/cdp/h100/run_nested4_sm80.txt).
func (d *Device) refuseDeviceSync(filename string, prog *ir.Program) error {
	if d.arch.DeviceSideSync() {
		return nil
	}
	syncs := deviceSyncCallers(prog)
	for i, f := range prog.Funcs {
		if syncs[i] && f.CallsDeviceSync() {
			return &DevSideSyncError{Kernel: f.Name, Msg: fmt.Sprintf(
				"%s: %s calls cudaDeviceSynchronize from device code (CDP1), which %s (sm_%d) cannot run: sm_90 and later GPUs refuse the whole module "+
					"(cudaErrorUnsupportedDevSideSync), and CUDA 12 compiles it only for sm_80 and older with -DCUDA_FORCE_CDP1_IF_SUPPORTED; "+
					"simulate a GPU that has it (--arch k40 or --arch a100, WARPSIM_ARCH=k40), or rewrite it for CDP2 (no device-side synchronization: "+
					"launch the work that waits for the children into cudaStreamTailLaunch)",
				filename, demangleName(f.Name), d.arch.Name, d.arch.ComputeCapability())}
		}
	}
	return nil
}

func demangleName(s string) string {
	if d, err := demangle.ToString(s); err == nil {
		return d
	}
	return s
}

// deviceSyncCallers marks the functions that call cudaDeviceSynchronize
// from the device, directly or through the functions they call.
func deviceSyncCallers(p *ir.Program) []bool {
	marks := make([]bool, len(p.Funcs))
	for i, f := range p.Funcs {
		marks[i] = f.CallsDeviceSync()
	}
	for changed := true; changed; {
		changed = false
		for i, f := range p.Funcs {
			for _, c := range f.Calls {
				if !marks[i] && c.Callee >= 0 && int(c.Callee) < len(marks) && marks[c.Callee] {
					marks[i], changed = true, true
				}
			}
		}
	}
	return marks
}

// DevSideSyncError is the launch of a kernel of a module that calls CDP1's
// device-side cudaDeviceSynchronize on sm_90 or later, which refuses the
// whole module (cudaErrorUnsupportedDevSideSync). CUDA loads modules
// lazily, so it comes with each launch.
type DevSideSyncError struct {
	Kernel string
	Msg    string
}

func (e *DevSideSyncError) Error() string { return e.Msg }

// checkTarget rejects modules built for a newer architecture than the
// device's, as the CUDA driver does.
func checkTarget(m *ptx.Module, a *arch.Arch) error {
	for _, t := range m.Target {
		var sm int
		if _, err := fmt.Sscanf(t, "sm_%d", &sm); err == nil {
			if sm > a.ComputeCapability() {
				return fmt.Errorf("%s: module targets %s, which %s (sm_%d) cannot run", m.File.Name(), t, a.Name, a.ComputeCapability())
			}
		}
	}
	return nil
}

// Kernel finds a kernel by its PTX name, its full demangled name
// ("void add<int>(int*, int)") or its bare demangled name ("add<int>" or "add").
func (m *Module) Kernel(name string) (*Kernel, error) {
	for _, k := range m.kernels {
		if k.fn.Name == name || k.demangled == name {
			return k, nil
		}
	}
	var matches []*Kernel
	for _, k := range m.kernels {
		if bareName(k.demangled) == name || baseName(k.demangled) == name {
			matches = append(matches, k)
		}
	}
	if len(matches) == 1 {
		return matches[0], nil
	}
	var names []string
	for _, k := range m.kernels {
		names = append(names, k.fn.Name)
	}
	if len(matches) > 1 {
		var ms []string
		for _, k := range matches {
			ms = append(ms, k.demangled)
		}
		return nil, fmt.Errorf("kernel name %q is ambiguous in %s: %s", name, m.name, strings.Join(ms, "; "))
	}
	return nil, fmt.Errorf("no kernel %q in %s (kernels: %s)", name, m.name, strings.Join(names, ", "))
}

// bareName strips the return type and parameter list from a demangled
// name: "void add<int>(int*, int)" → "add<int>".
func bareName(s string) string {
	depth := 0
	end := len(s)
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				end = i
				i = -1
			}
		}
	}
	s = s[:end]
	depth = 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '>':
			depth++
		case '<':
			depth--
		case ' ':
			if depth == 0 {
				return s[i+1:]
			}
		}
	}
	return s
}

// baseName also strips template arguments: "add<int>" → "add".
func baseName(s string) string {
	b := bareName(s)
	if i := strings.IndexByte(b, '<'); i > 0 {
		return b[:i]
	}
	return b
}

// kernelByIndex is the kernel of function index i (device-side launches
// name kernels by index).
func (m *Module) kernelByIndex(i int) *Kernel {
	for _, k := range m.kernels {
		if k.idx == i {
			return k
		}
	}
	return nil
}

// Unsupported lists the module's kernels that cannot run, one line each:
// "kernel NAME cannot run: REASON" (the reason with its file:line:col).
func (m *Module) Unsupported() []string { return m.mod.Unsupported() }

// Unsupported is why the kernel cannot run, or "" when it can.
func (k *Kernel) Unsupported() string { return k.m.mod.KernelUnsupported(k.idx) }

// UnsupportedError is a launch of a kernel that needs something warpsim
// cannot run yet.
type UnsupportedError struct {
	Kernel string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("kernel %s cannot run: %s", e.Kernel, e.Reason)
}

func (m *Module) kernelByName(name string) *Kernel {
	for _, k := range m.kernels {
		if k.fn.Name == name {
			return k
		}
	}
	return nil
}

// Kernels lists the module's kernels in declaration order.
func (m *Module) Kernels() []*Kernel { return m.kernels }

// Global returns the device address and size of a module-scope .global or
// .const variable.
func (m *Module) Global(name string) (addr, size uint64, ok bool) {
	i, found := m.mod.Prog.VarByName[name]
	if !found || m.mod.VarAddr[i] == 0 {
		return 0, 0, false
	}
	return m.mod.VarAddr[i], uint64(m.mod.Prog.Vars[i].Size), true
}
