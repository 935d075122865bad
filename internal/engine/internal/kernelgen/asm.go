package kernelgen

import (
	"fmt"
	"strings"
)

// The AVX2 kernels: four 64-bit lanes a 256-bit register, the 32 lanes of
// a warp as eight steps, fully unrolled (step i is lanes 4i..4i+3, at byte
// offset 32i of a [32]uint64).

// asm accumulates one assembly file.
type asm struct{ strings.Builder }

// ins writes one instruction.
func (w *asm) ins(format string, args ...any) {
	w.WriteByte('\t')
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// label writes a label.
func (w *asm) label(name string) { w.WriteString(name + ":\n") }

// broadcast sets every lane of y (xs its low half) to the constant v.
func (w *asm) broadcast(v, xs, y string) {
	w.ins("MOVQ $%s, AX", v)
	w.ins("VMOVQ AX, %s", xs)
	w.ins("VPBROADCASTQ %s, %s", xs, y)
}

// mask32 sets Y15 to 0xffffffff in each lane.
func (w *asm) mask32() { w.broadcast("0xffffffff", "X15", "Y15") }

// An asmKernel is one assembly function and its Go declaration.
type asmKernel struct {
	name   string
	params string       // the Go parameters and results
	frame  string       // the argument frame, as TEXT writes it
	doc    string       // what the assembly's comment says beyond the signature
	goDoc  string       // the Go declaration's comment
	body   func(w *asm) // all but the closing VZEROUPPER and RET
}

// file writes kernels as one assembly file, header first.
func asmFile(header string, ks []asmKernel) string {
	var w asm
	w.WriteString(generated + "\n\n//go:build " + avx2Build + "\n\n#include \"textflag.h\"\n\n")
	if header != "" {
		w.WriteString(comment(header) + "\n")
	}
	for i, k := range ks {
		if i > 0 {
			w.WriteString("\n")
		}
		fmt.Fprintf(&w, "// func %s%s\n", k.name, k.params)
		if k.doc != "" {
			w.WriteString(comment(k.doc))
		}
		fmt.Fprintf(&w, "TEXT ·%s(SB), NOSPLIT, %s\n", k.name, k.frame)
		k.body(&w)
		w.ins("VZEROUPPER")
		w.ins("RET")
	}
	return w.String()
}

// comment writes text as // lines.
func comment(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			b.WriteString("//\n")
		} else {
			b.WriteString("// " + l + "\n")
		}
	}
	return b.String()
}

// aluKernels are the kernels of aluOps (each form, then its Imm form) and
// the integer setp kernels.
func aluKernels() []asmKernel {
	var ks []asmKernel
	for _, op := range aluOps {
		if op.avx2 == nil {
			continue
		}
		ks = append(ks, aluKernel(op, false))
		if op.imm {
			ks = append(ks, aluKernel(op, true))
		}
	}
	return append(ks, setpImmKernel(), setpRegKernel())
}

// srcRegs are the registers that point at the sources after a; srcArgs
// their arguments.
var srcRegs, srcArgs = []string{"DX", "CX"}, []string{"b", "c"}

// aluKernel is op's kernel: o = op(a, b[, c]), or with imm, o = op(a, b)
// for a constant b.
func aluKernel(op aluOp, imm bool) asmKernel {
	srcs := 1
	if op.shape == shapeABC {
		srcs = 2
	}
	k := asmKernel{name: kernelName(op, imm), frame: fmt.Sprintf("$0-%d", 8*(2+srcs))}
	if imm {
		k.params = "(o, a *[32]uint64, b uint64)"
	} else {
		k.params = "(o, a, " + strings.Join(srcArgs[:srcs], ", ") + " *[32]uint64)"
	}
	k.body = func(w *asm) {
		w.ins("MOVQ o+0(FP), DI")
		w.ins("MOVQ a+8(FP), SI")
		if imm {
			w.ins("VPBROADCASTQ b+16(FP), Y14")
		} else {
			for s := 0; s < srcs; s++ {
				w.ins("MOVQ %s+%d(FP), %s", srcArgs[s], 16+8*s, srcRegs[s])
			}
		}
		w.mask32()
		for i := 0; i < 8; i++ {
			w.ins("VMOVDQU %d(SI), Y0", 32*i)
			for s := 0; s < srcs; s++ {
				if imm {
					w.ins("VMOVDQA Y14, Y1")
				} else {
					w.ins("VMOVDQU %d(%s), Y%d", 32*i, srcRegs[s], s+1)
				}
			}
			for _, in := range op.avx2 {
				w.ins("%s", in)
			}
			w.ins("VMOVDQU Y0, %d(DI)", 32*i)
		}
	}
	return k
}

// kernelName is the AVX2 kernel of op (its Imm form with imm); "" when
// it has none.
func kernelName(op aluOp, imm bool) string {
	switch {
	case op.kernel != "":
		return op.kernel
	case op.avx2 == nil:
		return ""
	case imm:
		return "alu" + op.fast + "ImmAVX2"
	}
	return "alu" + op.fast + "AVX2"
}

