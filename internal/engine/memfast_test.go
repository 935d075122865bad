package engine

import (
	"fmt"
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
	for _, size := range []uint64{4, 8} {
		shift := map[uint64]string{4: "2", 8: "3"}[size]
		elem := map[uint64]string{4: "u32", 8: "u64"}[size]
		src := strings.NewReplacer("ELEM", elem, "SHIFT", shift, "SIZE", fmt.Sprint(size)).Replace(patternPTX)
		if size == 4 {
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
			{33, 2, 32}, {0, 9, 32}, {0xffffffff, 31, 32}, {0xffffffff, 40, 29}, {3, 0, 32}, {1, 0, 0},
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
