package ir

import (
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// Cache hints change no result. ld, st, atom and red accept
// .L2::cache_hint with its trailing 64-bit cache-policy operand (dropped
// here, before checking and lowering), and the eviction-priority and
// prefetch-size qualifiers (.L1::evict_*, .L1::no_allocate, .L2::64B,
// .L2::128B, .L2::256B; every "a::b" qualifier is ignored by parseMods).
// createpolicy makes a policy value, applypriority and discard are no-ops
// (discard leaves the bytes as they were, one of the values the PTX ISA
// allows after it).

// withoutCachePolicy returns in without its cache-policy operand when it
// is an ld, st, atom or red with .L2::cache_hint and one operand more than
// its form has; otherwise in itself.
func withoutCachePolicy(in *ptx.Instr) *ptx.Instr {
	n := 0
	switch in.Op {
	case "ld", "st", "red":
		n = 2
	case "atom":
		n = 3
		if hasMod(in.Mods, "cas") {
			n = 4
		}
	default:
		return in
	}
	if len(in.Operands) != n+1 || !hasMod(in.Mods, "L2::cache_hint") {
		return in
	}
	if k := in.Operands[n].Kind; k != ptx.OpdReg && k != ptx.OpdInt {
		return in
	}
	c := *in
	c.Operands = in.Operands[:n:n]
	return &c
}

// policyBits encodes createpolicy's L2 priorities as warpsim's own policy
// value (the GPU's encoding is opaque): bit 60 marks a policy, bits 0-3 the
// primary priority, 4-7 the secondary, bit 8 a range policy.
func policyBits(mods []string) uint64 {
	prio := map[string]uint64{"L2::evict_normal": 1, "L2::evict_first": 2, "L2::evict_last": 3, "L2::evict_unchanged": 4}
	v, shift := uint64(1)<<60, 0
	for _, m := range mods {
		if p, ok := prio[m]; ok && shift <= 4 {
			v |= p << shift
			shift += 4
		}
		if m == "range" {
			v |= 1 << 8
		}
	}
	return v
}

// lowerCacheOp lowers createpolicy, applypriority and discard; false when
// src is none of them.
func (fl *fnLowerer) lowerCacheOp(src *ptx.Instr) bool {
	switch src.Op {
	case "createpolicy":
		// createpolicy.fractional.L2::p{.L2::s}.b64 d{, fraction};
		// createpolicy.range{.global}.L2::p{.L2::s}{.L2::t}.b64 d, [a], primary-size, total-size;
		// createpolicy.cvt.L2.b64 d, access-property;
		if len(src.Operands) == 0 || src.Operands[0].Kind != ptx.OpdReg || !hasMod(src.Mods, "b64") {
			fl.bad(src, "createpolicy makes a .b64 policy in a register")
			return true
		}
		ok := false
		for _, m := range src.Mods {
			ok = ok || m == "fractional" || m == "range" || m == "cvt"
		}
		if !ok {
			fl.unsupported(src)
			return true
		}
		mv := *src
		mv.Op, mv.Mods = "mov", []string{"b64"}
		mv.Operands = []ptx.Operand{src.Operands[0], {Kind: ptx.OpdInt, Bits: policyBits(src.Mods), Pos: src.Pos}}
		m := parseMods(mv.Mods)
		fl.lowerMov(&mv, &m)
		return true
	case "applypriority", "discard":
		// applypriority.global.L2::evict_normal [a], 128; discard.global.L2 [a], 128;
		if len(src.Operands) != 2 || src.Operands[0].Kind != ptx.OpdAddr {
			fl.bad(src, "%s takes [address], size", src.Op)
			return true
		}
		for _, m := range src.Mods {
			if m != "global" && m != "L2" && !strings.HasPrefix(m, "L2::") {
				fl.unsupported(src)
				return true
			}
		}
		fl.emit(fl.newInst(OpPrefetch, src), src)
		return true
	}
	return false
}
