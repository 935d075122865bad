package sanitize_test

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/sanitize"
)

// equalValueKernels write shared words with the values already there, as
// testdata/sanitize's race_waw_same.cu, race_waw_mixed.cu and
// race_raw_same.cu do on the H100 (64 threads: warps 0 and 1).
const equalValueKernels = header + `
// Every thread writes 7 to one word (race_waw_same.cu).
.visible .entry wawSame(.param .u64 out)
{
	.shared .align 4 .b32 s;
	st.shared.u32 [s], 7;
	ret;
}
// Warp 0 writes 7, then warp 1 writes 9 (race_waw_mixed.cu).
.visible .entry wawMixed(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p;
	.shared .align 4 .b32 s;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p, %r1, 32;
	selp.u32 %r2, 7, 9, %p;
	st.shared.u32 [s], %r2;
	ret;
}
// a = 5 and b = 1; a barrier; then thread 0 writes 5 to a (what is there)
// and 6 to b, and warp 1 reads both with no barrier between
// (race_raw_same.cu).
.visible .entry rawSame(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p<3>;
	.shared .align 4 .b32 a;
	.shared .align 4 .b32 b;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 st.shared.u32 [a], 5;
	@%p1 st.shared.u32 [b], 1;
	bar.sync 0;
	@%p1 st.shared.u32 [a], 5;
	@%p1 st.shared.u32 [b], 6;
	setp.ge.u32 %p2, %r1, 32;
	@%p2 ld.shared.u32 %r2, [a];
	@%p2 ld.shared.u32 %r3, [b];
	ret;
}
`

// TestEqualValueWrites: racecheck raises no hazard for a write of what a
// shared word holds, as the H100's compute-sanitizer does (recorded in
// testdata/sanitize/recorded: race_waw_same 0 hazards, race_waw_mixed one
// WAW hazard at the int's low byte, race_raw_same four hazards for b's
// 1 → 6 and none for a's 5 → 5; the 32 lanes of warp 2 reading b are
// one hazard per byte, [4 hazards], as the H100 counted them).
func TestEqualValueWrites(t *testing.T) {
	hazard := sanitize.Options{Tool: sanitize.Racecheck, RaceReport: sanitize.ReportHazard}
	analysis := sanitize.Options{Tool: sanitize.Racecheck}
	tests := []struct {
		kernel string
		opt    sanitize.Options
		want   []string
		not    []string
	}{
		{"wawSame", analysis, []string{"RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"}, nil},
		{"wawMixed", hazard, []string{"Potential WAW hazard detected at __shared__ 0x400 in block (0,0,0)",
			"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"}, []string{"0x401", "0x402", "0x403"}},
		{"rawSame", analysis, []string{"Write access at rawSame+0x60 in t.ptx:39", "Read access at rawSame+0x90 in t.ptx:42 [4 hazards]", "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"},
			[]string{"t.ptx:38", "t.ptx:41"}},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			out, _, err := runKernel(t, tc.opt, equalValueKernels, tc.kernel, 1, 64)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("report has %q:\n%s", w, out)
				}
			}
		})
	}
}

// warSameKernel: s = 5, a barrier; then warp 0 reads s and thread 32 writes
// 5 to it with no barrier between: a WAR although the write changes
// nothing, as the H100 reports probe2/reduce_war.cu's ("Potential WAR
// hazard ... Current Value : 0, Incoming Value : 0", on every byte).
const warSameKernel = header + `
.visible .entry warSame(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p<4>;
	.shared .align 4 .b32 s;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 st.shared.u32 [s], 5;
	bar.sync 0;
	setp.lt.u32 %p2, %r1, 32;
	@%p2 ld.shared.u32 %r2, [s];
	setp.eq.u32 %p3, %r1, 32;
	@%p3 st.shared.u32 [s], 5;
	ret;
}
`

