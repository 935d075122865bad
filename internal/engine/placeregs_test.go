package engine

import (
	"encoding/binary"
	"fmt"
	"testing"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
)

// TestPlaceRegsArena: a block's warps take their kernel's register files
// from one buffer of their worker's (placeRegs), each on its own cache
// line, none overlapping another, the same slot of every warp of two
// consecutive workers' blocks on a distinct line modulo 4 KiB (no two in
// the same set of a 4 KiB-periodic L1 data cache), the constant slots
// holding their values; a later block with room keeps the files, and a
// kernel with more slots than they have room for gets room, the files
// still apart.
func TestPlaceRegsArena(t *testing.T) {
	m := testModule(t, sharedReducePTX)
	k := m.Prog.FuncByName["sred"]
	f := m.Prog.Funcs[k]
	for _, tc := range []struct {
		name    string
		threads uint32
	}{
		{"one warp", 32},
		{"8 warps", 256},
		{"a partial warp", 200},
		{"32 warps", 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &launch{mod: m, cfg: &Config{Kernel: k, Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{tc.threads, 1, 1}},
				fn: f, nblocks: 4, sharedOff: m.Prog.SharedOffsets[k], shared: m.Prog.StaticShared[k], limit: DefaultStepLimit, allocs: m.Mem.snapshot()}
			nw := int(tc.threads+31) / 32
			need := uintptr(f.NumSlots * 32 * 8)
			a, b := newWorker(l), newWorker(l)
			b.seq = a.seq + 1
			seen := map[uintptr]string{}
			for wi, w := range []*worker{a, b} {
				w.setupBlock(wi)
				if len(w.blk.warps) != nw {
					t.Fatalf("%d warps, want %d", len(w.blk.warps), nw)
				}
				var starts []uintptr
				for _, wp := range w.blk.warps {
					at := uintptr(unsafe.Pointer(&wp.regs[0]))
					if at%64 != 0 {
						t.Errorf("worker %d warp %d: register file at %#x, not on a cache line", wi, wp.idx, at)
					}
					if o, ok := seen[at%4096]; ok {
						t.Errorf("worker %d warp %d: register file %#x past a 4 KiB boundary, as %s's", wi, wp.idx, at%4096, o)
					}
					seen[at%4096] = string(rune('a'+wi)) + "/" + string(rune('0'+wp.idx))
					for _, s := range starts {
						if at < s+need && s < at+need {
							t.Errorf("worker %d warp %d: register file at %#x overlaps one at %#x (%d bytes each)", wi, wp.idx, at, s, need)
						}
					}
					starts = append(starts, at)
					for _, c := range f.Consts {
						for ln, v := range wp.r(c.Slot) {
							if v != c.Value {
								t.Fatalf("warp %d: constant slot %d lane %d holds %#x, want %#x", wp.idx, c.Slot, ln, v, c.Value)
							}
						}
					}
				}
				// The next block on the worker keeps the files.
				first := &w.blk.warps[0].regs[0]
				w.setupBlock(2 + wi)
				if &w.blk.warps[0].regs[0] != first {
					t.Errorf("worker %d: the next block of the same kernel moved warp 0's register file", wi)
				}
			}
			// A kernel with more slots than the files have room for.
			big := &ir.Func{NumSlots: f.NumSlots * 3}
			a.placeRegs(a.blk.warps, 0, 0, big.NumSlots*32)
			var files [][2]uintptr
			for _, wp := range a.pool[:nw] {
				if room := cap(wp.regPool[0]) - wp.regPoolOff[0]; room < big.NumSlots*32 {
					t.Errorf("warp %d: room for %d uint64s after placing a kernel of %d slots", wp.idx, room, big.NumSlots)
				}
				at := uintptr(unsafe.Pointer(&wp.regPool[0][wp.regPoolOff[0]]))
				for _, o := range files {
					if at < o[1] && o[0] < at+uintptr(big.NumSlots*256) {
						t.Errorf("warp %d: register file at %#x overlaps one at %#x after a larger kernel", wp.idx, at, o[0])
					}
				}
				files = append(files, [2]uintptr{at, at + uintptr(big.NumSlots*256)})
			}
		})
	}
}

// TestPlaceRegsRunsBlock: a 256-thread block whose warps' register files
// lie in one buffer computes its shared-memory sum of 1..256 right
// (32,896), so no warp's file runs into another's.
func TestPlaceRegsRunsBlock(t *testing.T) {
	m := testModule(t, sharedReducePTX)
	k := m.Prog.FuncByName["sred"]
	in, _ := m.Mem.Alloc(4 * 256)
	out, _ := m.Mem.Alloc(4)
	data, err := m.Mem.Bytes(in, 4*256)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 256 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i+1))
	}
	l := &launch{mod: m, cfg: &Config{Kernel: k, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{256, 1, 1}, Params: u64p(in, out)},
		fn: m.Prog.Funcs[k], nblocks: 1, sharedOff: m.Prog.SharedOffsets[k], shared: m.Prog.StaticShared[k], limit: DefaultStepLimit, allocs: m.Mem.snapshot()}
	w := newWorker(l)
	w.runBlock(0)
	if w.fault != nil {
		t.Fatal(w.fault)
	}
	res, err := m.Mem.Bytes(out, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(res); got != 256*257/2 {
		t.Errorf("sum %d, want %d", got, 256*257/2)
	}
}

// TestSlotsOwnLines checks that the state Step writes of block slots made
// one after the other, as a timing driver makes its first wave's (SM after
// SM, each SM then stepped on its own thread), lies on cache lines of its
// own: the BlockSlot (stepping, written twice an instruction) and the
// block's shared memory, however few its bytes (an mbarrier's 8). A slot
// of 16 bytes, four to a line, or 8-byte shared memories, eight to a line,
// fail it.
func TestSlotsOwnLines(t *testing.T) {
	m := testModule(t, sharedReducePTX)
	k := m.Prog.FuncByName["sred"]
	for _, shared := range []int{0, 8, 100, 2056} {
		t.Run(fmt.Sprintf("%d bytes of shared memory", shared), func(t *testing.T) {
			l := &launch{mod: m, cfg: &Config{Kernel: k, Grid: [3]uint32{64, 1, 1}, Block: [3]uint32{32, 1, 1}},
				fn: m.Prog.Funcs[k], nblocks: 64, sharedOff: m.Prog.SharedOffsets[k], shared: shared, sharedMap: shared,
				limit: DefaultStepLimit, allocs: m.Mem.snapshot()}
			g := &GridRun{l: l}
			owner := map[uintptr]int{} // cache line -> slot
			claim := func(i int, what string, at, n uintptr) {
				for line := at / 64; line <= (at+n-1)/64; line++ {
					if j, ok := owner[line]; ok && j != i {
						t.Fatalf("slot %d's %s shares the line at %#x with slot %d's", i, what, line*64, j)
					}
					owner[line] = i
				}
			}
			for i := range 64 {
				s := g.NewSlot()
				claim(i, "BlockSlot", uintptr(unsafe.Pointer(s)), unsafe.Sizeof(s.w)+unsafe.Sizeof(s.stepping))
				if sh := s.w.blk.shared; cap(sh) > 0 {
					claim(i, "shared memory", uintptr(unsafe.Pointer(unsafe.SliceData(sh))), uintptr(cap(sh)))
				}
			}
		})
	}
}
