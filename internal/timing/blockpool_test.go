package timing

import (
	"reflect"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestBlockPoolBlocksAsNew: a block the device kept from an earlier grid
// (blockPool) is, once placed, what a new block is: every field of the
// block and of its warps as placeWarps sets a new one, its warps'
// scoreboards empty with the new kernel's entries (fewer than the last
// kernel's, or more than they can hold), however the earlier grid left
// them (scoreboard cycles and futures, lazy parameters, held loads, rings,
// cluster phases, constant lines).
func TestBlockPoolBlocksAsNew(t *testing.T) {
	d := New(arch.MustLookup("h100"), Options{})
	place := func(b *blockT, nslots, wpb int) *smT {
		s := &gridState{d: d, p: d.p, nslots: nslots, wpb: wpb, perSM: 2}
		sm := &smT{sps: make([]spT, d.p.SubPartitions)}
		b.sm, b.base, b.age0, b.ready0, b.issue0 = sm, 1, 40, 77, 70
		s.placeWarps(sm, b)
		return sm
	}
	// The earlier grid's block, left as a grid leaves its blocks.
	old := &blockT{}
	place(old, 12, 6)
	dirty := func(b *blockT) {
		for i, w := range b.warps {
			for r := range w.regReady {
				w.regReady[r] = 1000 + uint64(r)
				w.regKind[r] = prodLong
			}
			w.regReady[0] = futBit | 5
			w.lazy = append(w.lazy, lazyParam{reg: 3, off: 16})
			w.heldN, w.heldUntil[0] = 2, 900
			w.loadsDone[1], w.loadCount, w.storesLeft[2] = 800, 5, 700
			w.done, w.dep, w.depValid, w.ready = i%2 == 0, 5000, true, 4000
		}
		b.consts = append(b.consts, constLine{line: 2, at: 300})
		b.clPhase, b.clReady, b.draining, b.endAt, b.live = 3, 600, 1, 990, 2
	}
	for _, tc := range []struct {
		name        string
		nslots, wpb int
	}{
		{"fewer entries and warps", 7, 4},
		{"more entries than the pool's hold", 30, 4},
		{"more warps than the block had", 7, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.blocks = &blockPool{}
			dirty(old)
			d.blocks.put([]*blockT{old})
			b := d.blocks.take()
			if b != old {
				t.Fatalf("take gave %p, want the block put (%p)", b, old)
			}
			if got := d.blocks.take(); got != nil {
				t.Fatalf("a second take gave %p: the pool held one block", got)
			}
			place(b, tc.nslots, tc.wpb)
			fresh := &blockT{}
			place(fresh, tc.nslots, tc.wpb)
			if len(b.warps) != tc.wpb {
				t.Fatalf("%d warps placed, want %d", len(b.warps), tc.wpb)
			}
			for i, w := range b.warps {
				f := fresh.warps[i]
				if len(w.regReady) != tc.nslots || len(w.regKind) != tc.nslots {
					t.Fatalf("warp %d: %d and %d scoreboard entries, want %d", i, len(w.regReady), len(w.regKind), tc.nslots)
				}
				if !reflect.DeepEqual(w.regReady, f.regReady) || !reflect.DeepEqual(w.regKind, f.regKind) {
					t.Errorf("warp %d: scoreboard %v %v, a new block's %v %v", i, w.regReady, w.regKind, f.regReady, f.regKind)
				}
				if len(w.lazy) != 0 {
					t.Errorf("warp %d: lazy parameters %v kept", i, w.lazy)
				}
				wc, fc := *w, *f
				wc.blk, wc.sp, wc.regReady, wc.regKind, wc.lazy = nil, nil, nil, nil, nil
				fc.blk, fc.sp, fc.regReady, fc.regKind, fc.lazy = nil, nil, nil, nil, nil
				if !reflect.DeepEqual(wc, fc) {
					t.Errorf("warp %d: %+v\nwant (a new block's) %+v", i, wc, fc)
				}
			}
			bc, fb := *b, *fresh
			bc.warps, bc.sm, bc.consts, fb.warps, fb.sm, fb.consts = nil, nil, nil, nil, nil, nil
			if !reflect.DeepEqual(bc, fb) || len(b.consts) != 0 {
				t.Errorf("block %+v (consts %v)\nwant (a new one) %+v", bc, b.consts, fb)
			}
		})
	}
}
