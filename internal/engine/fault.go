package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
)

// FaultKind classifies a kernel fault.
type FaultKind uint8

const (
	FaultOutOfBounds FaultKind = iota + 1
	FaultMisaligned
	FaultBarrierDeadlock
	FaultTrap
	FaultWatchdog
	FaultStackOverflow
	FaultIllegal // an instruction that cannot execute (bad operand at run time)
	FaultAssert  // a failed assert (__assertfail): cudaErrorAssert
	// FaultInterrupted: the launch was stopped from outside (SIGINT,
	// Interrupt.Stop); FaultTimeout: it ran past its wall-clock limit.
	FaultInterrupted
	FaultTimeout
	FaultHeap // device heap misuse the GPU stops the kernel for (double free)
)

func (k FaultKind) String() string {
	switch k {
	case FaultOutOfBounds:
		return "out-of-bounds access"
	case FaultMisaligned:
		return "misaligned access"
	case FaultBarrierDeadlock:
		return "barrier deadlock"
	case FaultTrap:
		return "trap"
	case FaultWatchdog:
		return "watchdog: step limit exceeded"
	case FaultStackOverflow:
		return "stack overflow"
	case FaultIllegal:
		return "illegal instruction"
	case FaultAssert:
		return "assertion failed"
	case FaultInterrupted:
		return "interrupted"
	case FaultTimeout:
		return "timeout: wall-clock limit exceeded"
	case FaultHeap:
		return "device heap error"
	}
	return "fault"
}

// Fault is a kernel fault as the engine sees it; the public API turns it
// into warpsim.Fault.
type Fault struct {
	Kind          FaultKind
	Func          string // function executing (kernel or callee)
	Block, Thread [3]uint32
	PC            int
	Line          ir.LineInfo
	Text          string // the instruction
	Addr          uint64
	HasAddr       bool
	Detail        string
	// Output is what the GPU itself prints for the fault (a failed
	// assert's messages, one line per failing thread).
	Output string
	// Warps, for a launch stopped while running (watchdog, timeout,
	// interrupt), say where some of its warps were.
	Warps []WarpState
	// MoreWarps is how many more unfinished warps there were, in
	// RunningBlocks blocks; Steps the warp instructions run, BlocksDone of
	// Blocks the blocks completed.
	MoreWarps, RunningBlocks int
	Steps                    int64
	BlocksDone, Blocks       int
}

// WarpState is where one warp of a stopped launch was.
type WarpState struct {
	Block       [3]uint32
	First, Last [3]uint32 // thread ids of its first and last live threads
	Func        string    // function executing
	PC          int
	Line        ir.LineInfo
	Text        string // the instruction
	Wait        string // what it waits on: "running", "barrier 0 (2 of 4 warps arrived)" …
}

func (f *Fault) Error() string { return f.Kind.String() + ": " + f.Detail }
