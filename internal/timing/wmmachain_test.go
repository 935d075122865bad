package timing_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
)

// wmmaChainDir holds the nineteenth round's tensor-core chains (im.cu),
// recorded on an H200 with nvcc 13 (record.sh): h100/im.nvcc.ptx.gz is
// nvcc's PTX, h100/im.h100.stderr each launch's clock64 cycles.
const wmmaChainDir = "../../testdata/timing/imma"

// readChainClocks reads im.h100.stderr's clock64 lines: launch name to the
// mean cycles of its warps' timed region.
func readChainClocks(t *testing.T) map[string]float64 {
	t.Helper()
	data, err := testenv.ReadRecording(wmmaChainDir + "/h100/im.h100.stderr")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var name string
		var mean float64
		if n, _ := fmt.Sscanf(sc.Text(), "%s cycles mean %f", &name, &mean); n == 2 {
			m[name] = mean
		}
	}
	if len(m) != 68 {
		t.Fatalf("im.h100.stderr: %d launches, want 68", len(m))
	}
	return m
}

// TestWmmaChainMicrobenchmarks runs nvcc's PTX of im.cu's straight-code
// wmma.mma chains (one warp, one accumulator, fully unrolled: 64 and 256
// steps) of s8, u8, f16 and bf16 m16n16k16 on the simulated H100 (the
// H200's SM) and compares a step's cycles (the clock64 difference between
// the two lengths over 192 steps: the fixed part of the timed region drops
// out) with the H200's: 16.0 cycles a step for the 8-bit types, 24.0 for
// f16 and bf16, where the same chain in a loop takes 28.0 and 32.1. The
// model forwards an MMA's accumulator to the next MMA of its block
// TensorPipe.ChainLatency cycles after it starts (chosen on the study
// rows: ch_u8_d1_s64/s256_w1, ch_s8_d1_s16_w1, ch_bf16_d1_s256_w1; the s8,
// f16 and bf16 pairs have a held-out row and are checked alike). Before,
// every step took the MMA's pipe time plus Latency: 32.0 and 36.0 cycles
// (+100%, +50%). Each type within 8%.
func TestWmmaChainMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: heavy plain tests run two at a time
	clocks := readChainClocks(t)
	src, err := testenv.ReadRecording(wmmaChainDir + "/h100/im.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("im.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	dA, _ := dev.Malloc(256 * 256 * 2)
	dB, _ := dev.Malloc(256 * 256 * 2)
	dC, _ := dev.Malloc(256 * 4)
	dcyc, _ := dev.Malloc(8)
	cycles := func(typ, n int) float64 {
		name := fmt.Sprintf("_Z2chILi%dELi%dELi1ELb0EEvPKN2TrIXT_EE4in_tES4_PNS1_5acc_tEPx", typ, n)
		k, err := mod.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}},
			params(dA, dB, dC, dcyc)); err != nil {
			t.Fatal(err)
		}
		return slowestWarpCycles(t, dev, dcyc, 1)
	}
	for typ, tn := range []string{"s8", "u8", "f16", "bf16"} {
		short, long := fmt.Sprintf("ch_%s_d1_s64_w1", tn), fmt.Sprintf("ch_%s_d1_s256_w1", tn)
		want := (clocks[long] - clocks[short]) / 192
		got := (cycles(typ, 256) - cycles(typ, 64)) / 192
		e := (got - want) / want
		msg := fmt.Sprintf("%-4s straight-code chain: %5.2f cycles a step, H200 %5.2f (%+.1f%%)", tn, got, want, 100*e)
		if math.Abs(e) > 0.08 || strings.Contains(msg, "NaN") {
			t.Errorf("%s: more than 8%% off", msg)
		} else {
			t.Log(msg)
		}
	}
}
