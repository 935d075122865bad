package ir

import (
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// This file lowers the sm_80/sm_89/sm_90 instructions of issue 18 item 5
// that have no op of their own: bmsk, szext, elect.sync, the FP8 and tf32
// conversions (OpExt, run by internal/engine/isa_sm90.go), and setmaxnreg and
// griddepcontrol, which change nothing a single launch can observe (OpNop).

// Sub-operations of OpExt (Inst.Mode).
const (
	ExtBmsk  uint8 = iota // Cmp bit 0: .clamp (else .wrap)
	ExtSzext              // Cmp bit 0: .clamp, bit 1: .s32
	ExtElect              // D0 = leader's lane (or sink), D1 = predicate (or -1); A0 = membermask
	ExtCvt                // Cmp = CvtK*; Rnd; FlagRelu, FlagSat (.satfinite)
)

// Conversions of ExtCvt (Inst.Cmp).
const (
	CvtKF32ToE4M3x2   uint8 = iota // D0 b16 = {A0, A1} f32
	CvtKF32ToE5M2x2                // D0 b16 = {A0, A1} f32
	CvtKF16x2ToE4M3x2              // D0 b16 = A0 f16x2
	CvtKF16x2ToE5M2x2              // D0 b16 = A0 f16x2
	CvtKE4M3x2ToF16x2              // D0 f16x2 = A0 b16
	CvtKE5M2x2ToF16x2              // D0 f16x2 = A0 b16
	CvtKF32ToTF32                  // D0 b32 = A0 f32, Rnd rna/rn/rz
)

// notSimulatedCvtTypes are conversion types of the PTX ISA that warpsim
// does not simulate yet (sm_100 and later: the H100 cannot run them).
var notSimulatedCvtTypes = map[string]bool{
	"e2m1x2": true, "e2m3x2": true, "e3m2x2": true, "ue8m0x2": true, "e4m3": true, "e5m2": true,
	"e2m1": true, "e2m3": true, "e3m2": true, "ue8m0": true, "s2f6x2": true,
}

// lowerCvtExt lowers the FP8 and tf32 forms of cvt; false when src is
// another cvt.
func (fl *fnLowerer) lowerCvtExt(src *ptx.Instr, m *mods) bool {
	if hasMod(src.Mods, "pack") {
		fl.lowerCvtPack(src, m)
		return true
	}
	var dst, from string
	for _, s := range src.Mods {
		if _, ok := ptx.TypeByName(s); ok || strings.HasSuffix(s, "x2") && (strings.HasPrefix(s, "e") || strings.HasPrefix(s, "ue") || strings.HasPrefix(s, "s2")) {
			if dst == "" {
				dst = s
			} else if from == "" {
				from = s
			}
		}
	}
	if notSimulatedCvtTypes[dst] || notSimulatedCvtTypes[from] {
		fl.unsupported(src)
		return true
	}
	kind := uint8(255)
	nsrc := 1
	switch {
	case dst == "e4m3x2" && from == "f32":
		kind, nsrc = CvtKF32ToE4M3x2, 2
	case dst == "e5m2x2" && from == "f32":
		kind, nsrc = CvtKF32ToE5M2x2, 2
	case dst == "e4m3x2" && from == "f16x2":
		kind = CvtKF16x2ToE4M3x2
	case dst == "e5m2x2" && from == "f16x2":
		kind = CvtKF16x2ToE5M2x2
	case dst == "f16x2" && from == "e4m3x2":
		kind = CvtKE4M3x2ToF16x2
	case dst == "f16x2" && from == "e5m2x2":
		kind = CvtKE5M2x2ToF16x2
	case dst == "tf32" && from == "f32":
		kind = CvtKF32ToTF32
	case dst == "e4m3x2" || dst == "e5m2x2" || from == "e4m3x2" || from == "e5m2x2" || dst == "tf32" || from == "tf32":
		fl.unsupported(src) // e.g. bf16x2 from e4m3x2 (sm_100)
		return true
	default:
		return false
	}
	for _, r := range m.rest {
		if r != dst && r != from {
			fl.unsupported(src)
			return true
		}
	}
	if kind <= CvtKF16x2ToE5M2x2 && (m.rnd != RndRN || m.flags&FlagSat == 0) {
		fl.bad(src, "a conversion to FP8 needs .rn.satfinite")
		return true
	}
	if kind == CvtKF32ToTF32 && m.rnd != RndRNA && m.rnd != RndRN && m.rnd != RndRZ {
		fl.bad(src, "a conversion to tf32 needs .rna, .rn or .rz")
		return true
	}
	if !fl.need(src, 1+nsrc) {
		return true
	}
	in := fl.newInst(OpExt, src)
	in.Mode, in.Cmp = ExtCvt, kind
	in.Rnd = m.rnd
	in.Flags = m.flags & (FlagRelu | FlagSat)
	in.Type, in.Type2 = ptx.B32, ptx.B32
	in.D[0] = fl.reg(src, &src.Operands[0])
	for i := 0; i < nsrc; i++ {
		in.A[i] = fl.value(src, &src.Operands[1+i], ptx.B32)
	}
	fl.emit(in, src)
	return true
}

// lowerSm90 lowers bmsk, szext, elect, setmaxnreg and griddepcontrol;
// false for any other instruction.
func (fl *fnLowerer) lowerSm90(src *ptx.Instr, m *mods) bool {
	ops := src.Operands
	switch src.Op {
	case "bmsk", "szext":
		if !fl.need(src, 3) || !fl.needTypes(src, m, 1) {
			return true
		}
		clamp := m.has("clamp")
		if clamp == m.has("wrap") || len(m.rest) != 1 {
			fl.bad(src, "expected one of .clamp and .wrap")
			return true
		}
		in := fl.newInst(OpExt, src)
		in.Type = m.typ(0)
		if src.Op == "bmsk" {
			in.Mode = ExtBmsk
			if in.Type != ptx.B32 {
				fl.bad(src, "bmsk takes .b32")
				return true
			}
		} else {
			in.Mode = ExtSzext
			if in.Type != ptx.U32 && in.Type != ptx.S32 {
				fl.bad(src, "szext takes .u32 or .s32")
				return true
			}
			if in.Type == ptx.S32 {
				in.Cmp |= 2
			}
		}
		if clamp {
			in.Cmp |= 1
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.B32)
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
		fl.emit(in, src)
	case "elect":
		// elect.sync d|p, membermask: d or p may be "_".
		if !hasMod(src.Mods, "sync") || !fl.need(src, 2) {
			fl.unsupported(src)
			return true
		}
		in := fl.newInst(OpExt, src)
		in.Mode = ExtElect
		in.D[1] = -1
		switch d := &ops[0]; d.Kind {
		case ptx.OpdPair:
			in.D[0] = fl.reg(src, &d.Elems[0])
			if d.Elems[1].Kind != ptx.OpdSink {
				in.D[1] = fl.reg(src, &d.Elems[1])
			}
		default:
			fl.bad(src, "expected d|p")
			return true
		}
		in.A[0] = fl.value(src, &ops[1], ptx.B32)
		fl.emit(in, src)
	case "setmaxnreg":
		// A register-allocation hint between warpgroups: no effect on results.
		if !fl.need(src, 1) || ops[0].Kind != ptx.OpdInt {
			return true
		}
		if n := int64(ops[0].Bits); n < 24 || n > 256 || n%8 != 0 {
			fl.bad(src, "the register count must be a multiple of 8 in 24..256")
			return true
		}
		fl.emit(fl.newInst(OpNop, src), src)
	case "griddepcontrol":
		// Programmatic dependent launch: .wait returns at once (every
		// prerequisite grid of a serialized launch has completed), and
		// .launch_dependents only allows an earlier start.
		if !m.has("wait") && !m.has("launch_dependents") || len(ops) != 0 {
			fl.unsupported(src)
			return true
		}
		fl.emit(fl.newInst(OpNop, src), src)
	default:
		return false
	}
	return true
}

// extClass is the timing class of an OpExt instruction.
func extClass(in *Inst) Class {
	switch in.Mode {
	case ExtElect:
		return ClassWarp
	case ExtCvt:
		return ClassConv
	case ExtDivFullAdd:
		return ClassFMA // the FFMA that ends div.full's expansion
	case ExtMulAdd:
		if in.Type == ptx.F64 {
			return ClassFP64
		}
		return ClassFMA
	}
	return ClassALU
}

// clusterSreg reports the special registers of thread-block clusters
// (%clusterid, %cluster_ctarank, ..., with or without .x/.y/.z), which
// warpsim does not simulate yet.
func clusterSreg(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch base {
	case "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank",
		"%is_explicit_cluster":
		return true
	}
	return false
}

// ExtCvtPack is cvt.pack.sat (OpExt, Inst.Mode), numbered apart from the
// other Ext modes: D0 = {A2's low bits, sat(A0), sat(A1)}, the converted
// values Cmp bits wide (16, 8, 4 or 2), signed when Inst.Type is signed.
const ExtCvtPack uint8 = 100

// lowerCvtPack lowers cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}:
// .u16/.s16 with two sources, .u8/.s8/.u4/.s4/.u2/.s2 with three.
func (fl *fnLowerer) lowerCvtPack(src *ptx.Instr, m *mods) {
	ct := m.typ(0)
	var width uint8
	switch ct {
	case ptx.U16, ptx.S16:
		width = 16
	case ptx.U8, ptx.S8:
		width = 8
	}
	for _, r := range m.rest {
		switch r {
		case "pack":
		case "u4", "s4":
			width, ct = 4, map[string]ptx.Type{"u4": ptx.U32, "s4": ptx.S32}[r]
		case "u2", "s2":
			width, ct = 2, map[string]ptx.Type{"u2": ptx.U32, "s2": ptx.S32}[r]
		default:
			fl.unsupported(src)
			return
		}
	}
	n := 4
	if width == 16 {
		n = 3
	}
	if width == 0 || m.flags&FlagSat == 0 || len(src.Operands) != n {
		fl.bad(src, "expected cvt.pack.sat.{u16,s16}.s32 d, a, b or cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c")
		return
	}
	in := fl.newInst(OpExt, src)
	in.Mode, in.Cmp, in.Type = ExtCvtPack, width, ct
	in.D[0] = fl.reg(src, &src.Operands[0])
	in.A[0] = fl.value(src, &src.Operands[1], ptx.S32)
	in.A[1] = fl.value(src, &src.Operands[2], ptx.S32)
	in.A[2] = fl.constSlot(0)
	if n == 4 {
		in.A[2] = fl.value(src, &src.Operands[3], ptx.B32)
	}
	fl.emit(in, src)
}
