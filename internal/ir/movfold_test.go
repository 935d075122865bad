package ir

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// movCounts is the movs of p's functions, and those marked MovFolded.
func movCounts(p *Program) (movs, folded int) {
	for _, f := range p.Funcs {
		for i := range f.Code {
			if in := &f.Code[i]; in.Op == OpMov {
				movs++
				if in.Mode == MovFolded {
					folded++
				}
			}
		}
	}
	return movs, folded
}

// TestFoldedMovsAgainstSASS holds the movs warpsim keeps (those not
// marked MovFolded) to the SASS ptxas 13 made of the third Triton batch's
// study half (sm80.ptx for sm_90: testdata/triton3/study/h100/sass_movs.txt,
// movcount.py over h100/sass/sass_sm80.tar.xz): its instructions that only
// move a value or a constant into a register (MOV, UMOV, IMAD.MOV,
// HFMA2.MMA, CS2R). ptxas also writes such moves of its own (a call's
// arguments, values its register allocation moves), and zeroes an
// accumulator two registers at a time (CS2R), so each kernel may keep at
// most 1.5 times its SASS moves and one: with every mov kept,
// atomic_minmax_f32 has 65 against 4 and ld_special_f32 2,602 against
// 1,003. And the constants ptxas does write into registers are kept: the
// four libdevice kernels (whose SASS moves are mostly constants of their
// polynomials) keep at least half their SASS moves.
func TestFoldedMovsAgainstSASS(t *testing.T) {
	dir := "../../testdata/triton3"
	fh, err := os.Open(filepath.Join(dir, "study/h100/sass_movs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	libdevice := map[string]bool{"ld_special_f32": true, "libdevice_a_f32": true, "libdevice_b_f32": true, "philox_more": true}
	var keptLib, sassLib, n int
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		sass, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatal(err)
		}
		n++
		movs, folded := movCounts(lowerFile(t, filepath.Join(dir, f[0], "sm80.ptx")))
		kept := movs - folded
		t.Logf("%-22s PTX movs %5d, kept %5d; SASS moves %5d", f[0], movs, kept, sass)
		if float64(kept) > 1.5*float64(sass)+1 {
			t.Errorf("%s: %d movs kept, its SASS has %d moves", f[0], kept, sass)
		}
		if libdevice[f[0]] {
			keptLib += kept
			sassLib += sass
		}
	}
	if n != 24 {
		t.Errorf("%d kernels in sass_movs.txt, want the study half's 24", n)
	}
	if 2*keptLib < sassLib {
		t.Errorf("the libdevice kernels keep %d movs, their SASS has %d moves: want at least half", keptLib, sassLib)
	}
}

// TestFoldedMovForms: which movs are marked MovFolded (the one marked is
// the kernel's first mov, of %r2 or %f2), one form a row.
func TestFoldedMovForms(t *testing.T) {
	const head = ".reg .pred %p<4>;\n.reg .b32 %r<9>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<9>;\n" +
		"ld.param.u64 %rd0, [p0];\nld.global.f32 %f1, [%rd0];\nld.global.u32 %r1, [%rd0+4];\nsetp.lt.f32 %p1, %f1, 0f00000000;\n"
	for _, c := range []struct {
		name, body string
		folded     bool
	}{
		{"register copy", "mov.f32 %f2, %f1;\nadd.f32 %f3, %f2, %f2;\nst.global.f32 [%rd0], %f3;", true},
		{"zero into a store", "mov.u32 %r2, 0;\nst.global.u32 [%rd0], %r2;", true},
		{"constant into an FMA's one immediate", "mov.f32 %f2, 0f3F000000;\nfma.rn.f32 %f3, %f1, %f2, %f1;\nst.global.f32 [%rd0], %f3;", true},
		{"second constant of an FMA", "mov.f32 %f2, 0f3F000000;\nfma.rn.f32 %f3, %f1, %f2, 0f3E000000;\nst.global.f32 [%rd0], %f3;", false},
		{"constant into a store", "mov.u32 %r2, 7;\nst.global.u32 [%rd0], %r2;", false},
		{"64-bit constant", "mov.u64 %rd2, 4294967297;\nadd.s64 %rd3, %rd0, %rd2;\nst.global.u64 [%rd3], %rd2;", false},
		{"guarded", "@%p1 mov.f32 %f2, %f1;\nst.global.f32 [%rd0], %f2;", false},
		{"dead", "mov.u32 %r2, 0;\nld.global.u32 %r2, [%rd0+8];\nst.global.u32 [%rd0], %r2;", true},
		{"never read", "mov.u32 %r2, 5;\natom.global.add.u32 %r2, [%rd0], %r1;", true},
		{"masked load's other value", "mov.u32 %r2, 0;\n@%p1 ld.global.u32 %r2, [%rd0+8];\nst.global.u32 [%rd0], %r2;", true},
		{"loop-carried constant", "mov.u32 %r2, 3;\nL:\nadd.u32 %r2, %r2, %r1;\nsetp.lt.u32 %p2, %r2, 100;\n@%p2 bra L;\nst.global.u32 [%rd0], %r2;", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := lowerOne(t, head+c.body+"\nret;")
			for i := range f.Code {
				if in := &f.Code[i]; in.Op == OpMov {
					if got := in.Mode == MovFolded; got != c.folded {
						t.Errorf("%s: folded %v, want %v", f.Text[i], got, c.folded)
					}
					return
				}
			}
			t.Fatal("no mov")
		})
	}
}
