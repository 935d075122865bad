package timing_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// dotDir holds the microbenchmarks of the instruction forms of Triton's
// f32 tl.dot and argmin (testdata/triton3/study/dot: one warp, a warpgroup
// for wgmma; 32 operations a lane, 16 mma.sync or wgmma, independent or
// each on the last one's result) and the H100's Nsight Compute times of
// them (h100/times.tsv, medians of 3 runs).
const dotDir = "../../testdata/triton3/study/dot"

// TestDotArgminForms times each dependent chain (mb_long: 256 operations a
// lane, mma.sync and wgmma 64, long enough to stand above the launch's
// ±50 ns run-to-run spread) and checks what its operations add against the
// H100. The baseline is the bare_ twin (the kernel without the
// operations), on the H100 averaged with the none_ twin (a mov in place of
// each operation) where ptxas's SASS of the two is the same; warpsim's is
// the bare_ twin alone, because warpsim charged a PTX mov chain that ptxas
// removes when the bounds were set (testdata/triton3/study/dot/README.md;
// since Params.MovFold it charges their code bytes only, TestFoldedMovChains). The bounds are the model's error
// when the forms were measured (fourteenth round), rounded up: mma.sync,
// wgmma and the 3xTF32 split within 3%; the FFMA and FMNMX chains 21% slow
// (4.6 cycles a step, the H100 3.8-4.1: the 4 KB of straight-line code
// stalls warpsim's instruction fetch, stall_inst_fetch 0.91, not the
// H100's); the butterfly shuffle 4% slow (12% before the preset's
// ShflImmLatency, TestShuffleLaneOperand), a shuffle-argmin step 9% (14%),
// the setp+selp+selp step 23%; cvt.rna.tf32 11% fast (ptxas's
// three-instruction sequence, 22 cycles dependent).
func TestDotArgminForms(t *testing.T) {
	h100 := timesTSV(t, filepath.Join(dotDir, "h100_long", "times.tsv"))
	for _, tc := range []struct {
		name, fam string
		bound     float64 // |warpsim's added time / the H100's - 1|
	}{
		{"fma_f32_dep", "f32", 0.25},
		{"min_f32_dep", "f32", 0.25},
		{"cvt_rna_tf32_dep", "f32", 0.20},
		{"split_tf32_dep", "f32", 0.10},
		{"shfl_bfly_dep", "f32", 0.10},
		{"argmin_step_dep", "idx", 0.30},
		{"shfl_argmin_dep", "idx", 0.15},
		{"mma_tf32_dep", "mma", 0.15},
		{"mma_f16_dep", "mma", 0.15},
		{"wgmma_tf32_dep", "wgmma", 0.15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bare := "bare_" + tc.fam + "_dep"
			base := h100[bare]
			if tc.fam != "wgmma" {
				// the none_ twin's SASS is the bare one's (ptxas drops
				// the movs): the baseline is the mean of the two (6 runs)
				base = (h100[bare] + h100["none_"+tc.fam+"_dep"]) / 2
			}
			want := h100[tc.name] - base
			if want <= 0 {
				t.Fatalf("times.tsv: %s %.0f ns, its baseline %.0f ns", tc.name, h100[tc.name], base)
			}
			got := launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_long", tc.name, "launch.json")) -
				launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_long", "bare_"+tc.fam+"_dep", "launch.json"))
			t.Logf("the operations add %.0f ns, H100 %.0f ns (%+.1f%%)", got, want, 100*(got/want-1))
			if math.Abs(got/want-1) > tc.bound {
				t.Errorf("the operations add %.0f ns, H100 %.0f ns: more than %.0f%% off", got, want, 100*tc.bound)
			}
		})
	}
}

// TestShuffleLaneOperand times 256 dependent shuffles a lane (mb_shfl) of
// each form against the H100: an immediate butterfly mask returns 2 cycles
// sooner than a mask or lane in a register (the preset's ShflImmLatency
// 24 against Latency[ClassWarp] 26), whether that register is on the chain
// (shfl.idx with its lane from the data) or not.
func TestShuffleLaneOperand(t *testing.T) {
	h100 := timesTSV(t, filepath.Join(dotDir, "h100_shfl", "times.tsv"))
	base := (h100["bare_f32_dep"] + h100["none_f32_dep"]) / 2
	sim := launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_shfl", "bare_f32_dep", "launch.json"))
	for _, name := range []string{"shfl_bfly_dep", "shfl_bfly_reg_dep", "shfl_idx_data_dep", "shfl_idx_reg_dep"} {
		t.Run(name, func(t *testing.T) {
			want := h100[name] - base
			got := launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_shfl", name, "launch.json")) - sim
			t.Logf("256 shuffles add %.0f ns, H100 %.0f ns (%+.1f%%)", got, want, 100*(got/want-1))
			if math.Abs(got/want-1) > 0.05 {
				t.Errorf("256 shuffles add %.0f ns, H100 %.0f ns: more than 5%% off", got, want)
			}
		})
	}
}

