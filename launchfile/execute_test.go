package launchfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

func newDevice() *warpsim.Device {
	return warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{StepLimit: 1 << 20})
}

func mustBuffer(t *testing.T, out *Outcome, name string) []byte {
	t.Helper()
	b, err := out.Buffer(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func f32s(b []byte) []float32 {
	f := make([]float32, len(b)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return f
}

// TestExecute runs kernels.ptx (from kernels.cu): vecAdd then poly, whose
// coefficients and result pointer are globals. Expected values are the
// kernels' arithmetic done by hand.
func TestExecute(t *testing.T) {
	src := `{
  "module": "kernels.ptx",
  "buffers": {
    "a": {"f32": [1, 2, 3, 4]},
    "b": {"f32": [10, 20, 30, 40]},
    "c": {"bytes": 16},
    "count": {"s32": [0]}
  },
  "globals": {"coeff": {"f32": [0.5, 3]}, "target": {"buffer": "count"}},
  "launches": [
    {"kernel": "vecAdd", "grid": [1], "block": [32], "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"s32": 4}]},
    {"kernel": "poly", "grid": [2], "block": [2], "args": [{"buffer": "c", "offset": 4}, {"s32": 3}]}
  ]
}`
	f, err := Parse("x.json", "testdata", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var after []int
	out, err := f.Execute(newDevice(), ExecOptions{AfterLaunch: func(i int, res *warpsim.LaunchResult) { after = append(after, i) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(out.BufferOrder, ",") != "a,b,c,count" {
		t.Errorf("buffer order %v", out.BufferOrder)
	}
	// c = a + b = {11, 22, 33, 44}; poly on c[1:4]: 0.5 + 3·x.
	want := []float32{11, 0.5 + 3*22, 0.5 + 3*33, 0.5 + 3*44}
	got := f32s(mustBuffer(t, out, "c"))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("c[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if n := binary.LittleEndian.Uint32(mustBuffer(t, out, "count")); n != 3 {
		t.Errorf("count = %d, want 3 (poly's n, stored through the global pointer)", n)
	}
	if got := f32s(mustBuffer(t, out, "a")); got[3] != 4 {
		t.Errorf("a changed: %v", got)
	}
	if len(out.Launches) != 2 || out.Launches[0].Kernel.Name() != "vecAdd" || out.Launches[1].Config.Grid.X != 2 {
		t.Errorf("launch results %+v", out.Launches)
	}
	if len(after) != 2 || after[0] != 0 || after[1] != 1 {
		t.Errorf("AfterLaunch calls %v", after)
	}
	// One warp per block: vecAdd 1 block, poly 2.
	if w := out.Launches[1].Counters.WarpsLaunched; w != 2 {
		t.Errorf("poly warps launched %d, want 2", w)
	}
}

func TestExecuteFault(t *testing.T) {
	src := `{"module": "kernels.ptx", "buffers": {"p": {"s32": [7, 7]}},
"launches": [{"kernel": "oob", "grid": [1], "block": [1], "args": [{"buffer": "p"}]}]}`
	f, err := Parse("x.json", "testdata", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Execute(newDevice(), ExecOptions{})
	var fault *warpsim.Fault
	if !errors.As(err, &fault) {
		t.Fatalf("want a *warpsim.Fault, got %T %v", err, err)
	}
	if fault.Kernel != "oob" {
		t.Errorf("fault in %q", fault.Kernel)
	}
	if out == nil || len(out.Launches) != 0 || len(mustBuffer(t, out, "p")) != 8 {
		t.Errorf("outcome after the fault: %+v", out)
	}
}

func TestExecuteErrors(t *testing.T) {
	const bufs = `"buffers": {"a": {"bytes": 16}},`
	tests := []struct {
		name, src, want string
	}{
		{"fewer args", `{"module": "kernels.ptx", ` + bufs + `
"launches": [{"kernel": "vecAdd", "grid": [1], "block": [1], "args": [{"buffer": "a"}, {"buffer": "a"}, {"buffer": "a"}]}]}`,
			"x.json:2: launches[0].args: kernel vecAdd takes 4 parameters, got 3"},
		{"buffer for an int", `{"module": "kernels.ptx", ` + bufs + `
"launches": [{"kernel": "vecAdd", "grid": [1], "block": [1],
  "args": [{"buffer": "a"}, {"buffer": "a"}, {"buffer": "a"}, {"buffer": "a"}]}]}`,
			"x.json:3: launches[0].args[3]: parameter 3 of vecAdd (vecAdd_param_3) is 4 bytes; a buffer address is 8"},
		{"scalar for a pointer", `{"module": "kernels.ptx", ` + bufs + `
"launches": [{"kernel": "oob", "grid": [1], "block": [1], "args": [{"u32": 0}]}]}`,
			"x.json:2: launches[0].args[0]: parameter 0 of oob (oob_param_0) is 8 bytes, got u32 of 4 bytes"},
		{"unknown kernel", `{"module": "kernels.ptx",
"launches": [{"kernel": "nope", "grid": [1], "block": [1]}]}`,
			`x.json:2: launches[0].kernel: no kernel "nope"`},
		{"unknown global", `{"module": "kernels.ptx", "globals": {
"nope": {"s32": [1]}}, "launches": [{"kernel": "spin", "grid": [1], "block": [1], "args": [{"u64": 0}]}]}`,
			"x.json:2: globals.nope: the module has no .global or .const variable nope"},
		{"global too small", `{"module": "kernels.ptx", "globals": {"coeff": {"f32": [1, 2, 3]}},
"launches": [{"kernel": "spin", "grid": [1], "block": [1], "args": [{"u64": 0}]}]}`,
			"x.json:1: globals.coeff: variable coeff is 8 bytes; the initializer has 12"},
		{"block too large", `{"module": "kernels.ptx", ` + bufs + `
"launches": [{"kernel": "oob", "grid": [1], "block": [2048], "args": [{"buffer": "a"}]}]}`,
			"x.json:2: launches[0]: "},
		{"load error", `{"module": "load_test.go", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`,
			"load_test.go:1:1: expected directive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.ReplaceAll(tt.src, `"load_test.go"`, `"../load_test.go"`)
			f, err := Parse("x.json", "testdata", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.Execute(newDevice(), ExecOptions{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got  %v\nwant %s…", err, tt.want)
			}
			var fault *warpsim.Fault
			if errors.As(err, &fault) {
				t.Errorf("a bad launch file reported as a kernel fault: %v", err)
			}
		})
	}
}

// TestExecuteCopiesNothingBack: the buffers stay on the device after a run;
// nothing is read back unless asked for (before, every buffer was copied
// back, doubling the peak memory of a run that saves nothing). The 16 MiB
// buffer must cost its device allocation and not a second copy, and a
// {"file": …} buffer is streamed, not held.
func TestExecuteCopiesNothingBack(t *testing.T) {
	const size = 16 << 20
	dir := t.TempDir()
	init := make([]byte, size)
	init[size-1] = 7
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), init, 0o644); err != nil {
		t.Fatal(err)
	}
	init = nil
	kernels, err := filepath.Abs("testdata/kernels.ptx")
	if err != nil {
		t.Fatal(err)
	}
	src := `{"module": "` + kernels + `", "buffers": {"big": {"file": "in.bin"}, "c": {"bytes": 16}, "count": {"s32": [0]}},
  "globals": {"target": {"buffer": "count"}},
  "launches": [{"kernel": "poly", "grid": [1], "block": [4], "args": [{"buffer": "c"}, {"s32": 4}]}]}`
	f, err := Parse("x.json", dir, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, err := f.Execute(newDevice(), ExecOptions{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("Execute allocated %d KiB", grew>>10)
	if grew > size*3/2 {
		t.Errorf("Execute allocated %d MiB for a %d MiB buffer: more than the device's copy", grew>>20, size>>20)
	}
	var w bytes.Buffer
	if err := out.WriteBuffer("big", &w); err != nil {
		t.Fatal(err)
	}
	if w.Len() != size || w.Bytes()[size-1] != 7 || w.Bytes()[0] != 0 {
		t.Errorf("big read back as %d bytes, last %d", w.Len(), w.Bytes()[size-1])
	}
}
