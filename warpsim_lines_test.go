package warpsim_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

// sumLines adds up a grid's per-instruction counts over every function.
func sumLines(fl []metrics.FuncLines) metrics.InstCounts {
	var s metrics.InstCounts
	for _, f := range fl {
		for _, c := range f.Counts {
			s.Inst += c.Inst
			s.ThreadInst += c.ThreadInst
			s.Branch += c.Branch
			s.DivergentBranch += c.DivergentBranch
			s.GldRequests += c.GldRequests
			s.GldSectors += c.GldSectors
			s.GldBytes += c.GldBytes
			s.GstRequests += c.GstRequests
			s.GstSectors += c.GstSectors
			s.GstBytes += c.GstBytes
			s.SharedLdRequests += c.SharedLdRequests
			s.SharedStRequests += c.SharedStRequests
			s.SharedLdWavefronts += c.SharedLdWavefronts
			s.SharedStWavefronts += c.SharedStWavefronts
			s.SharedLdConflicts += c.SharedLdConflicts
			s.SharedStConflicts += c.SharedStConflicts
			s.Atomics += c.Atomics
			s.LocalLdRequests += c.LocalLdRequests
			s.LocalStRequests += c.LocalStRequests
		}
	}
	return s
}

// linesOfCounters is what the per-instruction sums must equal.
func linesOfCounters(c *metrics.Counters) metrics.InstCounts {
	return metrics.InstCounts{
		Inst: c.InstExecuted, ThreadInst: c.ThreadInstExecuted, Branch: c.Branch, DivergentBranch: c.DivergentBranch,
		GldRequests: c.GldRequests, GldSectors: c.GldTransactions, GldBytes: c.GldBytes,
		GstRequests: c.GstRequests, GstSectors: c.GstTransactions, GstBytes: c.GstBytes,
		SharedLdRequests: c.SharedLoadRequests, SharedStRequests: c.SharedStoreRequests,
		SharedLdWavefronts: c.SharedLoadTransactions, SharedStWavefronts: c.SharedStoreTransactions,
		SharedLdConflicts: c.SharedLdBankConflict, SharedStConflicts: c.SharedStBankConflict,
		Atomics: c.AtomicRequests, LocalLdRequests: c.LocalLoadRequests, LocalStRequests: c.LocalStoreRequests,
	}
}

// runWithLines runs a launch file's launches with per-line counting on.
func runWithLines(t *testing.T, f *launchfile.File, mode warpsim.Mode, workers int) *launchfile.Outcome {
	t.Helper()
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Lines: true, Mode: mode, Workers: workers})
	out, err := f.Execute(dev, launchfile.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLinesSumToTotals: over the conformance kernels and the lessons, each
// grid's per-instruction counts summed over its functions equal its
// counters, the counts do not depend on the number of workers, and the
// timing driver attributes the same counts as the functional one.
func TestLinesSumToTotals(t *testing.T) {
	type tcase struct{ name, launch, ptx string }
	var cases []tcase
	dirs, _ := filepath.Glob(filepath.Join(conformanceDir, "*", "launch.json"))
	for _, lj := range dirs {
		dir := filepath.Dir(lj)
		variants := []string{"nvcc", "clang"}
		if testing.Short() {
			variants = variants[:1] // the race detector's run (.ci/run) takes nvcc's only
		}
		for _, v := range variants {
			if _, err := os.Stat(filepath.Join(dir, v+".ptx")); err == nil {
				cases = append(cases, tcase{filepath.Base(dir) + "/" + v, lj, filepath.Join(dir, v+".ptx")})
			}
		}
	}
	cases = append(cases, tcase{"lessons/reduce", "examples/lessons/reduce.json", ""}, tcase{"lessons/divergence", "examples/lessons/divergence.json", ""})
	if len(cases) < 12 {
		t.Fatalf("only %d cases found under %s", len(cases), conformanceDir)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := launchfile.Load(tc.launch)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ptx != "" {
				src, err := os.ReadFile(tc.ptx)
				if err != nil {
					t.Fatal(err)
				}
				f.ModulePath, f.Module = tc.ptx, src
			}
			one := runWithLines(t, f, warpsim.ModeFunctional, 1)
			many := runWithLines(t, f, warpsim.ModeFunctional, 3)
			var timed *launchfile.Outcome
			if tc.ptx == "" {
				timed = runWithLines(t, f, warpsim.ModeTiming, 0)
			}
			for i, res := range one.Launches {
				for j, g := range res.Grids {
					if g.Counters.InstExecuted > 0 && g.Lines == nil {
						t.Fatalf("launch %d grid %d: no per-line counts", i, j)
					}
					got, want := sumLines(g.Lines), linesOfCounters(&g.Counters)
					if got != want {
						t.Errorf("launch %d (%s) grid %d: lines sum to\n%+v\nthe grid's counters are\n%+v", i, g.Kernel.Name(), j, got, want)
					}
					// A kernel whose addresses depend on the order of its
					// atomics (conformance's atomics: a ticket counter)
					// differs between runs in its counters too.
					m := many.Launches[i].Grids[j]
					if g.Counters == m.Counters && !reflect.DeepEqual(g.Lines, m.Lines) {
						t.Errorf("launch %d grid %d: per-line counts differ between 1 and 3 workers", i, j)
					}
					if got := sumLines(m.Lines); got != linesOfCounters(&m.Counters) {
						t.Errorf("launch %d grid %d, 3 workers: lines sum to %+v, counters %+v", i, j, got, linesOfCounters(&m.Counters))
					}
					if timed != nil && !reflect.DeepEqual(g.Lines, timed.Launches[i].Grids[j].Lines) {
						t.Errorf("launch %d grid %d: per-line counts differ between the functional and timing drivers", i, j)
					}
				}
			}
		})
	}
}

// TestLinesOffByDefault: without Options.Lines a grid has no per-line counts.
func TestLinesOffByDefault(t *testing.T) {
	f, err := launchfile.Load("examples/lessons/divergence.json")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard})
	out, err := f.Execute(dev, launchfile.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range out.Launches {
		if res.Grids[0].Lines != nil {
			t.Fatalf("%s: per-line counts without Options.Lines", res.Kernel.Name())
		}
	}
}

// BenchmarkLines measures what per-line counting adds to a launch: the
// reduction lesson's three kernels on 2^20 ints (2^18 in timing mode),
// with Options.Lines off and on.
func BenchmarkLines(b *testing.B) {
	for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
		for _, lines := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/lines=%v", mode, lines), func(b *testing.B) {
				size := uint32(1 << 20)
				if mode == warpsim.ModeTiming {
					size = 1 << 18
				}
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: mode, Lines: lines})
				src, err := os.ReadFile("examples/lessons/reduce.sm90.ptx")
				if err != nil {
					b.Fatal(err)
				}
				m, err := dev.LoadModule("reduce.sm90.ptx", src)
				if err != nil {
					b.Fatal(err)
				}
				in, _ := dev.Malloc(uint64(4 * size))
				out, _ := dev.Malloc(uint64(4 * size / 512))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, name := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
						k, err := m.Kernel(name)
						if err != nil {
							b.Fatal(err)
						}
						cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: size / 512, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 512, Y: 1, Z: 1}}
						if _, err := dev.Launch(k, cfg, lessonParams(in, out, size)); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
