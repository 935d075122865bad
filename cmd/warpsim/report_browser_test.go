package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/report"
)

// The browser tests open reports in headless Chromium (Debian's chromium,
// which .ci/run installs). Under CI (CI=true or WARPSIM_REQUIRE_CHROMIUM=1)
// a missing browser fails them; elsewhere they skip saying so. Screenshots
// go to $WARPSIM_ARTIFACTS when set, else the test's temporary directory.

func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium", "apt-get install chromium")
	return ""
}

// chromium runs headless Chromium on a file with extra flags and returns
// its stdout and stderr.
func chromium(t *testing.T, bin string, file string, flags ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, flags...)
	args = append(args, "file://"+file)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", file, err, errb.String())
	}
	return out.String(), errb.String()
}

func artifactDir(t *testing.T) string {
	if d := os.Getenv("WARPSIM_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// checkPage checks a dumped DOM for a page whose script ran to the end
// without an error and a browser log without console messages.
func checkPage(t *testing.T, dom, log string) {
	t.Helper()
	if !strings.Contains(dom, `data-ready="1"`) {
		t.Errorf("the report's script did not finish (no data-ready on <html>)")
	}
	if m := regexp.MustCompile(`data-errors="([^"]*)"`).FindStringSubmatch(dom); m != nil {
		t.Errorf("script errors: %s", m[1])
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("console message: %s", line)
		}
	}
}

var (
	rowRE  = regexp.MustCompile(`<tr id="([^"]+)" data-pc="(\d+)"([^>]*)>(.*?)</tr>`)
	instRE = regexp.MustCompile(`<td class="n c-inst">([^<]*)</td>`)
	divRE  = regexp.MustCompile(`<td class="n c-div">([^<]*)</td>`)
	dataRE = regexp.MustCompile(`data-inst="([^"]*)"`)
)

// TestReportInBrowser opens the reduction lesson's report in Chromium and
// reads back each kernel's PTX lines and counts, its .cu lines and charts.
func TestReportInBrowser(t *testing.T) {
	bin := chromiumPath(t)
	dir := lessonReports(t)
	file := filepath.Join(dir, "reduce.html")
	p := readLessonProfile(t, "reduce")
	dom, log := chromium(t, bin, file, "--dump-dom")
	checkPage(t, dom, log)
	for _, l := range p.Launches {
		sec := sectionOf(t, dom, l.Func)
		rows := rowRE.FindAllStringSubmatch(sec, -1)
		want := 0
		for _, f := range l.Funcs {
			want += len(f.Insts)
		}
		if len(rows) != want {
			t.Errorf("%s: %d PTX rows in the page, %d instructions", l.Func, len(rows), want)
			continue
		}
		// Each row's warp-instruction count is the instruction's, and
		// they add up to the kernel's inst_executed.
		var sum float64
		for i, r := range rows {
			in := l.Funcs[0].Insts[i]
			// The row's data-inst (what the colouring reads) and the
			// cell's text (what a reader sees) both give the count.
			var v float64
			if d := dataRE.FindStringSubmatch(r[3]); d != nil {
				v, _ = strconv.ParseFloat(d[1], 64)
			}
			text := ""
			if m := instRE.FindStringSubmatch(r[4]); m != nil {
				text = m[1]
			}
			if uint64(v) != in.Inst || (in.Inst > 0 && text != strconv.FormatUint(in.Inst, 10)) || (in.Inst == 0 && text != "") {
				t.Errorf("%s pc %d: page shows %q (data-inst %v), the profile %d", l.Func, i, text, v, in.Inst)
			}
			sum += v
		}
		if sum != l.Metrics["inst_executed"] {
			t.Errorf("%s: PTX rows add up to %v warp instructions, inst_executed is %v", l.Func, sum, l.Metrics["inst_executed"])
		}
		for _, chart := range []string{"stalls", "memory", "occupancy", "occupancy-curve", "roofline"} {
			if !strings.Contains(sec, `<svg class="chart" data-chart="`+chart+`"`) {
				t.Errorf("%s: no %s chart", l.Func, chart)
			}
		}
		if !strings.Contains(sec, `style="background:`) && !strings.Contains(sec, `style="background-color:`) {
			t.Errorf("%s: no line coloured by the script", l.Func)
		}
	}
	// reduceNeighbored's line 6 as the page shows it: its divergent
	// branches over its branches, from the profile's instructions.
	nb := launchOf(t, p, "reduceNeighbored")
	c, _ := lineCounts(p, nb, "reduce.cu", 6)
	row := regexp.MustCompile(`<tr id="k0-f0-L6"[^>]*>(.*?)</tr>`).FindStringSubmatch(sectionOf(t, dom, "reduceNeighbored"))
	if row == nil {
		t.Fatalf("reduceNeighbored: no row for reduce.cu:6")
	}
	if got, want := divRE.FindStringSubmatch(row[1]), fmt.Sprintf("%d/%d", c.DivergentBranch, c.Branch); got == nil || got[1] != want {
		t.Errorf("reduce.cu:6 divergent column: %v, want %s", got, want)
	}
	if !strings.Contains(dom, `data-chart="timeline"`) {
		t.Errorf("no timeline")
	}
	shot := filepath.Join(artifactDir(t), "reduce-report.png")
	chromium(t, bin, file, "--screenshot="+shot, "--window-size=1400,2200", "--hide-scrollbars")
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Errorf("screenshot %s: %v", shot, err)
	}
	t.Logf("screenshot: %s", shot)
}

