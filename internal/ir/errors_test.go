package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// Load errors: well-formed PTX syntax that lowering must refuse, each with
// its position and a message naming the problem.
func TestLowerErrors(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"too few operands", "add.s32 %r1, %r2;", "k.ptx:7:1: add.s32: add takes 3 operands, found 2"},
		{"too many operands", "neg.s32 %r1, %r2, %r2;", "k.ptx:7:1: neg.s32: neg takes 2 operands, found 3"},
		{"fma without rounding", "fma.f32 %f1, %f1, %f1, %f1;", "fma requires a rounding modifier"},
		{"three-input min", "min.s32 %r1, %r1, %r2, %r2;", "three-input min is not supported yet"},
		{"tensor core", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%f1}, {%r1}, {%r1}, {%f1};", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 is not supported yet"},
		{"tensor core fragment", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r1}, {%f1};", "fragment 0 has 1 registers"},
		{"vote.sync without mask", "vote.sync.ballot.b32 %r1, %p1;", "vote.sync takes 3 operands"},
		{"undefined register", "add.s32 %r1, %r2, %q9;", "undefined register %q9"},
		{"texture reference", "tex.1d.v4.f32.s32 {%f1, %f1, %f1, %f1}, [t, {%r1}];", "texture and surface references (.texref, .surfref) are not simulated"},
		{"multisample texture", "tex.2dms.v4.f32.s32 {%f1, %f1, %f1, %f1}, [%rd1, {%r1, %r1, %r1, %r1}];", "is not supported: modifier .2dms"},
		{"formatted surface store", "sust.p.2d.v4.b32.trap [%rd1, {%r1, %r1}], {%r1, %r1, %r1, %r1};", "is not supported: modifier .p"},
		{"3d gather", "tld4.r.3d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1, %f1, %f1}];", "gathers from 2d textures only"},
		{"fence scope", "fence.acq_rel.bogus;", "k.ptx:7:1: fence.acq_rel.bogus: fence does not take .bogus"},
		{"fence without scope", "fence.sc;", "fence takes one scope"},
		{"fence with two scopes", "fence.sc.gpu.cta;", "fence takes one scope"},
		{"membar level", "membar.gpu;", "membar does not take .gpu"},
		{"membar without level", "membar;", "membar takes one level"},
		{"fence release", "fence.release.gpu;", "fence.release is only fence.mbarrier_init.release.cluster"},
		{"texture coordinates", "tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1}];", "expected 2 coordinates"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<3>; .reg .f32 %f<3>; .reg .pred %p<2>; .reg .b64 %rd<2>;\n" +
				c.body + "\nret;\n}\n"
			m, err := ptx.Parse("k.ptx", []byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = Lower(m, nil)
			if err == nil {
				t.Fatalf("lowered without error; want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// A variable in a space lowering does not take is named by the space's PTX
// spelling (ptxtype's Space.String). Until 2026-11-29 ir spelled spaces
// again in a switch of its own, and a .sreg variable was called "generic".
func TestUnsupportedVariableSpaceNamed(t *testing.T) {
	const head = ".version 9.0\n.target sm_90\n.address_size 64\n"
	cases := []struct {
		name, src, want string
	}{
		{"sreg in a function", head + ".visible .entry k()\n{\n.sreg .u32 x;\nret;\n}\n",
			"k.ptx:6:12: .sreg variable x is not supported yet"},
		{"sreg at module scope", head + ".sreg .u32 y;\n.visible .entry k()\n{\nret;\n}\n",
			"k.ptx:4:12: module-scope .sreg variable y is not supported yet"},
		{"local at module scope", head + ".local .u32 z;\n.visible .entry k()\n{\nret;\n}\n",
			"k.ptx:4:13: module-scope .local variable z is not supported yet"},
		{"tex in a function", head + ".visible .entry k()\n{\n.tex .u32 w;\nret;\n}\n",
			"k.ptx:6:11: .tex variable w is not supported yet"},
		{"kernel parameter in .global", head + ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\nld.global.u32 %r1, [p];\nret;\n}\n",
			"k.ptx:7:1: ld.global.u32: kernel parameter used in .global space"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ptx.Parse("k.ptx", []byte(c.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = Lower(m, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}