// The setp kernels set each lane's predicate to the sign of one 64-bit
// value X and gather the signs as a mask: d[l] = X >> 63, mask bit l set
// when X < 0. Y15 is the low-word mask, Y12 2^31 in each lane, BX the mask.

// setpOut stores step i's signs (in Y0) to d and ORs them into BX.
func (w *asm) setpOut(i int) {
	w.ins("VMOVMSKPD Y0, AX")
	if i > 0 {
		w.ins("SHLQ $%d, AX", 4*i)
	}
	w.ins("ORQ AX, BX")
	w.ins("VPSRLQ $63, Y0, Y0")
	w.ins("VMOVDQU Y0, %d(DI)", 32*i)
}

// sext sign-extends the zero-extended low word in r: (r ^ 2^31) - 2^31.
func (w *asm) sext(r string) {
	w.ins("VPXOR Y12, %s, %s", r, r)
	w.ins("VPSUBQ Y12, %s, %s", r, r)
}

// setpStart sets Y15 and Y12.
func (w *asm) setpStart() {
	w.mask32()
	w.broadcast("0x80000000", "X12", "Y12")
}

// setpVariants writes one unrolled loop per variant, the first falling
// through from the dispatch before it, each jumping to done at its end;
// step writes step i of variant v.
func (w *asm) setpVariants(labels []string, done string, step func(v, i int)) {
	for v, lab := range labels {
		if v > 0 {
			w.label(lab)
		}
		for i := 0; i < 8; i++ {
			step(v, i)
		}
		if v < len(labels)-1 {
			w.ins("JMP %s", done)
		}
	}
	w.label(done)
	w.ins("MOVL BX, ret+40(FP)")
}

// setpImmKernel: X = ((a's low word, zero- or sign-extended) ^ f) + k.
func setpImmKernel() asmKernel {
	return asmKernel{
		name: "setpImmAVX2", params: "(a, d *[32]uint64, f, k uint64, signed bool) uint32", frame: "$0-44",
		goDoc: "setpImmAVX2 sets d[l] to the sign of ((a[l]'s low word, zero- or, with\n" +
			"signed, sign-extended) ^ f) + k, and returns those signs as a mask.",
		body: func(w *asm) {
			w.ins("MOVQ a+0(FP), SI")
			w.ins("MOVQ d+8(FP), DI")
			w.ins("VPBROADCASTQ f+16(FP), Y13")
			w.ins("VPBROADCASTQ k+24(FP), Y14")
			w.setpStart()
			w.ins("XORQ BX, BX")
			w.ins("MOVBLZX signed+32(FP), CX")
			w.ins("TESTQ CX, CX")
			w.ins("JNZ imms")
			w.setpVariants([]string{"", "imms"}, "immdone", func(signed, i int) {
				w.ins("VMOVDQU %d(SI), Y0", 32*i)
				w.ins("VPAND Y15, Y0, Y0")
				if signed == 1 {
					w.sext("Y0")
				}
				w.ins("VPXOR Y13, Y0, Y0")
				w.ins("VPADDQ Y14, Y0, Y0")
				w.setpOut(i)
			})
		},
	}
}

// setpRegKernel: X is the low words' difference (mode 0 zero-extended, 1
// sign-extended) or their xor minus one (mode 2: negative when equal),
// each xor inv.
func setpRegKernel() asmKernel {
	return asmKernel{
		name: "setpRegAVX2", params: "(a, b, d *[32]uint64, mode int, inv uint64) uint32", frame: "$0-44",
		goDoc: "setpRegAVX2 sets d[l] to the sign of X ^ inv, X being the low words'\n" +
			"difference (mode 0 unsigned, 1 signed) or, for mode 2, their xor minus\n" +
			"one, and returns those signs as a mask.",
		body: func(w *asm) {
			w.ins("MOVQ a+0(FP), SI")
			w.ins("MOVQ b+8(FP), DX")
			w.ins("MOVQ d+16(FP), DI")
			w.ins("VPBROADCASTQ inv+32(FP), Y13")
			w.setpStart()
			w.ins("VPCMPEQQ Y14, Y14, Y14")
			w.ins("XORQ BX, BX")
			w.ins("MOVQ mode+24(FP), CX")
			w.ins("CMPQ CX, $1")
			w.ins("JEQ regs")
			w.ins("CMPQ CX, $2")
			w.ins("JEQ rege")
			w.setpVariants([]string{"", "regs", "rege"}, "regdone", func(mode, i int) {
				w.ins("VMOVDQU %d(SI), Y0", 32*i)
				w.ins("VMOVDQU %d(DX), Y1", 32*i)
				w.ins("VPAND Y15, Y0, Y0")
				w.ins("VPAND Y15, Y1, Y1")
				switch mode {
				case 0:
					w.ins("VPSUBQ Y1, Y0, Y0")
				case 1:
					w.sext("Y0")
					w.sext("Y1")
					w.ins("VPSUBQ Y1, Y0, Y0")
				case 2:
					w.ins("VPXOR Y1, Y0, Y0")
					w.ins("VPADDQ Y14, Y0, Y0")
				}
				w.ins("VPXOR Y13, Y0, Y0")
				w.setpOut(i)
			})
		},
	}
}

