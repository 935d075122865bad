package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestTensormapMicrobenchmarks runs nvcc's PTX of testdata/timing/
// tensormap/tmfence_mb.cu (a device-side tensor map, as Triton makes them:
// tensormap.replace of 13 fields, tensormap.cp_fenceproxy to global memory,
// fence.proxy.tensormap acquire) through the timing model and compares one
// warp's cycles a round with the H100's (h100/tmfence_mb.h100.txt), each
// within 15% (TensormapReplaceCycles, TensormapCopyCycles,
// TensormapAcquireCycles and the L2 round trip between the last two).
func TestTensormapMicrobenchmarks(t *testing.T) {
	const dir = "../../testdata/timing/tensormap/"
	src, err := os.ReadFile(dir + "h100/tmfence_mb.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(dir + "h100/tmfence_mb.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("tmfence_mb.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(8)
	gmap, _ := dev.Malloc(1024)
	tensor, _ := dev.Malloc(4 << 20)
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(string(rec)), "\n") {
		var kind int
		var want float64
		if n, _ := fmt.Sscanf(strings.TrimSpace(line), "tmfence kind=%d cycles_per=%f", &kind, &want); n != 2 {
			t.Fatalf("cannot read %q", line)
		}
		k, err := mod.Kernel(fmt.Sprintf("_Z1kILi%dEEvPxPcS1_", kind))
		if err != nil {
			t.Fatal(err)
		}
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
		if _, err := dev.Launch(k, cfg, params(out, gmap, tensor)); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		got := float64(int64(binary.LittleEndian.Uint64(b))) / 64
		rows++
		msg := fmt.Sprintf("%s: model %.2f (%+.1f%%)", line, got, 100*(got-want)/want)
		if math.Abs(got-want) > 0.15*want {
			t.Errorf("%s: more than 15%% off", msg)
		} else {
			t.Log(msg)
		}
	}
	if rows != 5 {
		t.Errorf("%d rows, the recording has 5", rows)
	}
}
