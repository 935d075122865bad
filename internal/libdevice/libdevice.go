// Package libdevice implements NVIDIA's libdevice math library (the __nv_*
// functions that clang leaves as .extern .func calls in PTX when it compiles
// CUDA with -nocudalib) natively in Go, with libdevice's results bit for bit.
//
// The algorithms follow libdevice's own (range reductions, polynomials, their
// constants and every fused multiply-add), as nvcc compiles them for sm_90, so
// that a simulated kernel computes what the same kernel computes on an H100.
// Where libdevice relies on the SFU's approximate instructions (ex2.approx,
// lg2.approx, rcp.approx, rsqrt.approx, sin/cos.approx …), it uses tables
// recorded on an H100 (sfudata/, see sfu.go), which reproduce those
// instructions exactly; the same models are exported (Lg2ApproxFtzF32 …) for
// the engine's own .approx instructions. The README's math-library section lists the few
// functions that still differ from the real-GPU recordings
// (testdata/ref.bin.gz) and why.
//
// Arguments and results travel as raw bits in uint64 (f32 in the low 32 bits,
// integers zero- or sign-extended as their PTX type says).
package libdevice

import (
	"sort"
	"sync"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Func is one libdevice function.
type Func struct {
	Name string
	Args []ptxtype.Type
	Ret  ptxtype.Type
	// Outs are the types of pointer out-parameters (frexp's exponent,
	// sincos's results …), which follow Args in the PTX call. Args holds
	// only the value parameters.
	Outs []ptxtype.Type
	// Impl computes the return value from the argument bits (0 when Ret is
	// TypeNone).
	Impl func(args []uint64) uint64
	// ImplOut, set when Outs is not empty, computes the return value and
	// writes the out-parameter values, in order, into outs (len(Outs)); the
	// engine stores each through its pointer.
	ImplOut func(args []uint64, outs []uint64) uint64
}

// table and tableFTZ hold every function, by name; buildOnce fills them
// on first use, calling each file's register function (build).
var (
	table     map[string]*Func
	tableFTZ  map[string]*Func
	buildOnce sync.Once
)

// build fills the tables: this list is every function warpsim implements,
// file by file.
func build() {
	table, tableFTZ = map[string]*Func{}, map[string]*Func{}
	registerAhyp64()
	registerAtrig32()
	registerAtrig64A()
	registerAtrig64B()
	registerAtrig64C()
	registerBasic()
	registerBasic64()
	registerBessel32A()
	registerBessel32B()
	registerBessel32C()
	registerBessel32D()
	registerBessel64A()
	registerBessel64B()
	registerBessel64C()
	registerErf32A()
	registerErf32B()
	registerErf64A()
	registerErf64B()
	registerErf64C()
	registerErfinv64()
	registerExp32()
	registerExp64A()
	registerExp64B()
	registerFast()
	registerFmod32()
	registerFmod64()
	registerGamma32A()
	registerGamma32B()
	registerGamma64A()
	registerGamma64B()
	registerHyp32()
	registerHyp64()
	registerLog32()
	registerMisc32()
	registerNorm()
	registerPow32()
	registerPow64()
	registerSfu()
	registerSimd()
	registerTrig32()
	registerTrig64A()
	registerTrig64B()
}

// Lookup returns the libdevice function name ("__nv_sinf") as it behaves in a
// module compiled without flushing subnormals (nvcc's default -ftz=false,
// clang's default).
func Lookup(name string) (*Func, bool) {
	buildOnce.Do(build)
	f, ok := table[name]
	return f, ok
}

// LookupFTZ returns the function as libdevice behaves when the module asks
// for flushing (__nvvm_reflect("__CUDA_FTZ") true: nvcc -ftz=true, clang
// -fgpu-flush-denormals-to-zero). Functions whose behaviour does not depend
// on the flag are the same as Lookup's.
func LookupFTZ(name string) (*Func, bool) {
	buildOnce.Do(build)
	if f, ok := tableFTZ[name]; ok {
		return f, true
	}
	return Lookup(name)
}

// Names returns the names of all implemented functions, sorted.
func Names() []string {
	buildOnce.Do(build)
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func register(f *Func) {
	if _, dup := table[f.Name]; dup {
		panic("warpsim internal error: libdevice: duplicate " + f.Name)
	}
	table[f.Name] = f
}

func registerFTZ(f *Func) {
	if _, dup := tableFTZ[f.Name]; dup {
		panic("warpsim internal error: libdevice: duplicate ftz " + f.Name)
	}
	tableFTZ[f.Name] = f
}
