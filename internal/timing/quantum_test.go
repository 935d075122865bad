package timing

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// TestFutures: a future combined with cycles and other futures through
// fmax and fadd takes its value once the replay answers its leaves, and
// resolve writes it where it was kept unless the place was overwritten.
func TestFutures(t *testing.T) {
	var q smQuantum
	a, b := q.leaf(), q.leaf()
	if !isFut(a) || !isFut(b) || a == b {
		t.Fatalf("leaves %x, %x: want two distinct futures", a, b)
	}
	tests := []struct {
		name string
		v    uint64
		want uint64
	}{
		{"cycles", q.fmax(7, 9), 9},
		{"cycle plus", q.fadd(7, 3), 10},
		{"leaf", a, 300},
		{"max with an earlier cycle", q.fmax(100, a), 300},
		{"max with a later cycle", q.fmax(a, 500), 500},
		{"max of two leaves", q.fmax(a, b), 420},
		{"leaf plus", q.fadd(b, 5), 425},
		{"nested", q.fadd(q.fmax(q.fadd(a, 200), b), 1), 501},
		{"with zero", q.fmax(0, b), 420},
	}
	if v := tests[len(tests)-1].v; v != b {
		t.Errorf("fmax(0, future) made a node: %x, want %x", v, b)
	}
	var reg, over uint64
	reg, over = q.fmax(a, b), q.fadd(a, 1)
	q.keep(&reg)
	q.keep(&over)
	over = 77 // overwritten by a cycle before the quantum's end
	q.answer(a, 300)
	q.answer(b, 420)
	for _, tc := range tests {
		if got := q.val(tc.v); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	s := &gridState{}
	sm := &smT{smQuantum: q}
	s.begin(sm, 2) // quantum 2 begins: quantum 0's futures are written
	if reg != 420 || over != 77 {
		t.Errorf("resolved: kept place %d (want 420), overwritten place %d (want 77)", reg, over)
	}
	if len(sm.ar[0].holds) != 0 || sm.cur != 2 {
		t.Errorf("quantum 2 began with %d places of quantum 0 left, in arena %d", len(sm.ar[0].holds), sm.cur)
	}
	// A future of quantum 2 may depend on one of quantum 0.
	c := sm.fadd(a, 1)
	if arenaOf(c) != 2 {
		t.Errorf("a future made in quantum 2 is in arena %d", arenaOf(c))
	}
	sm.settle(2)
	if got := sm.val(c); got != 301 {
		t.Errorf("quantum 2's future on quantum 0's: %d, want 301", got)
	}
}

// TestQuantumNoLongerThanL2RoundTrip: the quantum never exceeds half the
// shortest L2 round trip (so no request is answered before the next
// quantum's end), nor 256 cycles, and is the largest whole number of
// bandwidth buckets that does not.
func TestQuantumNoLongerThanL2RoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name       string
		l2, dram   float64
		wantAtMost uint64
	}{
		{"h100 at 1.59 GHz", 100 + 94.6*1.589, 134 + 300*1.589, 125},
		{"fast clock", 100 + 94.6*2.0, 134 + 300*2.0, 144},
		{"short round trip", 80, 500, 40},
		{"no latency", 0, 0, 16},
	} {
		q := quantumFor(&Params{L2HitLatency: tc.l2, DRAMLatency: tc.dram})
		if q > tc.wantAtMost || q%(1<<bucketShift) != 0 || q == 0 || q+(1<<bucketShift) <= tc.wantAtMost {
			t.Errorf("%s: quantum %d, want a multiple of %d at most %d (and within a bucket of it)", tc.name, q, 1<<bucketShift, tc.wantAtMost)
		}
	}
}

