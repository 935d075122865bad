package warpsim

import (
	"fmt"
	"strings"

	"github.com/warpsim/warpsim/internal/engine"
)

// FaultKind classifies a kernel fault.
type FaultKind int

const (
	FaultOutOfBounds     = FaultKind(engine.FaultOutOfBounds)
	FaultMisaligned      = FaultKind(engine.FaultMisaligned)
	FaultBarrierDeadlock = FaultKind(engine.FaultBarrierDeadlock)
	FaultTrap            = FaultKind(engine.FaultTrap)
	FaultWatchdog        = FaultKind(engine.FaultWatchdog)
	FaultStackOverflow   = FaultKind(engine.FaultStackOverflow)
	FaultIllegal         = FaultKind(engine.FaultIllegal)
)

func (k FaultKind) String() string { return engine.FaultKind(k).String() }

// Fault is a kernel fault: what went wrong, where in the grid and where in
// the source.
type Fault struct {
	Kind          FaultKind
	Kernel        string
	Block, Thread Dim3
	PTXFile       string
	PTXLine       int
	SrcFile       string
	SrcLine       int
	Addr          uint64
	HasAddr       bool
	Detail        string
	// Instr is the faulting instruction as written in the PTX; Func the
	// function executing it when that is not the kernel.
	Instr string
	Func  string
}

func newFault(k *Kernel, f *engine.Fault) *Fault {
	out := &Fault{
		Kind:    FaultKind(f.Kind),
		Kernel:  k.fn.Name,
		Block:   Dim3{f.Block[0], f.Block[1], f.Block[2]},
		Thread:  Dim3{f.Thread[0], f.Thread[1], f.Thread[2]},
		PTXFile: k.m.name,
		PTXLine: f.Line.PTXLine,
		SrcFile: f.Line.SrcFile,
		SrcLine: f.Line.SrcLine,
		Addr:    f.Addr,
		HasAddr: f.HasAddr,
		Detail:  f.Detail,
		Instr:   f.Text,
	}
	if f.Func != "" && f.Func != k.fn.Name {
		out.Func = f.Func
	}
	return out
}

// Error is a multi-line report:
//
//	kernel fault: out-of-bounds access in kernel vecAdd
//	  block (3,0,0) thread (17,0,0)
//	  at k.ptx:42 (vecAdd.cu:12): ld.global.f32 %f1, [%rd4];
//	  address 0x7f0000001000: 4-byte global access … is outside every allocation
func (f *Fault) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel fault: %s in kernel %s", f.Kind, f.Kernel)
	if f.Func != "" {
		fmt.Fprintf(&b, " (in function %s)", f.Func)
	}
	fmt.Fprintf(&b, "\n  block %v thread %v", f.Block, f.Thread)
	if f.PTXLine > 0 {
		fmt.Fprintf(&b, "\n  at %s:%d", f.PTXFile, f.PTXLine)
		if f.SrcLine > 0 {
			fmt.Fprintf(&b, " (%s:%d)", f.SrcFile, f.SrcLine)
		}
		if f.Instr != "" {
			fmt.Fprintf(&b, ": %s", f.Instr)
		}
	}
	b.WriteString("\n  ")
	if f.HasAddr {
		fmt.Fprintf(&b, "address %#x: ", f.Addr)
	}
	b.WriteString(f.Detail)
	return b.String()
}
