package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// TestScoreboardStallReason: a warp waits for the registers its next
// instruction reads, and the stall shows the kind of their producer.
func TestScoreboardStallReason(t *testing.T) {
	tests := []struct {
		name     string
		kind     uint8
		wantWhy  uint8
		readyAt  uint64
		wantWait uint64
	}{
		{"load result", prodLong, stallLongScoreboard, 400, 400},
		{"shared/MUFU result", prodShort, stallShortScoreboard, 30, 30},
		{"fixed-latency result", prodFixed, stallWait, 4, 4},
	}
	for _, tc := range tests {
		w := &warpT{regReady: make([]uint64, 4), regKind: make([]uint8, 4), ready: 1, readyWhy: stallDispatch}
		w.regReady[2], w.regKind[2] = tc.readyAt, tc.kind
		w.next = &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{2, 1, -1, -1, -1}}
		s := &gridState{}
		at, why := s.depReady(w)
		if at != tc.wantWait || why != tc.wantWhy {
			t.Errorf("%s: ready at %d (%s), want %d (%s)", tc.name, at, StallNames[why], tc.wantWait, StallNames[tc.wantWhy])
		}
	}
	// No dependence: the warp's own readiness.
	w := &warpT{regReady: make([]uint64, 4), regKind: make([]uint8, 4), ready: 7, readyWhy: stallBranchResolving}
	w.next = &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}
	if at, why := (&gridState{}).depReady(w); at != 7 || why != stallBranchResolving {
		t.Errorf("independent instruction: %d (%s), want 7 (branch_resolving)", at, StallNames[why])
	}
}

// TestPipeThroughput: warps issuing only instructions of one class issue
// one per the class's interval on a sub-partition, however many warps
// are ready (the fp64 pipe of an H100 sub-partition takes a warp
// instruction every 2 cycles, the integer ALU every cycle).
func TestPipeThroughput(t *testing.T) {
	h100 := ForArch(arch.MustLookup("h100"), 0)
	for _, class := range []ir.Class{ir.ClassALU, ir.ClassFP64, ir.ClassSFU, ir.ClassConv} {
		s, sm, sp := schedFixture(GTO, 8)
		for _, w := range sp.warps {
			w.next = &ir.Inst{Op: ir.OpAdd, Class: class}
		}
		const cycles = 960
		issued := 0
		for sm.now = 0; sm.now < cycles; sm.now++ {
			w, _ := s.pick(sm, sp)
			if w == nil {
				continue
			}
			issued++
			sp.last = w
			w.dep = sm.now + 1
			w.changed()
			sp.pipe[class] = sm.now + uint64(s.p.Interval[class])
		}
		want := cycles / int(h100.Interval[class])
		if issued != want {
			t.Errorf("%s: %d instructions in %d cycles, want %d (interval %d)", class, issued, cycles, want, h100.Interval[class])
		}
	}
}

