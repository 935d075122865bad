package ir

import (
	"strings"
	"testing"
)

// TestCacheHintLowering: every cache-hint and eviction-priority form of the
// PTX ISA on ld, st, atom, red and cp.async lowers to the plain
// instruction (the cache-policy operand dropped), createpolicy to a move
// of a policy value, applypriority and discard to no-ops; malformed ones
// are refused at their line.
func TestCacheHintLowering(t *testing.T) {
	ok := []struct {
		instr string
		op    Op
	}{
		{"ld.global.L2::cache_hint.b32 %r1, [%rd1], %rd2;", OpLd},
		{"ld.global.L1::evict_last.L2::cache_hint.b32 %r1, [%rd1], %rd2;", OpLd},
		{"ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.s32 {%r1,%r2,%r3,%r4}, [%rd1], %rd2;", OpLd},
		{"ld.global.L1::evict_unchanged.L2::64B.b32 %r1, [%rd1];", OpLd},
		{"ld.relaxed.gpu.global.L1::evict_first.L2::cache_hint.b64 %rd3, [%rd1], %rd2;", OpLd},
		{"st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;", OpSt},
		{"st.global.L1::evict_last.L2::cache_hint.v2.b32 [%rd1], {%r1,%r2}, %rd2;", OpSt},
		{"st.global.L1::no_allocate.b32 [%rd1], %r1;", OpSt},
		{"atom.global.add.L2::cache_hint.u32 %r1, [%rd1], %r2, %rd2;", OpAtom},
		{"atom.global.max.L2::cache_hint.u64 %rd3, [%rd1], %rd4, %rd2;", OpAtom},
		{"atom.global.cas.L2::cache_hint.b32 %r1, [%rd1], %r2, %r3, %rd2;", OpAtom},
		{"atom.relaxed.gpu.global.exch.L2::cache_hint.b64 %rd3, [%rd1], %rd4, %rd2;", OpAtom},
		{"red.global.add.L2::cache_hint.u32 [%rd1], %r1, %rd2;", OpRed},
		{"red.global.add.L2::cache_hint.f32 [%rd1], %f1, %rd2;", OpRed},
		{"red.relaxed.gpu.global.xor.L2::cache_hint.b32 [%rd1], %r1, %rd2;", OpRed},
		{"cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;", OpAsync},
		{"cp.async.ca.shared.global.L2::cache_hint.L2::128B [%r1], [%rd1], 4, %r2, %rd2;", OpAsync},
		{"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 64, [%r2], %rd2;", OpAsync},
		{"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%r1], 64, %rd2;", OpAsync},
		{"cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], 64, %rd2;", OpAsync},
		{"cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1, {%r2}], [%r3], %rd2;", OpAsync},
		{"ld.global.nc.L1::evict_first.L2::cache_hint.L2::128B.b32 %r1, [%rd1], %rd2;", OpLd},
		{"ld.global.L2::cache_hint.b128 %q1, [%rd1], %rd2;", OpLd},
		{"st.global.L1::no_allocate.L2::cache_hint.v4.b32 [%rd1], {%r1,%r2,%r3,%r4}, %rd2;", OpSt},
		{"red.global.add.noftz.L2::cache_hint.f16x2 [%rd1], %r1, %rd2;", OpRed},
		{"atom.global.cas.L2::cache_hint.b128 %q1, [%rd1], %q2, %q3, %rd2;", OpAtom},
		{"createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;", OpMov},
		{"createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd2, 0.5;", OpMov},
		{"createpolicy.fractional.L2::evict_normal.b64 %rd2;", OpMov},
		{"createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %rd2, [%rd1], 256, 4096;", OpMov},
		{"createpolicy.cvt.L2.b64 %rd2, %rd3;", OpMov},
		{"applypriority.global.L2::evict_normal [%rd1], 128;", OpPrefetch},
		{"discard.global.L2 [%rd1], 128;", OpPrefetch},
		{"prefetch.global.L2::evict_last [%rd1];", OpPrefetch},
		{"prefetch.global.L2::evict_normal [%rd1];", OpPrefetch},
	}
	for _, c := range ok {
		t.Run(c.instr, func(t *testing.T) {
			p, err := lowerBody(c.instr)
			if err != nil {
				t.Fatal(err)
			}
			code := p.Funcs[p.FuncByName["k"]].Code
			if len(code) < 2 || code[0].Op != c.op {
				t.Fatalf("lowered to %v, want %v first", code, c.op)
			}
		})
	}
	bad := []struct{ instr, want string }{
		{"createpolicy.fractional.L2::evict_last.b32 %r1, 1.0;", "createpolicy makes a .b64 policy"},
		{"createpolicy.L2::evict_last.b64 %rd1;", "not supported"},
		{"applypriority.global.L2::evict_normal %rd1, 128;", "applypriority takes [address], size"},
		{"discard.shared.L2 [%rd1], 128;", "not supported"},
		{"cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16;", "expected a cache-policy operand"},
		{"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%r1], 64;", "expected a cache-policy register"},
		{"atom.global.add.L2::cache_hint.u32 %r1, [%rd1], %r2, %rd2, %rd3;", "operand"},
	}
	for _, c := range bad {
		t.Run(c.instr, func(t *testing.T) {
			_, err := lowerBody(c.instr)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "k.ptx:") {
				t.Fatalf("error %v, want one naming k.ptx's line and %q", err, c.want)
			}
		})
	}
}

