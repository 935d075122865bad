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
}

func (f *Fault) Error() string { return f.Kind.String() + ": " + f.Detail }