// TestHoistLoads: with HoistLoads (ptxas scheduling a block's loads above
// the arithmetic that consumes earlier ones), an arithmetic instruction
// whose operand is a load in flight issues at once and completes after the
// load; what reads its result waits as for a load, a branch (the block's
// end) waits for it, and a load whose address it computes cannot issue
// before it. Without HoistLoads the instruction waits in the warp.
func TestHoistLoads(t *testing.T) {
	for _, hoist := range []bool{true, false} {
		s, sm, sp := schedFixture(GTO, 1)
		s.p = &Params{Latency: s.p.Latency, Interval: s.p.Interval, HoistLoads: hoist}
		w := sp.warps[0]
		w.regReady, w.regKind, w.ready, w.depValid = make([]uint64, 6), make([]uint8, 6), 1, false
		w.regReady[2], w.regKind[2] = 400, prodLong // a load's result
		fma := &ir.Inst{Op: ir.OpFma, Class: ir.ClassFMA, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{2, 1, 1, -1, -1}}
		w.next = fma
		at, why := s.depReady(w)
		if !hoist {
			if at != 400 || why != stallLongScoreboard {
				t.Errorf("without HoistLoads: the FMA issues at %d (%s), want 400 (long_scoreboard)", at, StallNames[why])
			}
			continue
		}
		if at != 1 {
			t.Fatalf("the FMA on a load in flight issues at %d, want 1", at)
		}
		sm.now = 1
		s.complete(sm, sp, w, fma, &engine.StepRecord{}, 1)
		if want := uint64(400 + s.p.Latency[ir.ClassFMA]); w.regReady[3] != want || w.regKind[3] != prodHoisted || w.hoisted != want {
			t.Errorf("the FMA's result: ready %d (kind %d), hoisted %d; want %d (hoisted), %d", w.regReady[3], w.regKind[3], w.hoisted, want, want)
		}
		end := w.regReady[3]
		for _, tc := range []struct {
			name string
			in   *ir.Inst
			want uint64
		}{
			{"an independent load", &ir.Inst{Op: ir.OpLd, Class: ir.ClassLdGlobal, Guard: -1, D: [4]int32{4, -1, -1, -1}, A: [5]int32{1, -1, -1, -1, -1}}, 2},
			{"a load at the FMA's address", &ir.Inst{Op: ir.OpLd, Class: ir.ClassLdGlobal, Guard: -1, D: [4]int32{4, -1, -1, -1}, A: [5]int32{3, -1, -1, -1, -1}}, end},
			{"the FMA's consumer", &ir.Inst{Op: ir.OpAdd, Class: ir.ClassFMA, Guard: -1, D: [4]int32{5, -1, -1, -1}, A: [5]int32{3, 1, -1, -1, -1}}, 2},
			{"the block's branch", &ir.Inst{Op: ir.OpBra, Class: ir.ClassBranch, Guard: -1, D: [4]int32{-1, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}, end},
		} {
			w.ready, w.next, w.depValid = 2, tc.in, false
			if at, _ := s.depReady(w); at != tc.want {
				t.Errorf("%s: issues at %d, want %d", tc.name, at, tc.want)
			}
		}
	}
}

// TestHoistFixed: with HoistFixed for fp64 (ptxas interleaving a block's
// DFMA chains), a DFMA whose operand another DFMA computes issues at once,
// takes its pipe then and starts when the operand is there; its result
// comes its latency after that start, a consumer of another class waits
// for it in the warp (wait), and the block's branch waits for the start,
// not the result. An FFMA on an FFMA's result still waits in the warp.
// Without HoistFixed the DFMA waits in the warp.
func TestHoistFixed(t *testing.T) {
	for _, on := range []bool{true, false} {
		s, sm, sp := schedFixture(GTO, 1)
		s.p = &Params{Latency: s.p.Latency, Interval: s.p.Interval, HoistLoads: true}
		if on {
			s.p.HoistFixed = hoistClasses(ir.ClassFP64)
		}
		lat := uint64(s.p.Latency[ir.ClassFP64])
		w := sp.warps[0]
		w.regReady, w.regKind, w.ready, w.depValid = make([]uint64, 8), make([]uint8, 8), 1, false
		dfma := func(d, a int32) *ir.Inst {
			return &ir.Inst{Op: ir.OpFma, Class: ir.ClassFP64, Type: ptx.F64, Guard: -1, D: [4]int32{d, -1, -1, -1}, A: [5]int32{a, 1, 1, -1, -1}}
		}
		first := dfma(2, 1)
		sm.now = 1
		s.complete(sm, sp, w, first, &engine.StepRecord{}, 1)
		wantKind := prodFixed
		if on {
			wantKind = prodChain
		}
		if w.regReady[2] != 1+lat || w.regKind[2] != wantKind {
			t.Fatalf("HoistFixed %v: the first DFMA's result at %d (kind %d), want %d (kind %d)", on, w.regReady[2], w.regKind[2], 1+lat, wantKind)
		}
		second := dfma(3, 2)
		w.ready, w.next, w.depValid = 3, second, false
		at, why := s.depReady(w)
		if !on {
			if at != 1+lat || why != stallWait {
				t.Errorf("without HoistFixed: the dependent DFMA issues at %d (%s), want %d (wait)", at, StallNames[why], 1+lat)
			}
			continue
		}
		if at != 3 {
			t.Fatalf("the dependent DFMA issues at %d, want 3", at)
		}
		sm.now = 3
		s.complete(sm, sp, w, second, &engine.StepRecord{}, 1)
		if want := 1 + 2*lat; w.regReady[3] != want || w.chainIssued != 1+lat || w.hoisted != 0 || sp.pipe[ir.ClassFP64] != 3+uint64(s.p.Interval[ir.ClassFP64]) {
			t.Errorf("the dependent DFMA: result %d, chainIssued %d, hoisted %d, pipe free at %d; want %d, %d, 0, %d",
				w.regReady[3], w.chainIssued, w.hoisted, sp.pipe[ir.ClassFP64], want, 1+lat, 3+s.p.Interval[ir.ClassFP64])
		}
		w.regReady[6], w.regKind[6] = 9, prodFixed // an FFMA's result
		for _, tc := range []struct {
			name    string
			in      *ir.Inst
			want    uint64
			wantWhy uint8
		}{
			{"an ALU consumer of its result", &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU, Guard: -1, D: [4]int32{4, -1, -1, -1}, A: [5]int32{3, 1, -1, -1, -1}}, 1 + 2*lat, stallWait},
			{"the block's branch", &ir.Inst{Op: ir.OpBra, Class: ir.ClassBranch, Guard: -1, D: [4]int32{-1, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}, 1 + lat, stallWait},
			{"an FFMA on an FFMA", &ir.Inst{Op: ir.OpFma, Class: ir.ClassFMA, Guard: -1, D: [4]int32{7, -1, -1, -1}, A: [5]int32{6, 1, 1, -1, -1}}, 9, stallWait},
		} {
			w.ready, w.next, w.depValid = 4, tc.in, false
			if at, why := s.depReady(w); at != tc.want || why != tc.wantWhy {
				t.Errorf("%s: issues at %d (%s), want %d (%s)", tc.name, at, StallNames[why], tc.want, StallNames[tc.wantWhy])
			}
		}
	}
}

// TestSharedStoreQueue: a shared store waits in the warp (mio_throttle)
// while the SM's shared-memory pipe has more than StoreQueueCycles of
// wavefronts queued ahead of it, as a wmma.store does: the pipe takes one
// wavefront a cycle (testdata/timing/DERIVATION.md §4, 32 warps' 32-way
// conflicted loads 31.98 cycles a warp access), so a warp's conflicted
// stores cannot run ahead of it without bound (testdata/timing/stsconf:
// 16 warps' 32-way stores took 7.3 cycles a store in the model, where the
// pipe alone needs 512). A load is not held by the gate.
func TestSharedStoreQueue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		op     ir.Op
		queued uint64 // cycles of wavefronts queued beyond now
		wait   bool
		own    uint64 // cycles of the warp's own wavefronts (SharedWarpCycles apart) beyond now
	}{
		{"a store behind a short queue", ir.OpSt, 200, false, 0},
		{"a store behind a long queue", ir.OpSt, 1500, true, 0},
		{"a load behind a long queue", ir.OpLd, 1500, false, 0},
		{"a store behind its warp's long queue", ir.OpSt, 200, true, 1500},
		{"a store behind its warp's short queue", ir.OpSt, 200, false, 600},
		{"a load behind its warp's long queue", ir.OpLd, 200, false, 1500},
	} {
		s, sm, sp := schedFixture(GTO, 1)
		q := s.p.StoreQueueCycles
		if q <= 0 {
			t.Fatal("the H100 preset has no store queue bound")
		}
		w := sp.warps[0]
		w.blk = &blockT{sm: sm}
		w.regReady, w.regKind, w.depValid = make([]uint64, 4), make([]uint8, 4), false
		w.next = &ir.Inst{Op: tc.op, Class: ir.ClassShared, Space: ptx.SpaceShared, Guard: -1,
			D: [4]int32{-1, -1, -1, -1}, A: [5]int32{1, 2, -1, -1, -1}}
		if tc.op == ir.OpLd {
			w.next.D[0], w.next.A = 2, [5]int32{1, -1, -1, -1, -1}
		}
		sm.now = 1000
		sm.shared = sm.now + tc.queued
		if tc.own > 0 {
			w.sharedFeed = sm.now + tc.own
		}
		got, why := s.depReady(w)
		if want := uint64(float64(max(sm.shared, w.sharedFeed)) - q); tc.wait && (got != want || why != stallMIOThrottle) {
			t.Errorf("%s: issues at %d (stall %d), want %d (mio_throttle, %d)", tc.name, got, why, want, stallMIOThrottle)
		}
		if !tc.wait && got > sm.now {
			t.Errorf("%s: issues at %d, want now (%d)", tc.name, got, sm.now)
		}
	}
}