// TestCreatePolicyValue: createpolicy's value (warpsim's own encoding)
// records its priorities and kind. That loads, stores and atomics given a
// policy compute what the H100 did is TestCacheHintsMatchH100's (cmd/warpsim).
func TestCreatePolicyValue(t *testing.T) {
	for _, c := range []struct {
		mods []string
		want uint64
	}{
		{[]string{"fractional", "L2::evict_last", "b64"}, 1<<60 | 3},
		{[]string{"fractional", "L2::evict_first", "L2::evict_unchanged", "b64"}, 1<<60 | 2 | 4<<4},
		{[]string{"range", "global", "L2::evict_normal", "b64"}, 1<<60 | 1<<8 | 1},
	} {
		if got := policyBits(c.mods); got != c.want {
			t.Errorf("%v: %#x, want %#x", c.mods, got, c.want)
		}
	}
}

// TestLoadsTheL1DoesNotKeep: .cg and .cv loads and strong loads beyond the
// CTA (ptxas's LDG.E.STRONG.GPU/SYS: testdata/timing/tlb/h100/tlb_mb.sass.txt
// has ld.global.cg as LDG.E.64.STRONG.GPU) are marked LdL2Only; the default,
// .ca, .cs, .lu, .nc and CTA-scoped strong loads are not.
func TestLoadsTheL1DoesNotKeep(t *testing.T) {
	cases := []struct {
		instr  string
		l2Only bool
	}{
		{"ld.global.cg.u64 %rd3, [%rd1];", true},
		{"ld.global.cv.u32 %r1, [%rd1];", true},
		{"ld.cg.u32 %r1, [%rd1];", true},
		{"ld.volatile.global.u32 %r1, [%rd1];", true},
		{"ld.relaxed.gpu.global.u32 %r1, [%rd1];", true},
		{"ld.acquire.sys.global.u32 %r1, [%rd1];", true},
		{"ld.global.u32 %r1, [%rd1];", false},
		{"ld.global.ca.u32 %r1, [%rd1];", false},
		{"ld.global.cs.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];", false},
		{"ld.global.lu.u32 %r1, [%rd1];", false},
		{"ld.global.nc.u32 %r1, [%rd1];", false},
		{"ld.relaxed.cta.global.u32 %r1, [%rd1];", false},
		{"ld.global.L1::no_allocate.u32 %r1, [%rd1];", false},
	}
	for _, c := range cases {
		t.Run(c.instr, func(t *testing.T) {
			p, err := lowerBody(c.instr)
			if err != nil {
				t.Fatal(err)
			}
			var ld *Inst
			for i, in := range p.Funcs[p.FuncByName["k"]].Code {
				if in.Op == OpLd {
					ld = &p.Funcs[p.FuncByName["k"]].Code[i]
				}
			}
			if ld == nil {
				t.Fatal("no load lowered")
			}
			if got := ld.Mode == LdL2Only; got != c.l2Only {
				t.Errorf("LdL2Only %v, want %v", got, c.l2Only)
			}
		})
	}
}
