package engine

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// patternPTX: lane l of one warp (l < active) reads in[l*stride+off],
// stores it to shared word (l*stride+off) mod 1024, reads it back and
// writes it to out[l*stride+off]. ELEM is the element type, SHIFT its log2
// size.
const patternPTX = `
.visible .entry pat(.param .u64 in, .param .u64 out, .param .u64 stride, .param .u64 off, .param .u64 active)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.shared .align 8 .b8 sm[8192];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u64 %rd6, [stride];
	ld.param.u64 %rd7, [off];
	ld.param.u64 %rd8, [active];
	cvt.u32.u64 %r1, %rd6;
	cvt.u32.u64 %r2, %rd7;
	cvt.u32.u64 %r3, %rd8;
	mov.u32 %r4, %tid.x;
	setp.lt.u32 %p1, %r4, %r3;
	mad.lo.s32 %r5, %r4, %r1, %r2;
	mul.wide.u32 %rd3, %r5, SIZE;
	add.s64 %rd4, %rd1, %rd3;
	@%p1 ld.global.ELEM %rd9, [%rd4];
	and.b32 %r7, %r5, 1023;
	shl.b32 %r8, %r7, SHIFT;
	mov.u32 %r9, sm;
	add.s32 %r10, %r9, %r8;
	@%p1 st.shared.ELEM [%r10], %rd9;
	@%p1 ld.shared.ELEM %rd10, [%r10];
	add.s64 %rd5, %rd2, %rd3;
	@%p1 st.global.ELEM [%rd5], %rd10;
	ret;
}
`

// refFootprint is the reference for the counters, written from their
// definitions: the distinct 32-byte sectors of the lanes' byte addresses,
// and for shared memory the most distinct 4-byte words any one of the 32
// banks serves (wavefronts) against the fewest the distinct words need.
func refFootprint(offs []uint64, size uint64) (sectors, wave, ideal uint64) {
	sec := map[uint64]bool{}
	words := map[uint64]bool{}
	for _, o := range offs {
		for b := o; b < o+size; b++ {
			sec[b/32] = true
		}
		for w := o / 4; w <= (o+size-1)/4; w++ {
			words[w] = true
		}
	}
	var per [32]uint64
	for w := range words {
		per[w%32]++
		wave = max(wave, per[w%32])
	}
	return uint64(len(sec)), wave, (uint64(len(words)) + 31) / 32
}

