package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/report"
)

// demoReports writes the lessons' reports once per test binary.
var demoReportDir string

func lessonReports(t *testing.T) string {
	t.Helper()
	if demoReportDir != "" {
		return demoReportDir
	}
	dir, err := os.MkdirTemp("", "warpsim-demo-report-")
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("demo", "--report", dir); code != 0 {
		t.Fatalf("demo --report: exit %d: %s", code, stderr)
	}
	demoReportDir = dir
	return dir
}

func readLessonProfile(t *testing.T, lesson string) *report.Profile {
	t.Helper()
	fh, err := os.Open(filepath.Join(lessonReports(t), lesson+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	p, err := report.Read(fh)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lineCounts sums a launch's instructions on one .cu line.
func lineCounts(p *report.Profile, l *report.Launch, file string, line int) (c report.Counts, n int) {
	for _, f := range l.Funcs {
		for _, in := range f.Insts {
			if in.File >= 0 && filepath.Base(p.Sources[in.File].Path) == file && in.Line == line {
				c.Add(&in.Counts)
				n++
			}
		}
	}
	return c, n
}

func launchOf(t *testing.T, p *report.Profile, fn string) *report.Launch {
	t.Helper()
	for i := range p.Launches {
		if p.Launches[i].Func == fn {
			return &p.Launches[i]
		}
	}
	t.Fatalf("no launch of %s", fn)
	return nil
}

// TestLessonReports: the lessons' reports show what the lessons teach, in
// figures that follow from the lessons' code and sizes.
func TestLessonReports(t *testing.T) {
	t.Run("reduce", func(t *testing.T) {
		p := readLessonProfile(t, "reduce")
		// 2^16 ints in blocks of 512: 128 blocks of 16 warps.
		nb := launchOf(t, p, "reduceNeighbored")
		c, _ := lineCounts(p, nb, "reduce.cu", 6)
		if c.DivergentBranch == 0 {
			t.Errorf("reduceNeighbored: no divergent branch on reduce.cu:6 (the if (tid %% (2*stride) == 0))")
		}
		if c.GldSectors <= c.GldIdeal {
			t.Errorf("reduceNeighbored: reduce.cu:6 loads touch %d sectors, ideal %d: want uncoalesced", c.GldSectors, c.GldIdeal)
		}
		il := launchOf(t, p, "reduceInterleaved")
		c, _ = lineCounts(p, il, "reduce.cu", 16)
		// Each active warp loads consecutive ints: as many sectors as the
		// bytes need, except the last steps' partial warps (stride < 32:
		// one warp with stride lanes, 2 requests of ≤128 bytes).
		if c.GldRequests == 0 || c.GldSectors != c.GldIdeal {
			t.Errorf("reduceInterleaved: reduce.cu:16 loads: %d sectors for %d ideal (%d requests): want coalesced", c.GldSectors, c.GldIdeal, c.GldRequests)
		}
		// The loop runs 9 steps (stride 256 … 1); every step a block's 16
		// warps execute its barrier: 128 × 16 × 9 warp-level bar.sync.
		var bars uint64
		for _, f := range il.Funcs {
			for _, in := range f.Insts {
				if strings.HasPrefix(in.Text, "bar.sync") {
					bars += in.Inst
				}
			}
		}
		if bars != 128*16*9 {
			t.Errorf("reduceInterleaved: %d bar.sync executions, want %d", bars, 128*16*9)
		}
		html := readFile(t, filepath.Join(lessonReports(t), "reduce.html"))
		for _, want := range []string{`data-rule="divergent-branch"`, `data-rule="uncoalesced-load"`, `>reduce.cu:6</a>`} {
			if !strings.Contains(sectionOf(t, html, "reduceNeighbored"), want) {
				t.Errorf("reduceNeighbored's section lacks %s", want)
			}
		}
		if strings.Contains(sectionOf(t, html, "reduceInterleaved"), `data-rule="uncoalesced-load"`) {
			t.Errorf("reduceInterleaved's section advises on uncoalesced loads")
		}
	})
	t.Run("divergence", func(t *testing.T) {
		p := readLessonProfile(t, "divergence")
		// mathKernel1's if (tid%2==0) is line 6; nvcc made it a selp.
		l := launchOf(t, p, "mathKernel1")
		c, n := lineCounts(p, l, "divergence.cu", 6)
		if n == 0 || c.Inst == 0 {
			t.Fatalf("mathKernel1: nothing on divergence.cu:6")
		}
		found := false
		for _, in := range l.Funcs[0].Insts {
			if strings.HasPrefix(in.Text, "selp") && in.Line == 6 {
				found = true
			}
		}
		if !found {
			t.Errorf("mathKernel1: the selp the if became is not on line 6")
		}
		// 64 threads: 2 warps run each of the kernel's 13 instructions.
		if c := launchOf(t, p, "mathKernel1").Metrics["inst_executed"]; c != 2*13 {
			t.Errorf("mathKernel1: inst_executed %v, want 26", c)
		}
	})
	t.Run("coarsen", func(t *testing.T) {
		p := readLessonProfile(t, "coarsen")
		// n = 128, tile 16: (8/CF)×8 blocks of 8 warps, 8 phases; each
		// warp stores two 16-float rows of Mds per phase (one request, one
		// wavefront), and CF rows of Nds.
		for _, cf := range []uint64{1, 2, 4} {
			l := launchOf(t, p, "_Z12matmulCoarseILi16ELi"+itoaU(cf)+"EEvPKfS1_Pfi")
			m, _ := lineCounts(p, l, "coarsen.cu", 10)
			nds, _ := lineCounts(p, l, "coarsen.cu", 13)
			blocks := 8 / cf * 8
			if want := blocks * 8 * 8; m.ShStRequests != want || m.ShStWavefronts != want {
				t.Errorf("CF=%d: Mds stores (line 10): %d requests, %d wavefronts, want %d", cf, m.ShStRequests, m.ShStWavefronts, want)
			}
			if want := blocks * 8 * 8 * cf; nds.ShStRequests != want {
				t.Errorf("CF=%d: Nds stores (line 13): %d requests, want %d", cf, nds.ShStRequests, want)
			}
		}
	})
}

func itoaU(v uint64) string { b, _ := json.Marshal(v); return string(b) }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sectionOf returns the HTML of a kernel's section.
func sectionOf(t *testing.T, html, fn string) string {
	t.Helper()
	i := strings.Index(html, `data-kernel="`+fn+`"`)
	if i < 0 {
		t.Fatalf("no section for %s", fn)
	}
	rest := html[i:]
	if j := strings.Index(rest, "</section>"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// TestReportRoundTrip: run --export then report renders the same page as
// run --report, and a profile of another version is refused.
func TestReportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	launch := filepath.Join("..", "..", "examples", "lessons", "reduce.json")
	js, direct, again := filepath.Join(dir, "p.json"), filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html")
	if code, _, stderr := runCLI("run", "--export", js, "--report", direct, launch); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI("report", js, again); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if a, b := readFile(t, direct), readFile(t, again); a != b {
		t.Errorf("report from the JSON differs from run --report")
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"version": 99, "launches": []}`), 0o644)
	if code, _, stderr := runCLI("report", bad, filepath.Join(dir, "c.html")); code != 2 || !strings.Contains(stderr, "version 99") {
		t.Errorf("a version-99 profile: exit %d, %q; want exit 2 naming the version", code, stderr)
	}
}

// TestProfReport profiles the reduction lesson built by warpsim cc (clang
// writes .loc): the report names reduce.cu's lines from the PTX's own line
// info, and each host launch's per-line counts add up to its counters.
func TestProfReport(t *testing.T) {
	needClang(t)
	prog := buildCU(t, filepath.Join(lessonsDir, "reduce.cu"))
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	dir := t.TempDir()
	js, page := filepath.Join(dir, "p.json"), filepath.Join(dir, "p.html")
	if code, _, stderr := runCLI("prof", "--export", js, "--report", page, prog, "512", "14"); code != 0 {
		t.Fatalf("prof: exit %d\n%s", code, stderr)
	}
	fh, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	p, err := report.Read(fh)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Launches) != 4 { // a warm-up reduceNeighbored, then the three
		t.Fatalf("%d launches, want 4", len(p.Launches))
	}
	for _, l := range p.Launches {
		var sum report.Counts
		for _, f := range l.Funcs {
			for _, in := range f.Insts {
				sum.Add(&in.Counts)
			}
		}
		if float64(sum.Inst) != l.Metrics["inst_executed"] || float64(sum.DivergentBranch) != l.Metrics["divergent_branch"] {
			t.Errorf("%s: lines sum to %d inst, %d divergent; metrics %v, %v", l.Kernel, sum.Inst, sum.DivergentBranch, l.Metrics["inst_executed"], l.Metrics["divergent_branch"])
		}
	}
	// reduce.cu line 6 holds reduceNeighbored's loop and its if.
	c, n := lineCounts(p, &p.Launches[0], "reduce.cu", 6)
	if n == 0 || c.DivergentBranch == 0 {
		t.Errorf("reduceNeighbored: reduce.cu:6 has %d instructions, %d divergent branches; want the divergent if there", n, c.DivergentBranch)
	}
	if !strings.Contains(readFile(t, page), `>reduce.cu:6</a>`) {
		t.Errorf("the report's advice names no reduce.cu:6")
	}
}

// TestReportStallsByInstruction: under the timing driver, an exported
// profile carries each instruction's stall samples, and they add up to the
// launch's stall reasons exactly (the timing model's PCStalls).
func TestReportStallsByInstruction(t *testing.T) {
	js := filepath.Join(t.TempDir(), "p.json")
	launch := filepath.Join("..", "..", "examples", "lessons", "reduce.json")
	if code, _, stderr := runCLI("run", "--mode", "timing", "--export", js, launch); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := report.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range p.Launches {
		sum := make([]uint64, len(l.Stalls))
		var any uint64
		for _, fn := range l.Funcs {
			for _, in := range fn.Insts {
				for i, v := range in.Stalls {
					sum[i] += v
					any += v
				}
			}
		}
		if any == 0 {
			t.Errorf("%s: no instruction has stall samples", l.Kernel)
		}
		for i := range sum {
			if sum[i] != l.Stalls[i] {
				t.Errorf("%s: %s: instructions sum to %d warp-cycles, the launch has %d", l.Kernel, l.StallNames[i], sum[i], l.Stalls[i])
			}
		}
	}
}
