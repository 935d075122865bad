package timing

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"

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

// TestBlockPoolKeepsWarpsBeyondLen: a block that held more warps in an
// earlier grid than in the last one keeps them in the pool, and a grid of
// larger blocks takes them instead of making new ones (an initialization
// of blocks of 8 warps alternating with a reduction of 16 made half the
// reduction's warps and scoreboards again at every launch).
func TestBlockPoolKeepsWarpsBeyondLen(t *testing.T) {
	d := New(arch.MustLookup("h100"), Options{})
	d.blocks = &blockPool{}
	place := func(b *blockT, wpb int) {
		s := &gridState{d: d, p: d.p, nslots: 10, wpb: wpb, perSM: 2}
		sm := &smT{sps: make([]spT, d.p.SubPartitions)}
		b.sm = sm
		s.placeWarps(sm, b)
	}
	b := &blockT{}
	place(b, 16)
	made := append([]*warpT(nil), b.warps...)
	d.blocks.put([]*blockT{b})
	place(d.blocks.take(), 8) // a grid of smaller blocks
	d.blocks.put([]*blockT{b})
	got := d.blocks.take()
	if got != b {
		t.Fatalf("take gave %p, want the block put (%p)", got, b)
	}
	place(got, 16)
	for i, w := range got.warps {
		if w != made[i] {
			t.Errorf("warp %d was made again (%p), want the block's own (%p)", i, w, made[i])
		}
		if w.idx != i || len(w.regReady) != 10 {
			t.Errorf("warp %d: index %d, %d scoreboard entries: not placed as new", i, w.idx, len(w.regReady))
		}
	}
}

// TestSMResetAsNew: an SM the device kept from its last grid (takeSMs) is,
// once reset, what a new one is, field by field (slices by their length
// and elements, not their capacity), whatever the grid left in any of its
// fields: every field of the kept SM, its sub-partitions' and its
// quantum state's, is set before the reset.
func TestSMResetAsNew(t *testing.T) {
	p := New(arch.MustLookup("h100"), Options{}).p
	old := &smT{sps: make([]spT, p.SubPartitions)}
	fillAll(reflect.ValueOf(old).Elem(), 0)
	old.sps = make([]spT, p.SubPartitions)
	for i := range old.sps {
		fillAll(reflect.ValueOf(&old.sps[i]).Elem(), 0)
	}
	old.reset(5, p)
	fresh := &smT{sps: make([]spT, p.SubPartitions)}
	fresh.reset(5, p)
	if err := sameAsNew(reflect.ValueOf(old).Elem(), reflect.ValueOf(fresh).Elem(), "smT"); err != "" {
		t.Fatal(err)
	}
	if old.id != 5 || old.sps[3].idx != 3 || old.l1q.bytesPerCycle != float64(p.L1BytesPerCycle) {
		t.Fatalf("reset SM: id %d, sub-partition 3's index %d, L1 queue %v", old.id, old.sps[3].idx, old.l1q.bytesPerCycle)
	}
}

// fillAll sets every field of v (a settable struct, array or scalar),
// exported or not, to a value not its zero: numbers 3, booleans true,
// pointers a new zero value, slices one element (filled in turn, down to
// depth 8).
func fillAll(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillAll(v.Field(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillAll(v.Index(i), depth+1)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 4)
		fillAll(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(3)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(3)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	}
}

// sameAsNew reports where got differs from want ("" where it does not):
// slices compared by length and elements, pointers by identity, unexported
// fields included.
func sameAsNew(got, want reflect.Value, path string) string {
	switch got.Kind() {
	case reflect.Struct:
		for i := range got.NumField() {
			if e := sameAsNew(got.Field(i), want.Field(i), path+"."+got.Type().Field(i).Name); e != "" {
				return e
			}
		}
	case reflect.Array, reflect.Slice:
		if got.Len() != want.Len() {
			return fmt.Sprintf("%s: length %d, a new SM's %d", path, got.Len(), want.Len())
		}
		for i := range got.Len() {
			if e := sameAsNew(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i)); e != "" {
				return e
			}
		}
	case reflect.Pointer, reflect.Map:
		if got.Pointer() != want.Pointer() {
			return fmt.Sprintf("%s: %#x, a new SM's %#x", path, got.Pointer(), want.Pointer())
		}
	case reflect.Bool:
		if got.Bool() != want.Bool() {
			return fmt.Sprintf("%s: %v, a new SM's %v", path, got.Bool(), want.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if got.Int() != want.Int() {
			return fmt.Sprintf("%s: %d, a new SM's %d", path, got.Int(), want.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if got.Uint() != want.Uint() {
			return fmt.Sprintf("%s: %d, a new SM's %d", path, got.Uint(), want.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if got.Float() != want.Float() {
			return fmt.Sprintf("%s: %v, a new SM's %v", path, got.Float(), want.Float())
		}
	}
	return ""
}
