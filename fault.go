package warpsim

import (
	"fmt"
	"strings"

	"github.com/warpsim/warpsim/internal/engine"
)

// FaultKind classifies a kernel fault.
type FaultKind int

const (
	FaultOutOfBounds     FaultKind = 1  // an access outside every allocation: cudaErrorIllegalAddress
	FaultMisaligned      FaultKind = 2  // an access not aligned to its size: cudaErrorMisalignedAddress
	FaultBarrierDeadlock FaultKind = 3  // a barrier some threads can never reach
	FaultTrap            FaultKind = 4  // trap or brkpt: cudaErrorLaunchFailure
	FaultWatchdog        FaultKind = 5  // Options.StepLimit warp instructions ran
	FaultStackOverflow   FaultKind = 6  // the per-thread stack (LimitStackSize) overflowed
	FaultIllegal         FaultKind = 7  // an instruction that cannot run: cudaErrorIllegalInstruction
	FaultAssert          FaultKind = 8  // a failed assert: cudaErrorAssert
	FaultInterrupted     FaultKind = 9  // Device.Interrupt (SIGINT)
	FaultTimeout         FaultKind = 10 // Options.Timeout
	FaultHeap            FaultKind = 11 // device free of a block freed already
	// FaultSanitizer: Device.Sanitize's memcheck or synccheck stopped the
	// kernel at its first error (cudaErrorLaunchFailure, as under
	// compute-sanitizer); the Sanitizer holds the finding.
	FaultSanitizer FaultKind = 100
)

// The public kinds are the engine's numbers (FaultKind.String and newFault
// convert by value); this fails to compile if FaultSanitizer drifts.
var _ [0]struct{} = [FaultSanitizer - FaultKind(engine.FaultSanitizer)]struct{}{}

// Stopped reports whether the fault is a launch stopped while it ran
// (watchdog, timeout, interrupt) rather than an error of the kernel.
func (k FaultKind) Stopped() bool {
	return k == FaultWatchdog || k == FaultTimeout || k == FaultInterrupted
}

func (k FaultKind) String() string { return engine.FaultKind(k).String() }

// CUDAError is the cudaError_t a program sees for a fault of this kind at
// its next synchronizing call: what the H100 reports (recordings named
// below), or, for a fault a GPU would hang on instead (watchdog, barrier
// deadlock), the watchdog's code.
func (k FaultKind) CUDAError() int {
	switch k {
	case FaultOutOfBounds:
		return 700 // cudaErrorIllegalAddress
	case FaultMisaligned:
		return 716 // cudaErrorMisalignedAddress
	case FaultIllegal:
		return 715 // cudaErrorIllegalInstruction
	case FaultStackOverflow:
		return 700 // cudaErrorIllegalAddress: testdata/programs/stack_overflow.h100.txt
	case FaultAssert:
		return 710 // cudaErrorAssert
	case FaultTimeout, FaultWatchdog, FaultBarrierDeadlock:
		return 702 // cudaErrorLaunchTimeout
	}
	// A trap, a double free (testdata/harden/h100/badfree1.txt), an
	// interrupt and anything else: cudaErrorLaunchFailure.
	return 719
}

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
	// Output is what the GPU itself prints for the fault: a failed
	// assert's messages, one line per failing thread, as CUDA writes them
	// to stderr.
	Output string
	// Warps, for a launch stopped while it ran (watchdog, timeout,
	// interrupt), say where some of its unfinished warps were; MoreWarps
	// how many others there were, in RunningBlocks blocks in all.
	// WarpInstructions and BlocksDone of Blocks say how far the grid got.
	Warps                    []WarpState
	MoreWarps, RunningBlocks int
	WarpInstructions         int64
	BlocksDone, Blocks       int
}

// WarpState is where one warp of a stopped launch was.
type WarpState struct {
	Block       Dim3
	First, Last Dim3 // its first and last unfinished threads
	Func        string
	PTXLine     int
	SrcFile     string
	SrcLine     int
	Instr       string
	Wait        string // "running", or the barrier it waits at
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
	out.Output = f.Output
	out.MoreWarps, out.RunningBlocks = f.MoreWarps, f.RunningBlocks
	out.WarpInstructions, out.BlocksDone, out.Blocks = f.Steps, f.BlocksDone, f.Blocks
	for _, w := range f.Warps {
		out.Warps = append(out.Warps, WarpState{
			Block: dim3(w.Block), First: dim3(w.First), Last: dim3(w.Last), Func: w.Func,
			PTXLine: w.Line.PTXLine, SrcFile: w.Line.SrcFile, SrcLine: w.Line.SrcLine, Instr: w.Text, Wait: w.Wait,
		})
	}
	return out
}

// Error is a multi-line report:
//
//	kernel fault: out-of-bounds access in kernel vecAdd
//	  block (3,0,0) thread (17,0,0)
//	  at k.ptx:42 (vecAdd.cu:12): ld.global.f32 %f1, [%rd4];
//	  address 0x7f0000001000: 4-byte global access … is outside every allocation
//
// A launch stopped while it ran (watchdog, timeout, interrupt) lists where
// its unfinished warps were instead of one thread:
//
//	kernel fault: interrupted in kernel spin
//	  interrupted (SIGINT) after 2.1s: 3 of 8 blocks done, 41943040 warp instructions
//	  block (3,0,0) threads (0,0,0)-(31,0,0) at k.ptx:20 (spin.cu:7): @%p1 bra $L__BB0_1; — running
//	  … and 12 more warps in 5 blocks
func (f *Fault) Error() string {
	// A grid barrier that cannot complete (grid.sync() in a cooperative
	// launch) lists its waiting warps as a stopped launch does.
	if f.Kind.Stopped() || (f.Kind == FaultBarrierDeadlock && len(f.Warps) > 0) {
		return f.stoppedReport()
	}
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
	if f.Kind == FaultAssert && f.Output != "" {
		// The GPU's line for each failing thread.
		b.WriteString(strings.ReplaceAll(strings.TrimSuffix(f.Output, "\n"), "\n", "\n  "))
		return b.String()
	}
	b.WriteString(f.Detail)
	return b.String()
}

func (f *Fault) stoppedReport() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel fault: %s in kernel %s", f.Kind, f.Kernel)
	fmt.Fprintf(&b, "\n  %s: %d of %d blocks done, %d warp instructions; where the unfinished warps were:", f.Detail, f.BlocksDone, f.Blocks, f.WarpInstructions)
	for _, w := range f.Warps {
		fmt.Fprintf(&b, "\n  block %v threads %v-%v", w.Block, w.First, w.Last)
		if w.Func != "" && w.Func != f.Kernel {
			fmt.Fprintf(&b, " in function %s", w.Func)
		}
		if w.PTXLine > 0 {
			fmt.Fprintf(&b, " at %s:%d", f.PTXFile, w.PTXLine)
			if w.SrcLine > 0 {
				fmt.Fprintf(&b, " (%s:%d)", w.SrcFile, w.SrcLine)
			}
			if w.Instr != "" {
				fmt.Fprintf(&b, ": %s", w.Instr)
			}
		}
		fmt.Fprintf(&b, " — %s", w.Wait)
	}
	if len(f.Warps) == 0 {
		// Short blocks finish before they look at the stop: none was
		// running; the grid stopped between blocks.
		fmt.Fprintf(&b, "\n  none: every started block had finished (the grid stopped between blocks); the next block was %v", f.Block)
	}
	if f.MoreWarps > 0 {
		fmt.Fprintf(&b, "\n  and %d more unfinished warps (%d blocks were running)", f.MoreWarps, f.RunningBlocks)
	}
	return b.String()
}