// laneAsmKernels are the kernels behind laneKernels.
func laneAsmKernels() []asmKernel {
	return []asmKernel{
		{
			name: "laneStepsAVX2", params: "(r *[32]uint64, n uint64) (cons, uniform bool)", frame: "$0-18",
			doc: "Y1 holds what lanes 4i..4i+3 must hold to be consecutive (r0 + l*n),\n" +
				"Y0 r0 in every lane; Y7 and Y8 gather the bits that differ.",
			body: func(w *asm) {
				w.ins("MOVQ r+0(FP), SI")
				w.ins("MOVQ n+8(FP), AX")
				w.ins("MOVQ (SI), BX")
				w.ins("LEAQ (BX)(AX*1), CX")
				w.ins("LEAQ (BX)(AX*2), DX")
				w.ins("LEAQ (DX)(AX*1), R8")
				w.ins("VMOVQ BX, X1")
				w.ins("VPINSRQ $1, CX, X1, X1")
				w.ins("VMOVQ DX, X2")
				w.ins("VPINSRQ $1, R8, X2, X2")
				w.ins("VINSERTI128 $1, X2, Y1, Y1")
				w.ins("SHLQ $2, AX")
				w.ins("VMOVQ AX, X4")
				w.ins("VPBROADCASTQ X4, Y4")
				w.ins("VPBROADCASTQ (SI), Y0")
				w.ins("VPXOR Y7, Y7, Y7")
				w.ins("VPXOR Y8, Y8, Y8")
				for i := 0; i < 8; i++ {
					w.ins("VMOVDQU %d(SI), Y5", 32*i)
					w.ins("VPXOR Y5, Y1, Y6")
					w.ins("VPOR Y6, Y7, Y7")
					w.ins("VPXOR Y5, Y0, Y6")
					w.ins("VPOR Y6, Y8, Y8")
					if i < 7 {
						w.ins("VPADDQ Y4, Y1, Y1")
					}
				}
				w.ins("VPTEST Y7, Y7")
				w.ins("SETEQ cons+16(FP)")
				w.ins("VPTEST Y8, Y8")
				w.ins("SETEQ uniform+17(FP)")
			},
		},
		{
			name: "fill32AVX2", params: "(d *[32]uint64, v uint64)", frame: "$0-16",
			body: func(w *asm) {
				w.ins("MOVQ d+0(FP), DI")
				w.ins("VPBROADCASTQ v+8(FP), Y0")
				for i := 0; i < 8; i++ {
					w.ins("VMOVDQU Y0, %d(DI)", 32*i)
				}
			},
		},
		{
			name: "widen32AVX2", params: "(d *[32]uint64, s *[32]uint32)", frame: "$0-16",
			body: func(w *asm) { w.lanesThrough4("d", "s", "VPMOVZXDQ", 16) },
		},
		{
			name: "narrow32AVX2", params: "(s *[32]uint32, v *[32]uint64)", frame: "$0-16",
			doc: "VSHUFPS takes the low words of lanes 0, 1, 4, 5 | 2, 3, 6, 7 of two\n" +
				"registers; VPERMQ puts them in order.",
			body: func(w *asm) {
				w.ins("MOVQ s+0(FP), DI")
				w.ins("MOVQ v+8(FP), SI")
				for i := 0; i < 4; i++ {
					w.ins("VMOVDQU %d(SI), Y0", 64*i)
					w.ins("VMOVDQU %d(SI), Y1", 64*i+32)
					w.ins("VSHUFPS $0x88, Y1, Y0, Y2")
					w.ins("VPERMQ $0xD8, Y2, Y2")
					w.ins("VMOVDQU Y2, %d(DI)", 32*i)
				}
			},
		},
		{
			name: "copy32AVX2", params: "(d, s *[32]uint64)", frame: "$0-16",
			body: func(w *asm) { w.lanesThrough4("d", "s", "VMOVDQU", 32) },
		},
	}
}

// lanesThrough4 moves the 32 lanes of s (stride bytes a step) to d's,
// loading each step with load, four steps at a time through Y0..Y3.
func (w *asm) lanesThrough4(d, s, load string, stride int) {
	w.ins("MOVQ %s+0(FP), DI", d)
	w.ins("MOVQ %s+8(FP), SI", s)
	for h := 0; h < 2; h++ {
		for i := 0; i < 4; i++ {
			w.ins("%s %d(SI), Y%d", load, stride*(4*h+i), i)
		}
		for i := 0; i < 4; i++ {
			w.ins("VMOVDQU Y%d, %d(DI)", i, 32*(4*h+i))
		}
	}
}