func TestEqualValueWAR(t *testing.T) {
	opt := sanitize.Options{Tool: sanitize.Racecheck, RaceReport: sanitize.ReportHazard}
	out, _, err := runKernel(t, opt, warSameKernel, "warSame", 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Potential WAR hazard detected at __shared__ 0x400", "Potential WAR hazard detected at __shared__ 0x403",
		"RACECHECK SUMMARY: 4 hazards displayed (4 errors, 0 warnings)"} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
}

// groupOrderKernel races on a byte array, then on a short array (64
// threads: thread t writes c[t] and h[t], then reads c[63-t] and h[63-t]):
// the char array's pair is found first with 64 hazards, the short array's
// with 128.
const groupOrderKernel = header + `
.visible .entry groupOrder(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b16 %h<4>;
	.shared .align 2 .b8 c[64];
	.shared .align 2 .b8 h[128];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, c;
	add.u32 %r3, %r2, %r1;
	st.shared.u8 [%r3], %r1;
	mov.u32 %r4, h;
	shl.b32 %r5, %r1, 1;
	add.u32 %r5, %r4, %r5;
	st.shared.u16 [%r5], %r1;
	sub.u32 %r6, 63, %r1;
	add.u32 %r7, %r2, %r6;
	ld.shared.u8 %h1, [%r7];
	shl.b32 %r6, %r6, 1;
	add.u32 %r7, %r4, %r6;
	ld.shared.u16 %h2, [%r7];
	ret;
}
`

// TestRaceGroupOrder: the analysis report lists the pair with the most
// hazards first, as the H100 does (probe2/recorded/race_bytes.racecheck:
// the short array's 256 hazards before the char array's 128).
func TestRaceGroupOrder(t *testing.T) {
	out, _, err := runKernel(t, sanitize.Options{Tool: sanitize.Racecheck}, groupOrderKernel, "groupOrder", 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	i128, i64 := strings.Index(out, "[128 hazards]"), strings.Index(out, "[64 hazards]")
	if i128 < 0 || i64 < 0 || i128 > i64 {
		t.Errorf("want the 128-hazard pair before the 64-hazard one:\n%s", out)
	}
}

// groupKernel: 64 threads store the low then the high half of word t, then
// read word 63-t twice: each store races with both loads, four pairs.
const groupKernel = header + `
.visible .entry grouped(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b16 %h<2>;
	.shared .align 4 .b8 s[256];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, s;
	shl.b32 %r3, %r1, 2;
	add.u32 %r3, %r2, %r3;
	cvt.u16.u32 %h1, %r1;
	st.shared.u16 [%r3], %h1;
	st.shared.u16 [%r3+2], %h1;
	sub.u32 %r4, 63, %r1;
	shl.b32 %r4, %r4, 2;
	add.u32 %r4, %r2, %r4;
	ld.shared.u32 %r5, [%r4];
	ld.shared.u32 %r6, [%r4];
	ret;
}
`

// TestRaceFindingGroups: an access in several pairs heads one finding with
// an "and" line per partner, in code order, as the H100 prints
// probe2/recorded/transpose_nosync.racecheck (each unrolled store heading
// its four loads). In warpsim's schedule the second load meets each store
// on 128 bytes and the first on 64: the second load is in the most
// hazards (256; each store 192), so it heads the first finding, and the
// first load, left with both stores, the second.
func TestRaceFindingGroups(t *testing.T) {
	out, _, err := runKernel(t, sanitize.Options{Tool: sanitize.Racecheck}, groupKernel, "grouped", 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	want := `========= Error: Race reported between Read access at grouped+0xb0 in t.ptx:21
=========     and Write access at grouped+0x50 in t.ptx:15 [128 hazards]
=========     and Write access at grouped+0x60 in t.ptx:16 [128 hazards]
========= 
========= Error: Race reported between Read access at grouped+0xa0 in t.ptx:20
=========     and Write access at grouped+0x50 in t.ptx:15 [64 hazards]
=========     and Write access at grouped+0x60 in t.ptx:16 [64 hazards]
========= 
========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
