package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
)

// TestH200CarriesLibcallTable: the libdevice call table (Libcall) was
// measured on an H200 (testdata/libm20/h200, the H100's SM) and is written
// in the h100 preset; the h200 preset, made from the h100's (h200Params),
// carries the same table, every measured routine and the two rules for
// the others, and so does a custom arch based on h200.
func TestH200CarriesLibcallTable(t *testing.T) {
	h100 := ForArch(arch.MustLookup("h100"), 0)
	h200 := ForArch(arch.MustLookup("h200"), 0)
	custom := *arch.MustLookup("h200")
	custom.Name, custom.Base, custom.Timing = "h200-custom", "h200", map[string]float64{"latency.dram": 289}
	based := ForArch(&custom, 0)
	for _, name := range append(arch.LibcallFuncs[:], "math_f32", "math_f64") {
		k, ok := ir.LibcallNames["__nv_"+name]
		switch name {
		case "math_f32":
			k, ok = ir.LibcallMathF32, true
		case "math_f64":
			k, ok = ir.LibcallMathF64, true
		}
		if !ok {
			t.Fatalf("%s: no libcall kind", name)
		}
		want := h100.Libcall[k]
		if want.Cycles == 0 || want.Slots == 0 {
			t.Errorf("h100 %s: %+v, want a measured cost", name, want)
		}
		if got := h200.Libcall[k]; got != want {
			t.Errorf("h200 %s: %+v, the h100's %+v", name, got, want)
		}
		if got := based.Libcall[k]; got != want {
			t.Errorf("custom arch on h200 %s: %+v, the h100's %+v", name, got, want)
		}
	}
}