// TestPlainDepsSkipsNoGate: depReady skips its gates for an instruction
// plainDeps accepts, so none of them may apply to it: over every op and
// class (each Mode the gates test), plainDeps accepts no memory access,
// branch, barrier, clock read, shuffle, store, reduction, cp.async or
// tensor operation (wmma.load/store and MMAs included).
func TestPlainDepsSkipsNoGate(t *testing.T) {
	p := &Params{HoistShfl: true}
	plain := 0
	for op := ir.Op(0); op < ir.NumOps; op++ {
		for c := ir.Class(0); c < ir.NumClasses; c++ {
			for _, mode := range []uint8{0, ir.TensorWmmaLoad, ir.TensorWmmaStore, ir.TensorWmmaMMA, ir.AsyncCopy} {
				in := &ir.Inst{Op: op, Class: c, Mode: mode, Imm: int64(ir.SregClock)}
				if !plainDeps(in) {
					continue
				}
				plain++
				switch {
				case c == ir.ClassLdGlobal, c == ir.ClassStGlobal, c == ir.ClassShared, c == ir.ClassBranch, c == ir.ClassBarrier,
					heldLoad(in), heldShfl(p, in), wmmaMemOp(in), readsClock(in),
					op == ir.OpSt, op == ir.OpRed, op == ir.OpAsync, op == ir.OpTensor, op == ir.OpShfl:
					t.Errorf("plainDeps accepts op %d class %v mode %d, which a gate of depReady applies to", op, c, mode)
				}
			}
		}
	}
	if plain == 0 {
		t.Fatal("plainDeps accepts nothing")
	}
	add := &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU}
	if !plainDeps(add) {
		t.Error("plainDeps: add.s32 (ALU) is not plain")
	}
}

