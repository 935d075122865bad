package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// inflightRows parses inflight_mb's table ("mode lanes N cycles…") into
// "mode lanes N" -> the first repetition's cycles.
func inflightRows(t *testing.T, out string) map[string]float64 {
	t.Helper()
	rows := map[string]float64{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 4 || f[0] == "mode" {
			continue
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatalf("bad row %q", l)
		}
		rows[strings.Join(f[:3], " ")] = v
	}
	return rows
}

// TestLongInflightAgainstH100 runs testdata/timing/inflight's
// inflight_mb.cu (clang's code; one warp's 1 to 128 independent loads of
// distinct lines, from the L2 and from DRAM, by one lane or by 32) at the
// H100's base clock and compares its clock64 spans with the H100's under
// Nsight Compute (h100/inflight_mb.ncu.txt): the one-lane rows, where one
// warp's loads in flight are bounded (timing.Params.LoadWindow, 32), within
// 15% on the mean (12.2% when recorded; 22.4% with load.window=0), and
// better than without the bound; the 32-lane rows, whose loads are few
// dozen a warp, are the same with the bound and without it.
func TestLongInflightAgainstH100(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	t.Setenv("WARPSIM_SAMPLING", "0")
	dir, err := filepath.Abs("../../testdata/timing/inflight")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "h100", "inflight_mb.ncu.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := inflightRows(t, string(rec))
	bin := buildCU(t, filepath.Join(dir, "inflight_mb.cu"), programs9Base...)
	model := func(sets ...string) map[string]float64 {
		var o, e bytes.Buffer
		args := []string{"prof", "--set", "clock=1589MHz"}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		if code := run(append(args, bin, "1"), &o, &e); code != 0 {
			t.Fatalf("inflight_mb: exit %d\n%s", code, e.String())
		}
		return inflightRows(t, o.String())
	}
	with, without := model(), model("load.window=0")
	if len(want) != 52 || len(with) != len(want) || len(without) != len(want) {
		t.Fatalf("rows: H100 %d, model %d and %d; want 52", len(want), len(with), len(without))
	}
	mae := func(got map[string]float64, lanes string) float64 {
		sum, n := 0.0, 0
		for k, w := range want {
			if strings.Split(k, " ")[1] == lanes {
				sum += math.Abs(got[k]-w) / w
				n++
			}
		}
		return sum / float64(n)
	}
	a, b := mae(with, "1"), mae(without, "1")
	t.Logf("one lane: MAE %.1f%% with the window, %.1f%% without; 32 lanes: %.1f%%", 100*a, 100*b, 100*mae(with, "32"))
	if a > 0.15 || a >= b {
		t.Errorf("one lane's rows: MAE %.1f%% with LoadWindow, %.1f%% without; want at most 15%% and better", 100*a, 100*b)
	}
	for k := range want {
		if strings.Split(k, " ")[1] == "32" && with[k] != without[k] {
			t.Errorf("%s: %v cycles with LoadWindow, %v without; 32 lanes' loads do not reach it", k, with[k], without[k])
		}
	}
}