// TestMemoryFootprintPatterns runs one warp's global and shared accesses in
// many patterns (coalesced, offset, strided, broadcast, reversed, partial
// warps, bank conflicts) and checks the data moved and every memory
// counter against refFootprint.
func TestMemoryFootprintPatterns(t *testing.T) {
	const n = 4096
	for _, size := range []uint64{1, 2, 4, 8} {
		shift := map[uint64]string{1: "0", 2: "1", 4: "2", 8: "3"}[size]
		elem := map[uint64]string{1: "u8", 2: "u16", 4: "u32", 8: "u64"}[size]
		src := strings.NewReplacer("ELEM", elem, "SHIFT", shift, "SIZE", fmt.Sprint(size)).Replace(patternPTX)
		if size <= 4 {
			// 32-bit registers for the 32-bit forms.
			src = strings.NewReplacer("%rd9", "%r6", "%rd10", "%r11").Replace(src)
		}
		m := testModule(t, src)
		in := m.buffer(t, int(n*size))
		data, _ := m.Mem.Bytes(in, n*size)
		for i := range data {
			data[i] = byte(i*7 + i>>8)
		}
		for _, tc := range []struct{ stride, off, active uint64 }{
			{1, 0, 32}, {1, 3, 32}, {1, 0, 17}, {1, 5, 1}, {2, 0, 32}, {8, 1, 32}, {32, 0, 32},
			{33, 2, 32}, {0, 9, 32}, {0, n - 1, 32}, {0, 5, 31}, {0xffffffff, 31, 32}, {0xffffffff, 40, 29}, {3, 0, 32}, {1, 0, 0},
		} {
			name := fmt.Sprintf("%d-byte/stride=%d,off=%d,active=%d", size, int32(tc.stride), tc.off, tc.active)
			t.Run(name, func(t *testing.T) {
				out := m.buffer(t, int(n*size))
				c, _, err := m.launchTest(t, run{kernel: "pat", block: [3]uint32{32}, params: u64p(in, out, tc.stride, tc.off, tc.active)})
				if err != nil {
					t.Fatal(err)
				}
				var goffs, soffs []uint64
				for l := uint64(0); l < tc.active; l++ {
					idx := uint64(uint32(l*tc.stride + tc.off))
					goffs = append(goffs, idx*size)
					soffs = append(soffs, idx%1024*size)
				}
				got, _ := m.Mem.Bytes(out, n*size)
				for _, o := range goffs {
					if string(got[o:o+size]) != string(data[o:o+size]) {
						t.Fatalf("out at byte %d = %x, want %x", o, got[o:o+size], data[o:o+size])
					}
				}
				k := uint64(len(goffs))
				req := min(k, 1)
				gsec, _, _ := refFootprint(goffs, size)
				_, wave, ideal := refFootprint(soffs, size)
				want := Counters{GldRequests: req, GldTransactions: gsec, GldBytes: k * size,
					GstRequests: req, GstTransactions: gsec, GstBytes: k * size,
					SharedLoadRequests: req, SharedStoreRequests: req,
					SharedLoadTransactions: wave, SharedStoreTransactions: wave,
					SharedLdBankConflict: wave - ideal, SharedStBankConflict: wave - ideal}
				have := Counters{GldRequests: c.GldRequests, GldTransactions: c.GldTransactions, GldBytes: c.GldBytes,
					GstRequests: c.GstRequests, GstTransactions: c.GstTransactions, GstBytes: c.GstBytes,
					SharedLoadRequests: c.SharedLoadRequests, SharedStoreRequests: c.SharedStoreRequests,
					SharedLoadTransactions: c.SharedLoadTransactions, SharedStoreTransactions: c.SharedStoreTransactions,
					SharedLdBankConflict: c.SharedLdBankConflict, SharedStBankConflict: c.SharedStBankConflict}
				if have != want {
					t.Errorf("counters\n got %+v\nwant %+v", have, want)
				}
			})
		}
	}
}

// TestMemoryPatternFaults: a request whose lanes are not all in bounds or
// not all aligned faults at its first bad lane, as lane-by-lane execution
// would, having written nothing for it.
func TestMemoryPatternFaults(t *testing.T) {
	src := strings.NewReplacer("ELEM", "u32", "SHIFT", "2", "SIZE", "4", "%rd9", "%r6", "%rd10", "%r11").Replace(patternPTX)
	m := testModule(t, src)
	in := m.buffer(t, 64*4) // 64 elements: lanes past them are out of bounds
	for _, tc := range []struct {
		stride, off uint64
		lane        uint32
		kind        FaultKind
	}{
		{1, 40, 24, FaultOutOfBounds}, // lanes 24..31 read past the end
		{3, 0, 22, FaultOutOfBounds},  // 3*22 = 66
		{0xffffffff, 20, 21, FaultOutOfBounds},
		{0, 64, 0, FaultOutOfBounds}, // a broadcast of the element past the end
	} {
		out := m.buffer(t, 64*4)
		_, _, err := m.launchTest(t, run{kernel: "pat", block: [3]uint32{32}, params: u64p(in, out, tc.stride, tc.off, 32)})
		f, ok := err.(*Fault)
		if !ok || f.Kind != tc.kind || f.Thread[0] != tc.lane {
			t.Errorf("stride %d off %d: err = %v, want a %v fault at thread %d", int32(tc.stride), tc.off, err, tc.kind, tc.lane)
			continue
		}
		if want := in + uint64(uint32(tc.lane*uint32(tc.stride)+uint32(tc.off)))*4; f.Addr != want {
			t.Errorf("stride %d off %d: fault address %#x, want %#x", int32(tc.stride), tc.off, f.Addr, want)
		}
	}
	// A misaligned base: every lane is misaligned, lane 0 reports it.
	out := m.buffer(t, 64*4)
	_, _, err := m.launchTest(t, run{kernel: "pat", block: [3]uint32{32}, params: u64p(in+2, out, 1, 0, 32)})
	if f, ok := err.(*Fault); !ok || f.Kind != FaultMisaligned || f.Thread[0] != 0 || f.Addr != in+2 {
		t.Errorf("misaligned: err = %v, want a misaligned fault at thread 0, address %#x", err, in+2)
	}
}

