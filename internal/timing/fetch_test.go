package timing

import (
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// TestFetchStage drives one SM's instruction fetch (fetch.go) through the
// cases the H100 recordings separate: the entry line there at once, the
// stream's lines one FetchLineCycles apart, a jump beyond what the stream
// brings sooner restarting it FetchMiss later, the stream going on past a
// branch (it has no cut: a warp's next line after a branch comes with
// it), the stream waiting FetchAhead lines past its warps' furthest line
// and asking for the next one when they move on, another sub-partition's
// stream serving a line it brings sooner, the cache replacing its oldest
// line, code beyond FetchNearBytes at the far figures.
func TestFetchStage(t *testing.T) {
	p := &Params{FetchLineCycles: 10, FetchMiss: 50, FetchFarLineCycles: 100, FetchFarMiss: 500, IcacheBytes: 4 * fetchLineBytes,
		FetchAhead: 3, SubPartitions: 2}
	type ask struct {
		line int
		now  uint64
		sp   int
		want uint64
	}
	for _, tt := range []struct {
		name  string
		near  int
		cache int
		asks  []ask
	}{
		{"entry line at once, then the stream", 0, 0, []ask{{0, 100, 0, 100}, {1, 100, 0, 110}, {3, 105, 0, 130}, {2, 140, 0, 120}}},
		{"a stream line later than a restart", 0, 0, []ask{{0, 0, 0, 0}, {1, 0, 0, 10}, {9, 20, 0, 70}, {10, 20, 0, 80}}},
		{"a stream line sooner than a restart", 0, 0, []ask{{0, 0, 0, 0}, {3, 0, 0, 30}, {4, 0, 0, 40}}},
		{"the stream goes on past a branch", 0, 16, []ask{{0, 0, 0, 0}, {1, 25, 0, 10}, {3, 1000, 0, 30}, {4, 1000, 0, 40}}},
		{"the stream waits FetchAhead lines ahead", 0, 16, []ask{{0, 0, 0, 0}, {3, 1000, 0, 30}, {4, 1000, 0, 1050}, {5, 1000, 0, 1060}}},
		{"another sub-partition's stream", 0, 16, []ask{{0, 0, 0, 0}, {2, 0, 1, 20}, {9, 100, 1, 150}, {10, 100, 0, 160}, {11, 100, 0, 170}}},
		{"the oldest line leaves a full cache", 0, 4, []ask{{0, 0, 0, 0}, {3, 0, 0, 30}, {4, 30, 0, 40}, {0, 35, 0, 85}, {1, 35, 0, 95}, {3, 35, 0, 30}}},
		{"far code", 2 * fetchLineBytes, 16, []ask{{0, 0, 0, 0}, {1, 0, 0, 10}, {2, 0, 0, 110}, {9, 200, 0, 700}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := *p
			q.FetchNearBytes = tt.near
			if tt.cache > 0 {
				q.IcacheBytes = tt.cache * fetchLineBytes
			}
			f := newFetch(16, &q)
			for i, a := range tt.asks {
				if got := f.ready(a.line, a.now, a.sp, &q); got != a.want {
					t.Errorf("ask %d: line %d at %d (sub-partition %d) ready at %d, want %d", i, a.line, a.now, a.sp, got, a.want)
				}
			}
		})
	}
}

// TestCodeMapSASSBytes: with MovBytes, a mov takes MovBytes of code, an
// instruction ptxas expands its issue slots' InstBytes (an IEEE fp32
// division 10 SASS instructions, a 32-bit integer remainder 19), a 64-bit
// integer add two, any other InstBytes; without, every instruction
// InstBytes.
func TestCodeMapSASSBytes(t *testing.T) {
	mov := ir.Inst{Op: ir.OpMov, Type: ptxtype.B32}
	add := ir.Inst{Op: ir.OpAdd, Type: ptxtype.F32}
	div := ir.Inst{Op: ir.OpDiv, Type: ptxtype.F32}
	rem := ir.Inst{Op: ir.OpRem, Type: ptxtype.U32}
	add64 := ir.Inst{Op: ir.OpAdd, Type: ptxtype.S64}
	fadd64 := ir.Inst{Op: ir.OpAdd, Type: ptxtype.F64}
	for _, tt := range []struct {
		name       string
		code       []ir.Inst
		movBytes   float64
		lines      int
		lastOnLine int32
	}{
		{"16 movs at 4 bytes", repeatInst(mov, 16), 4, 1, 0},
		{"16 movs at 16 bytes", repeatInst(mov, 16), 16, 2, 1},
		{"16 movs, MovBytes 0", repeatInst(mov, 16), 0, 2, 1},
		{"8 adds", repeatInst(add, 8), 4, 1, 0},
		{"9 adds", repeatInst(add, 9), 4, 2, 1},
		{"div then add", []ir.Inst{div, add}, 4, 2, 1},       // the add at byte 160: line 1; 176 bytes in all
		{"div, MovBytes 0", []ir.Inst{div, add}, 0, 1, 0},    // 32 bytes
		{"rem then add", []ir.Inst{rem, add}, 4, 3, 2},       // 304 bytes: the add at 304, line 2; 320 in all
		{"add, rem, add", []ir.Inst{add, rem, add}, 4, 3, 2}, // the last add at byte 320: line 2
		{"8 64-bit adds", repeatInst(add64, 8), 4, 2, 1},
		{"8 64-bit adds, MovBytes 0", repeatInst(add64, 8), 0, 1, 0},
		{"8 64-bit fp adds", repeatInst(fadd64, 8), 4, 1, 0},
	} {
		f := &ir.Func{Code: tt.code}
		c := newCodeMap(f, nil, &Params{InstBytes: 16, MovBytes: tt.movBytes})
		if c.lines != tt.lines {
			t.Errorf("%s: %d lines, want %d", tt.name, c.lines, tt.lines)
		}
		if got := c.lineOf(&f.Code[len(f.Code)-1]); got != int(tt.lastOnLine) {
			t.Errorf("%s: last instruction on line %d, want %d", tt.name, got, tt.lastOnLine)
		}
	}
}

func repeatInst(in ir.Inst, n int) []ir.Inst {
	s := make([]ir.Inst, n)
	for i := range s {
		s[i] = in
	}
	return s
}

// TestCodeMap: the kernel's code comes first and each function starts a
// line; instructions map to lines at InstBytes each; the launch fetches
// at most FetchLaunchBytes of the kernel.
func TestCodeMap(t *testing.T) {
	k := &ir.Func{Code: make([]ir.Inst, 20)}
	g := &ir.Func{Code: make([]ir.Inst, 3)}
	c := newCodeMap(k, []*ir.Func{g, k}, &Params{InstBytes: 16})
	for _, tt := range []struct {
		in   *ir.Inst
		want int
	}{
		{&k.Code[0], 0}, {&k.Code[7], 0}, {&k.Code[8], 1}, {&k.Code[19], 2}, {&g.Code[0], 3}, {&g.Code[2], 3}, {&ir.Inst{}, -1},
	} {
		if got := c.lineOf(tt.in); got != tt.want {
			t.Errorf("line %d, want %d", got, tt.want)
		}
	}
	if c.lines != 4 || c.kernelLines != 3 {
		t.Errorf("%d lines, %d the kernel's; want 4, 3", c.lines, c.kernelLines)
	}
	p := &Params{FetchLaunchBytes: 2 * fetchLineBytes, FetchLaunchLineNS: 3, ClockHz: 2e9}
	if got := c.launchCycles(p); got != 12 {
		t.Errorf("launch %v cycles, want 12 (2 lines of 3 ns at 2 GHz)", got)
	}
}