// TestLazyReadsWrites: the scans that let lazyParams and dropLazy return
// at once see a lazy register as a guard, a source or a destination.
func TestLazyReadsWrites(t *testing.T) {
	lazy := []lazyParam{{reg: 7, off: 0x210}}
	none := &ir.Inst{Guard: -1, D: [4]int32{1, -1, -1, -1}, A: [5]int32{2, 3, -1, -1, -1}}
	guard := &ir.Inst{Guard: 7, D: [4]int32{1, -1, -1, -1}, A: [5]int32{2, 3, -1, -1, -1}}
	src := &ir.Inst{Guard: -1, D: [4]int32{1, -1, -1, -1}, A: [5]int32{2, -1, -1, -1, 7}}
	dst := &ir.Inst{Guard: -1, D: [4]int32{1, 7, -1, -1}, A: [5]int32{2, 3, -1, -1, -1}}
	for _, tc := range []struct {
		name         string
		in           *ir.Inst
		reads, write bool
	}{{"none", none, false, false}, {"guard", guard, true, false}, {"source", src, true, false}, {"destination", dst, false, true}} {
		if got := lazyReads(lazy, tc.in); got != tc.reads {
			t.Errorf("%s: lazyReads = %v, want %v", tc.name, got, tc.reads)
		}
		if got := lazyWrites(lazy, tc.in); got != tc.write {
			t.Errorf("%s: lazyWrites = %v, want %v", tc.name, got, tc.write)
		}
	}
	if lazyReads(nil, src) || lazyWrites(nil, dst) {
		t.Error("no lazy reads: nothing read or written")
	}
}