// stepRecorder is a driver that steps one block's warps in turn and keeps
// the records of its memory instructions.
type stepRecorder struct{ recs []StepRecord }

func (d *stepRecorder) RunGrid(g *GridRun) error {
	s := g.NewSlot()
	s.Start(0)
	var rec StepRecord
	for s.Live() > 0 && s.Fault() == nil {
		for i := 0; i < s.Warps(); i++ {
			if s.Step(i, &rec) && rec.Space != SpaceNone {
				r := rec
				r.Sectors = append([]uint64(nil), rec.Sectors...)
				d.recs = append(d.recs, r)
			}
		}
	}
	return nil
}

// TestStepRecordFootprints: under a stepping driver the records of the
// pattern kernel's accesses hold the sectors in first-touch order and the
// wavefronts refFootprint gives.
func TestStepRecordFootprints(t *testing.T) {
	src := strings.NewReplacer("ELEM", "u32", "SHIFT", "2", "SIZE", "4", "%rd9", "%r6", "%rd10", "%r11").Replace(patternPTX)
	m := testModule(t, src)
	const n = 4096
	in, out := m.buffer(t, 4*n), m.buffer(t, 4*n)
	for _, tc := range []struct{ stride, off, active uint64 }{
		{1, 0, 32}, {1, 3, 32}, {2, 0, 17}, {0xffffffff, 40, 32}, {0, 5, 32}, {33, 1, 32}, {8, 0, 32},
	} {
		d := &stepRecorder{}
		k := m.Prog.FuncByName["pat"]
		cfg := &Config{Kernel: k, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Params: u64p(in, out, tc.stride, tc.off, tc.active),
			SMs: 132, MaxWarpsPerSM: 64, Driver: d}
		if _, err := m.Launch(cfg); err != nil {
			t.Fatal(err)
		}
		var goffs, soffs []uint64
		var first []uint64 // sectors in first-touch order
		seen := map[uint64]bool{}
		for l := uint64(0); l < tc.active; l++ {
			idx := uint64(uint32(l*tc.stride + tc.off))
			goffs = append(goffs, idx*4)
			soffs = append(soffs, idx%1024*4)
			if s := (in + idx*4) >> 5; !seen[s] {
				seen[s] = true
				first = append(first, s)
			}
		}
		_, wave, _ := refFootprint(soffs, 4)
		var spaces []uint8
		for _, r := range d.recs {
			spaces = append(spaces, r.Space)
		}
		var gl, ss, ls, sg *StepRecord
		for i := range d.recs {
			r := &d.recs[i]
			switch {
			case r.Space == SpaceGlobal && !r.Store:
				gl = r
			case r.Space == SpaceShared && r.Store:
				ss = r
			case r.Space == SpaceShared:
				ls = r
			case r.Space == SpaceGlobal:
				sg = r
			}
		}
		name := fmt.Sprintf("stride=%d,off=%d,active=%d", int32(tc.stride), tc.off, tc.active)
		if gl == nil || ss == nil || ls == nil || sg == nil {
			t.Fatalf("%s: records by space %v, want a global load and store and a shared load and store", name, spaces)
		}
		if fmt.Sprint(gl.Sectors) != fmt.Sprint(first) || gl.Bytes != uint32(4*len(goffs)) {
			t.Errorf("%s: load sectors %v (%d bytes), want %v (%d bytes)", name, gl.Sectors, gl.Bytes, first, 4*len(goffs))
		}
		if ss.Wavefronts != uint32(wave) || ls.Wavefronts != uint32(wave) {
			t.Errorf("%s: shared wavefronts store %d load %d, want %d", name, ss.Wavefronts, ls.Wavefronts, wave)
		}
	}
}