// TestFoldedMovChains times the none_ twins of study/dot's chains (a
// dependent chain of movs in place of each operation: 256 a lane, two a
// step for the indexed family) against their bare_ twins, as the H100 ran
// them: ptxas removes every one of those movs (the none_ and bare_ SASS
// are the same, sass_count.txt), and the H100's times of the two differ
// by its run-to-run spread (−128 and +32 ns; each kernel's three runs
// spread over up to 224 ns). warpsim charged 3.3–4.2 cycles a mov before
// Params.MovFold (+674 and +707 ns); now what is left is the movs' code
// bytes (fetch.go's MovBytes), 30 and 62 ns.
func TestFoldedMovChains(t *testing.T) {
	h100 := timesTSV(t, filepath.Join(dotDir, "h100_long", "times.tsv"))
	for _, fam := range []string{"f32", "idx"} {
		t.Run(fam, func(t *testing.T) {
			want := h100["none_"+fam+"_dep"] - h100["bare_"+fam+"_dep"]
			got := launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_long", "none_"+fam+"_dep", "launch.json")) -
				launchFileTimeAtNCUClock(t, filepath.Join(dotDir, "mb_long", "bare_"+fam+"_dep", "launch.json"))
			t.Logf("the movs add %.0f ns, H100 %.0f ns", got, want)
			if math.Abs(got) > 100 {
				t.Errorf("the movs add %.0f ns, H100 %.0f ns: more than 100 ns", got, want)
			}
		})
	}
}

// TestShuffleChainsInterleaved times study/sched's eight independent
// chains of 20 butterfly-argmin steps a lane (two shuffles, three
// compares, and, or, two selects a step) in three PTX orders, against one
// H200 (the H100's SM; Nsight Compute's cycles, --clock-control none):
// chain after chain (Triton's order for a reduction of several rows), step
// by step, and each step grouped by kind. ptxas makes the same 1,176 SASS
// instructions of all three, the shuffles of different chains interleaved,
// and the H200 takes 3,527, 3,643 and 3,642 cycles over the bare kernel.
// With Params.HoistShfl a shuffle and its consumers issue ahead of the
// results they wait for within the block, as ptxas's schedule has them:
// warpsim 3,469, 3,214 and 3,287 cycles; it took 7,607, 7,303 and 3,742
// before, issuing each chain's steps as the PTX orders them. ptxas's
// SASS (30 registers) interleaves three chains' shuffles at a time: with
// the registers the shuffles' pending results hold counted as loads'
// (heldShfl, registerGate) warpsim takes 3,469, 3,605 and 3,716 cycles,
// within 6% (without the bound the step-by-step order was 12% fast).
func TestShuffleChainsInterleaved(t *testing.T) {
	const dir = "../../testdata/triton3/study/sched"
	cycles := timesTSVColumn(t, filepath.Join(dir, "h200", "times.tsv"), 2)
	sim := func(c string) float64 {
		return launchFileTimeAtNCUClock(t, filepath.Join(dir, "mb", c, "launch.json")) * 1.589
	}
	bare := sim("bare")
	for _, c := range []string{"shfl_argmin_seq", "shfl_argmin_il", "shfl_argmin_sched"} {
		t.Run(c, func(t *testing.T) {
			want := cycles[c] - cycles["bare"]
			got := sim(c) - bare
			t.Logf("the chains add %.0f cycles, H200 %.0f (%+.1f%%)", got, want, 100*(got/want-1))
			if math.Abs(got/want-1) > 0.06 {
				t.Errorf("the chains add %.0f cycles, H200 %.0f: more than 6%% off", got, want)
			}
		})
	}
}

// timesTSVColumn is column col (0: the case) of a times.tsv, by case.
func timesTSVColumn(t *testing.T, path string, col int) map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		c := strings.Split(line, "\t")
		if strings.HasPrefix(line, "#") || len(c) <= col {
			continue
		}
		v, err := strconv.ParseFloat(c[col], 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		m[c[0]] = v
	}
	return m
}