// TestParallelSafe: a kernel whose SMs may run on several threads has no
// instruction whose result could depend on how SMs interleave, in itself
// or in a function it calls.
func TestParallelSafe(t *testing.T) {
	const head = ".version 8.0\n.target sm_90\n.address_size 64\n"
	kernel := func(body string) string {
		return ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %q<2>;\n" +
			"ld.param.u64 %rd1, [p];\n" + body + "\nret;\n}\n"
	}
	tests := []struct {
		name, src string
		want      bool
	}{
		{"plain loads and stores", kernel("ld.global.u32 %r1, [%rd1];\nst.global.u32 [%rd1+4], %r1;"), true},
		{"volatile shared load", kernel(".shared .u32 s[4];\nld.volatile.shared.u32 %r1, [s];"), true},
		{"cta-scope acquire", kernel("ld.acquire.cta.global.u32 %r1, [%rd1];"), true},
		{"atomic", kernel("atom.global.add.u32 %r1, [%rd1], 1;"), false},
		{"reduction", kernel("red.global.add.u32 [%rd1], 1;"), false},
		{"shared atomic", kernel(".shared .u32 s[4];\natom.shared.add.u32 %r1, [s], 1;\nred.shared.add.u32 [s+4], 1;"), true},
		{"generic atomic", kernel("atom.add.u32 %r1, [%rd1], 1;"), false},
		{"fence", kernel("membar.gl;"), false},
		{"volatile global load", kernel("ld.volatile.global.u32 %r1, [%rd1];"), false},
		{"relaxed generic load", kernel("ld.relaxed.gpu.u32 %r1, [%rd1];"), false},
		{"clock", kernel("mov.u32 %r1, %clock;"), true},
		{"globaltimer", kernel("mov.u64 %rd2, %globaltimer;\nmov.u32 %r1, %globaltimer_lo;\nmov.u32 %r2, %globaltimer_hi;\nmov.u64 %rd3, %clock64;"), true},
		{"callee with an atomic", ".func f(.param .u64 a)\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\nld.param.u64 %rd1, [a];\natom.global.add.u32 %r1, [%rd1], 1;\nret;\n}\n" +
			kernel("{\n.param .b64 a0;\nst.param.b64 [a0], %rd1;\ncall f, (a0);\n}"), false},
	}
	for _, tc := range tests {
		m, err := ptx.Parse("k.ptx", []byte(head+tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		prog, err := ir.Lower(m, func(string) bool { return false })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := &Driver{orderFree: map[*ir.Func]bool{}}
		k := -1
		for i, f := range prog.Funcs {
			if f.Entry && strings.HasPrefix(f.Name, "k") {
				k = i
			}
		}
		if got := d.orderFreeFrom(prog.Funcs, k); got != tc.want {
			t.Errorf("%s: parallel %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestReplayOrder: the replay takes a quantum's requests in (cycle, SM,
// index) order whether it orders them from the counts by cycle the SMs
// kept as they logged them (log), counts them itself (the counts kept from
// another cycle, or a request outside the quantum), or sorts them (cycles
// spread wider than 4096).
func TestReplayOrder(t *testing.T) {
	const t0 = 1120
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		extra uint64 // one more request, this far from the quantum's start (0: none)
		lo    uint64 // where the SMs' counts start
	}{
		{"counted by the SMs", 0, t0},
		{"counts from another cycle", 0, t0 + 1},
		{"a request after the quantum", 300, t0},
		{"cycles wider than 4096", 5000, t0},
	} {
		s := &gridState{quantum: 112}
		for id := range 4 {
			sm := &smT{id: id}
			s.sms = append(s.sms, sm)
			s.beginAt(sm, 0, tc.lo)
			for range 50 + 20*id {
				sm.log(memReq{cycle: t0 + rng.Uint64N(112)}, nil)
			}
			if tc.extra > 0 && id == 2 {
				sm.log(memReq{cycle: t0 + tc.extra}, nil)
			}
		}
		keys := s.orderRequests(0, t0)
		n := 0
		for _, sm := range s.sms {
			n += len(sm.ar[0].reqs)
		}
		if len(keys) != n {
			t.Fatalf("%s: %d requests ordered, want %d", tc.name, len(keys), n)
		}
		seen := map[uint64]bool{}
		var last [3]uint64
		for k, key := range keys {
			sm, j := key>>24&(1<<20-1), key&(1<<24-1) // as the replay reads them
			cur := [3]uint64{s.sms[sm].ar[0].reqs[j].cycle, sm, j}
			if seen[key] {
				t.Fatalf("%s: request %d of SM %d ordered twice", tc.name, j, sm)
			}
			seen[key] = true
			if k > 0 && (cur[0] < last[0] || cur[0] == last[0] && (cur[1] < last[1] || cur[1] == last[1] && cur[2] < last[2])) {
				t.Fatalf("%s: (cycle, SM, index) %v after %v", tc.name, cur, last)
			}
			last = cur
		}
	}
}