// rangeEdgePTX: lane l copies in[off+l] to out[off+l] (64-bit elements)
// and stores l+1 to shared word soff+l of a 64-word array, then reads it
// back into res[l].
const rangeEdgePTX = `
.visible .entry edge(.param .u64 in, .param .u64 out, .param .u64 off, .param .u32 soff, .param .u64 res)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	.shared .align 4 .b8 sm[256];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u64 %rd3, [off];
	ld.param.u32 %r1, [soff];
	ld.param.u64 %rd11, [res];
	mov.u32 %r2, %tid.x;
	cvt.u64.u32 %rd4, %r2;
	add.s64 %rd4, %rd4, %rd3;
	shl.b64 %rd4, %rd4, 3;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	ld.global.u64 %rd7, [%rd5];
	st.global.u64 [%rd6], %rd7;
	add.s32 %r3, %r2, %r1;
	shl.b32 %r3, %r3, 2;
	mov.u32 %r4, sm;
	add.s32 %r4, %r4, %r3;
	add.s32 %r5, %r2, 1;
	st.shared.u32 [%r4], %r5;
	ld.shared.u32 %r6, [%r4];
	mul.wide.u32 %rd8, %r2, 4;
	add.s64 %rd9, %rd11, %rd8;
	st.global.u32 [%rd9], %r6;
	ret;
}
`

