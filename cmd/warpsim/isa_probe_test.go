package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestISAProbeMatchesH100 builds testdata/isa/isa_probe.cu (every test in
// one program) with warpsim cc and compares its output, test by test, with
// what the H100 printed running each test alone (out/isa_h100.txt):
// min/max.xorsign.abs, cvt.pack.sat, cluster mbarrier arrivals,
// st.async, red.async, the shared::cta -> shared::cluster bulk copy and
// cp.reduce.async.bulk, inputs and outputs. The tests ptxas refused on the
// H100 (20, 52: "build failed") are not in the program.
func TestISAProbeMatchesH100(t *testing.T) {
	needClang(t)
	dir := "../../testdata/isa"
	prog := buildCU(t, filepath.Join(dir, "isa_probe.cu"), "-arch=sm_90a")
	rec, err := os.ReadFile(filepath.Join(dir, "out", "isa_h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// both drivers: the timing one must let a cluster block's remote
	// arrival reach a try_wait loop on another SM (test 21)
	for _, mode := range []string{"functional", "timing"} {
		t.Run(mode, func(t *testing.T) {
			got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=" + mode})
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			compareISAProbe(t, string(rec), got)
		})
	}
}

// compareISAProbe compares the probe's output with the recording, test by
// test (the lines named tN, tN.in, tN.src, tN.dst).
func compareISAProbe(t *testing.T, rec, got string) {
	groups := func(s string) (map[string][]string, []string) {
		g := map[string][]string{}
		var order []string
		for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimSuffix(f[0], ":"), ".")
			if _, ok := g[name]; !ok {
				order = append(order, name)
			}
			g[name] = append(g[name], line)
		}
		return g, order
	}
	want, order := groups(rec)
	have, _ := groups(got)
	n := 0
	for _, name := range order {
		w := want[name]
		if strings.Contains(w[0], "build failed") {
			continue
		}
		n++
		h := have[name]
		if len(h) != len(w) {
			t.Errorf("%s: %d lines, the H100 %d (first: %q)", name, len(h), len(w), strings.Join(h[:min(1, len(h))], ""))
			continue
		}
		for i := range w {
			if h[i] != w[i] {
				t.Errorf("%s:\n got %s\nH100 %s", name, h[i], w[i])
				break
			}
		}
	}
	if n < 47 {
		t.Errorf("only %d recorded tests", n)
	}
}