// synthPTX is a kernel of n straight-line instructions: loads, adds and
// stores in turn, every line with its own .loc.
func synthPTX(n int) string {
	var b strings.Builder
	b.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"synth.cu\"\n")
	b.WriteString(".visible .entry synth(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n")
	b.WriteString("ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmov.u32 %r2, 0;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, ".loc 1 %d 1\n", i+1)
		switch i % 4 {
		case 0:
			b.WriteString("ld.global.u32 %r3, [%rd3];\n")
		case 1:
			b.WriteString("add.s32 %r2, %r2, %r3;\n")
		case 2:
			b.WriteString("xor.b32 %r2, %r2, %r1;\n")
		default:
			b.WriteString("st.global.u32 [%rd3], %r2;\n")
		}
	}
	b.WriteString("ret;\n}\n")
	return b.String()
}

// TestReportLargeKernel measures a 2,000-line kernel's report: its size,
// the time Chromium takes to load it, and the time its script takes (until
// 2026-11-28 Chromium also loaded an empty page first, for a logged
// comparison that nothing checked: a browser start, some 2 CPU seconds).
func TestReportLargeKernel(t *testing.T) {
	bin := chromiumPath(t)
	const n = 2000
	a := arch.MustLookup("h100")
	dev := warpsim.NewDevice(a, warpsim.Options{Lines: true})
	mod, err := dev.LoadModule("synth.ptx", []byte(synthPTX(n)))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("synth")
	if err != nil {
		t.Fatal(err)
	}
	buf, err := dev.Malloc(4 * 256)
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 256, Y: 1, Z: 1}}, u64(buf))
	if err != nil {
		t.Fatal(err)
	}
	src := make([]string, n)
	for i := range src {
		src[i] = fmt.Sprintf("x = f%d(x);", i)
	}
	b := report.NewBuilder(a, "functional", report.Options{Title: "synthetic 2,000-line kernel",
		ReadSource: func(string) ([]byte, error) { return []byte(strings.Join(src, "\n")), nil }})
	b.Add(res)
	dir := t.TempDir()
	page := filepath.Join(dir, "big.html")
	if err := writeReport(b.Profile(), "", page); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	dom, log := chromium(t, bin, page, "--dump-dom")
	took := time.Since(start)
	checkPage(t, dom, log)
	if rows := len(rowRE.FindAllString(dom, -1)); rows != n+7 {
		t.Errorf("%d PTX rows, want %d", rows, n+7)
	}
	ms := regexp.MustCompile(`data-script-ms="(\d+)"`).FindStringSubmatch(dom)
	if ms == nil {
		t.Fatal("no data-script-ms")
	}
	script, _ := strconv.Atoi(ms[1])
	parsed := regexp.MustCompile(`data-parsed-ms="(\d+)"`).FindStringSubmatch(dom)
	if parsed == nil {
		t.Fatal("no data-parsed-ms")
	}
	st, _ := os.Stat(page)
	t.Logf("2,000-line kernel: report %d KiB; parsed in %s ms, script %d ms; Chromium start+load+dump %v", st.Size()/1024, parsed[1], script, took)
	// A page the browser must not freeze on: its script runs well under a
	// second here, on a busy 2-core machine.
	if script > 2000 {
		t.Errorf("the report's script took %d ms on a 2,000-line kernel", script)
	}
}