// TestWarpRangeEdges: a whole warp's consecutive request that ends
// exactly at the end of its allocation or of shared memory runs (and moves
// the right data); one element further it faults at lane 31, at lane 31's
// address, as lane-by-lane execution would.
func TestWarpRangeEdges(t *testing.T) {
	m := testModule(t, rangeEdgePTX)
	const n = 64
	in, out, res := m.buffer(t, 8*n), m.buffer(t, 8*n), m.buffer(t, 4*32)
	data, _ := m.Mem.Bytes(in, 8*n)
	for i := range data {
		data[i] = byte(i*13 + 1)
	}
	for _, tc := range []struct {
		name      string
		off, soff uint64
		faultAt   uint64 // 0: no fault, else the faulting address
	}{
		{"both inside", 0, 0, 0},
		{"both at the end", 32, 32, 0},
		{"global one past the end", 33, 0, in + 8*n},
		{"shared one past the end", 0, 33, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := append(u64p(in, out, tc.off), u32p(uint32(tc.soff))...)
			params = append(params, 0, 0, 0, 0) // res is 8-byte aligned
			params = append(params, u64p(res)...)
			_, _, err := m.launchTest(t, run{kernel: "edge", block: [3]uint32{32}, params: params})
			if tc.faultAt != 0 {
				f, ok := err.(*Fault)
				if !ok || f.Kind != FaultOutOfBounds || f.Thread[0] != 31 || f.Addr != tc.faultAt {
					t.Fatalf("err = %v, want an out-of-bounds fault at thread 31, address %#x", err, tc.faultAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(out, 8*n)
			o := 8 * tc.off
			if string(got[o:o+8*32]) != string(data[o:o+8*32]) {
				t.Errorf("out = %x, want %x", got[o:o+8*32], data[o:o+8*32])
			}
			for l, v := range m.u32s(t, res, 32) {
				if v != uint32(l+1) {
					t.Errorf("res[%d] = %d, want %d (shared word %d)", l, v, l+1, tc.soff+uint64(l))
				}
			}
		})
	}
}

// sharedAtomPTX: lane l adds l+1 to shared word (l % 4) + off through a
// generic address (atom.add) and through the shared window (atom.shared.max
// of l on word 4), keeps what atom.add returned in res[l], and copies the
// five words to res[32..36].
const sharedAtomPTX = `
.visible .entry satom(.param .u64 res, .param .u32 off)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.shared .align 4 .b8 sm[20];
	ld.param.u64 %rd1, [res];
	ld.param.u32 %r1, [off];
	mov.u32 %r2, %tid.x;
	setp.ne.u32 %p1, %r2, 0;
	mov.u32 %r3, 0;
	@!%p1 st.shared.u32 [sm], %r3;
	@!%p1 st.shared.u32 [sm+4], %r3;
	@!%p1 st.shared.u32 [sm+8], %r3;
	@!%p1 st.shared.u32 [sm+12], %r3;
	@!%p1 st.shared.u32 [sm+16], %r3;
	bar.sync 0;
	and.b32 %r4, %r2, 3;
	add.s32 %r4, %r4, %r1;
	shl.b32 %r4, %r4, 2;
	mov.u64 %rd2, sm;
	cvta.shared.u64 %rd3, %rd2;
	cvt.u64.u32 %rd4, %r4;
	add.s64 %rd5, %rd3, %rd4;
	add.s32 %r5, %r2, 1;
	atom.add.u32 %r6, [%rd5], %r5;
	atom.shared.max.u32 %r7, [sm+16], %r2;
	mul.wide.u32 %rd6, %r2, 4;
	add.s64 %rd7, %rd1, %rd6;
	st.global.u32 [%rd7], %r6;
	bar.sync 0;
	@%p1 bra $done;
	ld.shared.u32 %r8, [sm];
	st.global.u32 [%rd1+128], %r8;
	ld.shared.u32 %r8, [sm+4];
	st.global.u32 [%rd1+132], %r8;
	ld.shared.u32 %r8, [sm+8];
	st.global.u32 [%rd1+136], %r8;
	ld.shared.u32 %r8, [sm+12];
	st.global.u32 [%rd1+140], %r8;
	ld.shared.u32 %r8, [sm+16];
	st.global.u32 [%rd1+144], %r8;
$done:
	ret;
}
`

// TestSharedAtomics: 4-byte atomics on shared memory, generic and
// .shared, return each lane the word as the lanes before it in lane order
// left it and leave the totals; a lane past the end of shared memory
// faults there (lane 3 with off 2: word 5 of 5).
func TestSharedAtomics(t *testing.T) {
	m := testModule(t, sharedAtomPTX)
	res := m.buffer(t, 4*37)
	params := append(u64p(res), u32p(0)...)
	if _, _, err := m.launchTest(t, run{kernel: "satom", block: [3]uint32{32}, params: params}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, res, 37)
	var sum [4]uint32
	for l := uint32(0); l < 32; l++ {
		if got[l] != sum[l%4] {
			t.Errorf("lane %d: atom.add returned %d, want %d", l, got[l], sum[l%4])
		}
		sum[l%4] += l + 1
	}
	want := []uint32{sum[0], sum[1], sum[2], sum[3], 31}
	for i, w := range want {
		if got[32+i] != w {
			t.Errorf("shared word %d = %d, want %d", i, got[32+i], w)
		}
	}
	params = append(u64p(res), u32p(2)...)
	_, _, err := m.launchTest(t, run{kernel: "satom", block: [3]uint32{32}, params: params})
	if f, ok := err.(*Fault); !ok || f.Kind != FaultOutOfBounds || f.Thread[0] != 3 {
		t.Errorf("off 2: err = %v, want an out-of-bounds fault at thread 3", err)
	}
}

// TestNoteDistinct: noteDistinct keeps each value once, in first-arrival
// order, through increasing runs, repeats, values whose filter bits
// collide, a set emptied between requests and one appended to elsewhere.
func TestNoteDistinct(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var set []uint64
	var f distinctFilter
	sorted := true
	for round := 0; round < 2000; round++ {
		if round%7 == 0 {
			set, sorted = set[:0], true
			if round%3 == 0 {
				// Appended to elsewhere (noteSectorsWarp's range).
				for v := uint64(100); v < 104; v++ {
					set = append(set, v)
				}
				f.n = -1
			}
		}
		var want []uint64
		seen := map[uint64]bool{}
		for _, v := range set {
			seen[v] = true
			want = append(want, v)
		}
		for i := 0; i < 40; i++ {
			var v uint64
			switch rng.Intn(4) {
			case 0:
				v = uint64(i) // increasing
			case 1:
				v = uint64(rng.Intn(8)) + 100 // repeats
			case 2:
				v = uint64(rng.Intn(64)) << 6 // stride 64: bits collide
			default:
				v = rng.Uint64()
			}
			set, sorted = noteDistinct(set, sorted, &f, v)
			if !seen[v] {
				seen[v] = true
				want = append(want, v)
			}
		}
		if fmt.Sprint(set) != fmt.Sprint(want) {
			t.Fatalf("round %d: set %v, want %v", round, set, want)
		}
	}
}

// TestLaneSteps checks laneSteps, which decides from the last lane which
// pattern to compare the others against, against the definition lane by
// lane: consecutive when every lane l holds r[0] + l*n, uniform when every
// lane holds r[0] (modulo 2^64), on patterns of both kinds at random
// addresses (some about to wrap), strides 0, 1, 2, 4, 8, 16 and two that
// wrap, with one lane now and then disturbed by a bit anywhere.
func TestLaneSteps(t *testing.T) {
	def := func(r *[32]uint64, n uint64) (cons, uniform bool) {
		cons, uniform = true, true
		for l := range r {
			cons = cons && r[l] == r[0]+uint64(l)*n
			uniform = uniform && r[l] == r[0]
		}
		return cons, uniform
	}
	rng := rand.New(rand.NewSource(1))
	seen := map[[2]bool]int{}
	for i := 0; i < 200000; i++ {
		var r [32]uint64
		n := []uint64{0, 1, 2, 4, 8, 16, ^uint64(3), 1 << 63}[rng.Intn(8)]
		base := rng.Uint64()
		if rng.Intn(4) == 0 {
			base = ^uint64(0) - uint64(rng.Intn(64))
		}
		step := n
		if rng.Intn(3) == 0 {
			step = 0
		}
		for l := range r {
			r[l] = base + step*uint64(l)
		}
		if rng.Intn(2) == 0 {
			r[rng.Intn(32)] += uint64(1+rng.Intn(3)) << uint(rng.Intn(64))
		}
		wc, wu := def(&r, n)
		if c, u := laneSteps(&r, n); c != wc || u != wu {
			t.Fatalf("lanes %#x, n %d: laneSteps says consecutive %v uniform %v, want %v %v", r, n, c, u, wc, wu)
		}
		if c, u := laneStepsGo(&r, n); c != wc || u != wu {
			t.Fatalf("lanes %#x, n %d: laneStepsGo says consecutive %v uniform %v, want %v %v", r, n, c, u, wc, wu)
		}
		seen[[2]bool{wc, wu}]++
	}
	for _, k := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		if seen[k] == 0 {
			t.Errorf("no case with consecutive %v uniform %v", k[0], k[1])
		}
	}
}

// partPTX: a warp fills 64 shared words (word i holds i*3+7), then its
// lanes lo <= l < hi load word (base + l*step)/4, store l+100 there when
// store is set, and every lane writes what it loaded (0xdead if it did
// not) to out[l] and the 64 words after it to out[32...].
const partPTX = `
.visible .entry part(.param .u64 out, .param .u32 lo, .param .u32 hi, .param .u32 base, .param .u32 step, .param .u32 store)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b8 sm[256];
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [lo];
	ld.param.u32 %r2, [hi];
	ld.param.u32 %r3, [base];
	ld.param.u32 %r11, [step];
	ld.param.u32 %r12, [store];
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, sm;
	shl.b32 %r6, %r4, 2;
	add.s32 %r6, %r5, %r6;
	mad.lo.s32 %r7, %r4, 3, 7;
	st.shared.u32 [%r6], %r7;
	add.s32 %r7, %r7, 96;
	st.shared.u32 [%r6+128], %r7;
	bar.sync 0;
	setp.ge.u32 %p1, %r4, %r1;
	setp.lt.and.u32 %p2, %r4, %r2, %p1;
	setp.ne.and.u32 %p3, %r12, 0, %p2;
	mad.lo.s32 %r8, %r4, %r11, %r3;
	add.s32 %r8, %r8, %r5;
	mov.u32 %r9, 0xdead;
	@%p2 ld.shared.u32 %r9, [%r8];
	add.s32 %r10, %r4, 100;
	@%p3 st.shared.u32 [%r8], %r10;
	bar.sync 0;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r9;
	ld.shared.u32 %r13, [%r6];
	st.global.u32 [%rd3+128], %r13;
	ld.shared.u32 %r13, [%r6+128];
	st.global.u32 [%rd3+256], %r13;
	ret;
}
`

// TestSharedPartialWarp: a part of a warp loading or storing consecutive
// shared words, or loading one word for all its lanes (sharedPart), moves
// the words a lane-by-lane reference says, counts one request and one
// wavefront without a bank conflict each, for windows of lanes anywhere in
// the warp and for every other lane; a window running past the end of
// shared memory faults at its first lane outside it.
func TestSharedPartialWarp(t *testing.T) {
	m := testModule(t, partPTX)
	out := m.buffer(t, 4*96)
	for _, tc := range []struct {
		name                      string
		lo, hi, base, step, store uint32
		faultLane                 int // -1: none
	}{
		{"lanes 5-20 consecutive", 5, 21, 0, 4, 1, -1},
		{"lanes 16-31 consecutive, offset", 16, 32, 40, 4, 1, -1},
		{"lane 31 alone", 31, 32, 8, 4, 1, -1},
		{"lanes 3-29 one word", 3, 30, 60, 0, 0, -1},
		{"lanes 1-31 at the end", 1, 32, 256 - 4*32, 4, 1, -1},
		{"lanes 2-9 one past the end", 2, 10, 256 - 4*9, 4, 0, 9},
		{"lanes 10-12 misaligned", 10, 13, 2, 4, 0, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := u64p(out)
			for _, v := range []uint32{tc.lo, tc.hi, tc.base, tc.step, tc.store} {
				params = append(params, u32p(v)...)
			}
			c, _, err := m.launchTest(t, run{kernel: "part", block: [3]uint32{32}, params: params})
			if tc.faultLane >= 0 {
				f, ok := err.(*Fault)
				if !ok || f.Thread[0] != uint32(tc.faultLane) || f.Addr != uint64(tc.base+uint32(tc.faultLane)*tc.step) {
					t.Fatalf("err = %v, want a fault at thread %d, address %#x", err, tc.faultLane, tc.base+uint32(tc.faultLane)*tc.step)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var words [64]uint32
			for i := range words {
				words[i] = uint32(i*3 + 7)
			}
			var want [96]uint32
			for l := uint32(0); l < 32; l++ {
				want[l] = 0xdead
				if l >= tc.lo && l < tc.hi {
					want[l] = words[(tc.base+l*tc.step)/4]
				}
			}
			for l := tc.lo; l < tc.hi && tc.store != 0; l++ {
				words[(tc.base+l*tc.step)/4] = l + 100
			}
			copy(want[32:], words[:])
			got, _ := m.Mem.Bytes(out, 4*96)
			for i := range want {
				if g := binary.LittleEndian.Uint32(got[4*i:]); g != want[i] {
					t.Errorf("out[%d] = %d, want %d", i, g, want[i])
				}
			}
			wantSt := uint64(2 + tc.store)
			if c.SharedLoadRequests != 3 || c.SharedLoadTransactions != 3 || c.SharedStoreRequests != wantSt || c.SharedStoreTransactions != wantSt ||
				c.SharedLdBankConflict != 0 || c.SharedStBankConflict != 0 {
				t.Errorf("shared loads %d requests, %d wavefronts, %d conflicts; stores %d, %d, %d; want 3, 3, 0; %d, %d, 0",
					c.SharedLoadRequests, c.SharedLoadTransactions, c.SharedLdBankConflict,
					c.SharedStoreRequests, c.SharedStoreTransactions, c.SharedStBankConflict, wantSt, wantSt)
			}
		})
	}
}
