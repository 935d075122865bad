package cc

import (
	"strings"
	"testing"
)

// TestAddMaxNReg: -maxrregcount puts .maxnreg on the kernels without a
// directive of their own and leaves __launch_bounds__ kernels (.maxntid) and
// device functions alone.
func TestAddMaxNReg(t *testing.T) {
	ptx := ".visible .func f()\n{\n}\n" +
		".visible .entry a(\n\t.param .u64 p\n)\n{\n\tret;\n}\n" +
		".visible .entry b(\n\t.param .u64 p\n)\n.maxntid 256, 1, 1\n{\n\tret;\n}\n" +
		".entry c()\n{\n\tret;\n}\n"
	got := string(addMaxNReg(32, []byte(ptx)))
	want := ".visible .func f()\n{\n}\n" +
		".visible .entry a(\n\t.param .u64 p\n)\n.maxnreg 32\n{\n\tret;\n}\n" +
		".visible .entry b(\n\t.param .u64 p\n)\n.maxntid 256, 1, 1\n{\n\tret;\n}\n" +
		".entry c()\n.maxnreg 32\n{\n\tret;\n}\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(addMaxNReg(0, []byte(ptx))); got != ptx {
		t.Errorf("n=0 changed the PTX:\n%s", got)
	}
	if strings.Count(string(addMaxNReg(32, []byte(want))), ".maxnreg") != 2 {
		t.Error("a second pass added .maxnreg again")
	}
}
