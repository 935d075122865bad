// Kernel: its names, parameters and resources (registers per thread, shared, local and constant memory).

package warpsim

import (
	"fmt"
	"strings"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// Kernel is one .entry function of a module.
type Kernel struct {
	m         *Module
	idx       int
	fn        *ir.Func
	demangled string
	// refused says why the device cannot run the kernel (its module calls
	// CDP1's device-side cudaDeviceSynchronize on sm_90 or later); nil when
	// it can.
	refused error
}

// Name is the kernel's PTX name.
func (k *Kernel) Name() string { return k.fn.Name }

// DemangledName is the C++ name, or the PTX name when it is not mangled.
func (k *Kernel) DemangledName() string { return k.demangled }

// Params lists the parameters' places in the parameter buffer.
func (k *Kernel) Params() []Param {
	ps := make([]Param, len(k.fn.Params))
	for i, p := range k.fn.Params {
		ps[i] = Param{Name: p.Name, Offset: p.Offset, Size: p.Size, Align: p.Align, Type: strings.TrimPrefix(p.Type.String(), ".")}
	}
	return ps
}

// ParamBytes is the size of the packed parameter buffer.
func (k *Kernel) ParamBytes() int { return k.fn.ParamBytes }

// RegsPerThread is the registers per thread the kernel is taken to use, for
// occupancy and the launch check: the lowering's estimate from the PTX,
// capped as ptxas caps its allocation — by .maxnreg, by the device's most
// registers per thread (ptxas spills rather than exceed it), and by the
// kernel's own bound on threads per block (.maxntid or .reqntid, from
// __launch_bounds__: ptxas allocates so that a block of that size fits).
func (k *Kernel) RegsPerThread() int { return regsPerThread(k.fn, k.m.dev.arch) }

// CompiledRegs is the registers per thread ptxas is taken to have
// allocated, what cudaFuncAttributes.numRegs reports: RegsPerThread
// without the least a launch is given on sm_90 (an empty kernel reports 8
// there, and Nsight Compute's registers per thread 16 for its launch:
// testdata/clusters/cluster_launch.h100.txt).
func (k *Kernel) CompiledRegs() int { return capRegs(k.fn, k.fn.RegEstimate, k.m.dev.arch) }

// regsPerThread is Kernel.RegsPerThread of function fn on a GPU a.
func regsPerThread(fn *ir.Func, a *arch.Arch) int {
	r := fn.RegEstimate
	if a.ComputeCapability() >= 90 && r < hopperMinRegs {
		r = hopperMinRegs
	}
	return capRegs(fn, r, a)
}

// capRegs caps r registers per thread of function fn as ptxas caps its
// allocation on a GPU a (see Kernel.RegsPerThread).
func capRegs(fn *ir.Func, r int, a *arch.Arch) int {
	if fn.MaxNReg > 0 && r > fn.MaxNReg {
		r = fn.MaxNReg
	}
	if a.RegsPerThread > 0 && r > a.RegsPerThread {
		r = a.RegsPerThread
	}
	if bound := boundThreads(fn); bound > 0 {
		for r > 1 && a.MaxThreadsPerBlockFor(r) < bound {
			r--
		}
	}
	return r
}

// hopperMinRegs is the fewest registers a kernel's launch is given on
// sm_90: every kernel of the recordings whose PTX needs fewer (an empty
// kernel, an element-wise add, Triton's fused element-wise kernels: ten
// kernels of testdata/occupancy/ptxas/recorded.tsv) has 16 registers per
// thread under Nsight Compute on the H100, none fewer (its
// cudaFuncAttributes.numRegs, ptxas's count, may be fewer: CompiledRegs).
const hopperMinRegs = 16

// RegsPerThreadOn is the registers per thread the kernel named kernel (its
// PTX name) of the PTX module src takes on a GPU a, as Kernel.RegsPerThread
// says once the module is loaded: for the occupancy calculator, which
// answers for any GPU, one the module's target is too new for included.
func RegsPerThreadOn(a *arch.Arch, filename string, src []byte, kernel string) (int, error) {
	pm, err := ptx.Parse(filename, src)
	if err != nil {
		return 0, err
	}
	prog, err := ir.Lower(pm, knownExtern)
	if el, ok := err.(ptx.ErrorList); err != nil && (!ok || len(el) != len(prog.Unsupported)) {
		return 0, err
	}
	for _, fn := range prog.Funcs {
		if fn.Name == kernel {
			return regsPerThread(fn, a), nil
		}
	}
	return 0, fmt.Errorf("%s: no kernel %q", filename, kernel)
}

// BoundThreads is the most threads per block the kernel's own bounds
// allow (.maxntid or .reqntid, from __launch_bounds__), 0 when it has none.
func (k *Kernel) BoundThreads() int { return boundThreads(k.fn) }

func boundThreads(fn *ir.Func) int {
	for _, b := range [][3]int{fn.MaxNTID, fn.ReqNTID} {
		if b[0] > 0 {
			return b[0] * max(b[1], 1) * max(b[2], 1)
		}
	}
	return 0
}

// StaticSharedBytes is the kernel's static shared memory per block.
func (k *Kernel) StaticSharedBytes() int { return k.m.mod.Prog.StaticShared[k.idx] }

// LocalBytes is the kernel's local memory per thread (its .local variables).
func (k *Kernel) LocalBytes() int { return k.fn.LocalBytes }

// ConstBytes is the module's __constant__ data, what
// cudaFuncAttributes.constSizeBytes reports for every kernel of the module:
// the .const variables laid out one after another at their alignments.
func (k *Kernel) ConstBytes() int {
	n := 0
	for _, v := range k.m.mod.Prog.Vars {
		if v.Space != ptx.SpaceConst || v.Extern {
			continue
		}
		if a := max(v.Align, 1); n%a != 0 {
			n += a - n%a
		}
		n += v.Size
	}
	return n
}

// Module is the module the kernel belongs to.
func (k *Kernel) Module() *Module { return k.m }
