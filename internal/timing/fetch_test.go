package timing

import (
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// TestFetchStage drives one SM's instruction fetch (fetch.go) through the
// cases the H100 recordings separate: the entry line there at once, the
// stream's lines one FetchLineCycles apart, a jump beyond what the stream
// brings sooner restarting it FetchMiss later, a branch stopping it, the
// cache replacing its oldest line, code beyond FetchNearBytes at the far
// figures.
func TestFetchStage(t *testing.T) {
	p := &Params{FetchLineCycles: 10, FetchMiss: 50, FetchFarLineCycles: 100, FetchFarMiss: 500, IcacheBytes: 4 * fetchLineBytes}
	type ask struct {
		line int
		now  uint64
		want uint64
		cut  bool // cut the stream at now instead of asking
	}
	for _, tt := range []struct {
		name string
		near int
		asks []ask
	}{
		{"entry line at once, then the stream", 0, []ask{{0, 100, 100, false}, {1, 100, 110, false}, {3, 105, 130, false}, {2, 140, 120, false}}},
		{"a stream line later than a restart", 0, []ask{{0, 0, 0, false}, {1, 0, 10, false}, {9, 20, 70, false}, {10, 20, 80, false}}},
		{"a stream line sooner than a restart", 0, []ask{{0, 0, 0, false}, {5, 0, 50, false}, {6, 0, 60, false}}},
		{"a branch stops the stream", 0, []ask{{0, 0, 0, false}, {0, 25, 0, true}, {1, 30, 10, false}, {2, 30, 20, false}, {3, 30, 80, false}, {4, 30, 90, false}}},
		{"the oldest line leaves a full cache", 0, []ask{{0, 0, 0, false}, {4, 0, 40, false}, {0, 100, 150, false}, {1, 100, 160, false}, {3, 100, 30, false}, {2, 100, 170, false}}},
		{"far code", 2 * fetchLineBytes, []ask{{0, 0, 0, false}, {1, 0, 10, false}, {2, 0, 110, false}, {9, 200, 700, false}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := *p
			q.FetchNearBytes = tt.near
			f := newFetch(16, &q)
			for i, a := range tt.asks {
				if a.cut {
					f.cut(a.now, &q)
					continue
				}
				if got := f.ready(a.line, a.now, &q); got != a.want {
					t.Errorf("ask %d: line %d at %d ready at %d, want %d", i, a.line, a.now, got, a.want)
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
