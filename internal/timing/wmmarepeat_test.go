package timing_test

import (
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
)

// TestWmmaRepeatsMicrobenchmarks times testdata/timing/wmmacse's
// 64-step launches of four chains on the same operands (straight code in
// ptxas's SASS, computed once: ir.TensorOperands.RepeatOf, WmmaRepeats)
// and of one chain, in each type, and checks the ratio of the two against
// the H200's (times.tsv: f16 0.94, bf16 0.98, tf32 0.95, s8 0.88) within
// 0.16. With every wmma.mma issued (ptxas.wmma_repeats=0) the model's
// ratios were 1.15, 1.37, 1.30 and 1.13 (failing); with the repeats folded
// 1.02, 1.10, 1.01, 1.02.
func TestWmmaRepeatsMicrobenchmarks(t *testing.T) {
	const dir = "../../testdata/timing/wmmacse"
	rows, err := testenv.ReadNCUTimes(dir + "/times.tsv")
	if err != nil {
		t.Fatal(err)
	}
	gpu := map[string]float64{}
	for _, r := range rows {
		gpu[r.Workload] = r.NS
	}
	src, err := testenv.ReadRecording(dir + "/h100/cx.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("cx.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	dA, _ := dev.Malloc(256 * 256 * 4)
	dB, _ := dev.Malloc(256 * 256 * 4)
	dC, _ := dev.Malloc(256 * 4)
	ns := func(typ, accs int) float64 {
		k, err := mod.Kernel(fmt.Sprintf("_Z2cxILi%dELi%dELi64ELi0EEvPKN2TrIXT_EE4in_tES4_PNS1_5acc_tE", typ, accs))
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}, params(dA, dB, dC))
		if err != nil {
			t.Fatal(err)
		}
		return res.DurationNS
	}
	for typ, tn := range []string{"f16", "bf16", "tf32", "s8"} {
		want := gpu[fmt.Sprintf("cx_%s_a4_n64_u0", tn)] / gpu[fmt.Sprintf("cx_%s_a1_n64_u0", tn)]
		got := ns(typ, 4) / ns(typ, 1)
		msg := fmt.Sprintf("%-4s four chains on the same operands / one: %.2f, H200 %.2f", tn, got, want)
		if math.IsNaN(got) || math.IsNaN(want) || math.Abs(got-want) > 0.16 {
			t.Errorf("%s: more than 0.16 apart", msg)
		} else {
			t.Log(msg)
		}
	}
}
