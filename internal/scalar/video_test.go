package scalar

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestVideoMatchesH100 compares Video with what the H100 computed for the
// scalar video instructions of testdata/programs6/video_insns (inline PTX,
// built by nvcc 13: 28 forms over 16×16 edge-case operand pairs and a third
// operand c). A saturated vshl clamps a 34-bit intermediate, vshl.max
// compares the whole shifted value, vadd.u32.u32.s32.sat clamps only below
// and vadd.u32.u32.u32.max compares the sum's low 32 bits sign-extended
// with c zero-extended; every form must match on every row.
func TestVideoMatchesH100(t *testing.T) {
	type form struct {
		name                string
		op                  VideoOp
		op2                 VideoOp2
		aS, bS, dS, sat, cl bool
	}
	forms := []form{
		{"vshr.u32.u32.u32.clamp.add", VShr, VAdd2, false, false, false, false, true},
		{"vshl.u32.u32.u32.clamp.add", VShl, VAdd2, false, false, false, false, true},
		{"vshr.s32.s32.u32.clamp", VShr, VNone2, true, false, true, false, true},
		{"vshr.s32.s32.u32.wrap", VShr, VNone2, true, false, true, false, false},
		{"vshl.u32.u32.u32.wrap", VShl, VNone2, false, false, false, false, false},
		{"vshl.s32.s32.u32.clamp.sat", VShl, VNone2, true, false, true, true, true},
		{"vshl.u32.u32.u32.clamp.sat", VShl, VNone2, false, false, false, true, true},
		{"vshl.s32.s32.u32.wrap.max", VShl, VMax2, true, false, true, false, false},
		{"vadd.u32.u32.u32", VAdd, VNone2, false, false, false, false, false},
		{"vadd.s32.s32.s32.sat", VAdd, VNone2, true, true, true, true, false},
		{"vadd.u32.u32.s32.sat", VAdd, VNone2, false, true, false, true, false},
		{"vadd.s32.u32.u32.sat", VAdd, VNone2, false, false, true, true, false},
		{"vadd.u32.u32.u32.add", VAdd, VAdd2, false, false, false, false, false},
		{"vadd.s32.s32.s32.min", VAdd, VMin2, true, true, true, false, false},
		{"vadd.u32.u32.u32.max", VAdd, VMax2, false, false, false, false, false},
		{"vadd.s32.s32.s32.sat.add", VAdd, VAdd2, true, true, true, true, false},
		{"vsub.u32.u32.u32.sat", VSub, VNone2, false, false, false, true, false},
		{"vsub.s32.s32.s32.sat", VSub, VNone2, true, true, true, true, false},
		{"vsub.s32.s32.s32.max", VSub, VMax2, true, true, true, false, false},
		{"vabsdiff.s32.s32.s32", VAbsdiff, VNone2, true, true, true, false, false},
		{"vabsdiff.u32.u32.u32", VAbsdiff, VNone2, false, false, false, false, false},
		{"vabsdiff.s32.s32.s32.sat", VAbsdiff, VNone2, true, true, true, true, false},
		{"vabsdiff.u32.s32.s32.add", VAbsdiff, VAdd2, true, true, false, false, false},
		{"vmin.s32.s32.u32", VMin, VNone2, true, false, true, false, false},
		{"vmin.u32.s32.u32.sat", VMin, VNone2, true, false, false, true, false},
		{"vmax.s32.s32.s32", VMax, VNone2, true, true, true, false, false},
		{"vmax.u32.u32.s32.sat", VMax, VNone2, false, true, false, true, false},
		{"vmax.u32.u32.u32.min", VMax, VMin2, false, false, false, false, false},
	}
	b, err := os.ReadFile("../../testdata/programs6/video_insns.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 257 || lines[0] != "no error" {
		t.Fatalf("recording has %d lines, first %q; want 257, \"no error\"", len(lines), lines[0])
	}
	hex := func(s string) uint32 {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(v)
	}
	checked := 0
	for _, line := range lines[1:] {
		head, rest, _ := strings.Cut(line, ":")
		abc, got := strings.Fields(head), strings.Fields(rest)
		if len(abc) != 3 || len(got) != len(forms) {
			t.Fatalf("bad line %q", line)
		}
		a, bb, c := hex(abc[0]), hex(abc[1]), hex(abc[2])
		for i, f := range forms {
			want := hex(got[i])
			if d := video(f.op, f.op2, a, bb, c, f.aS, f.bS, f.dS, f.sat, f.cl); d != want {
				t.Errorf("%s a=%08x b=%08x c=%08x: got %08x, H100 %08x", f.name, a, bb, c, d, want)
			}
			// the engine's path: the form packed in the instruction
			vf := VideoForm{Op: f.op, Lanes: 1, Op2: f.op2, ASigned: f.aS, BSigned: f.bS, DSigned: f.dS, Sat: f.sat, Clamp: f.cl}
			if d := vf.Pack().Eval(a, bb, c); d != want {
				t.Errorf("%s (packed) a=%08x b=%08x c=%08x: got %08x, H100 %08x", f.name, a, bb, c, d, want)
			}
			checked++
		}
	}
	if checked != len(forms)*256 {
		t.Errorf("checked %d results, want %d", checked, len(forms)*256)
	}
}

// TestVideoFormPack: every field of a VideoForm survives Pack and Form at
// its extreme values (lowering packs a form into Inst.Imm, the engine
// unpacks it per lane).
func TestVideoFormPack(t *testing.T) {
	for _, f := range []VideoForm{
		{Op: VMad, Lanes: 1, ASigned: true, NegAB: true, NegC: true, Sat: true, Scale: 15, ASel: VideoH1, BSel: VideoB3},
		{Op: VAvrg, Lanes: 4, Op2: VAdd2, BSigned: true, DSigned: true, ASel: 07777, BSel: 04567, DSel: 15},
		{Op: VSet, Lanes: 2, Cmp: VGe, PO: true, Clamp: true, ASel: 0b1111, BSel: 0b0100, DSel: 2},
		{Op: VShr, Lanes: 1, Op2: VMax2, DSel: uint8(VideoH1)},
	} {
		if g := f.Pack().Form(); g != f {
			t.Errorf("%+v packs and unpacks as %+v", f, g)
		}
	}
}

// video is a 32-bit PTX scalar video instruction without byte or half
// selectors: vop.dtype.atype.btype{.sat}{.mode}{.op2} d, a, b{, c}, as the
// H100 computes it (VideoForm.Eval, videoScalar).
func video(op VideoOp, op2 VideoOp2, a, b, c uint32, aSigned, bSigned, dSigned, sat, clamp bool) uint32 {
	f := VideoForm{Op: op, Lanes: 1, Op2: op2, ASigned: aSigned, BSigned: bSigned, DSigned: dSigned, Sat: sat, Clamp: clamp}
	return f.Eval(a, b, c)
}
