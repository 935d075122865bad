package warpsim_test

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/ptx"
)

// videoPTX is a kernel that runs each form (its operands %0 = d, %1 = a,
// %2 = b, %3 = c) on row i of the inputs and stores row i of the results.
func videoPTX(forms []string) string {
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pout, .param .u32 rows)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u64 %rd4, [pout];
	ld.param.u32 %r9, [rows];
	mov.u32 %r5, %ctaid.x;
	mov.u32 %r6, %ntid.x;
	mov.u32 %r7, %tid.x;
	mad.lo.s32 %r8, %r5, %r6, %r7;
	setp.ge.u32 %p1, %r8, %r9;
	@%p1 bra DONE;
	mul.wide.u32 %rd5, %r8, 4;
	add.s64 %rd6, %rd1, %rd5;
	ld.global.u32 %r1, [%rd6];
	add.s64 %rd7, %rd2, %rd5;
	ld.global.u32 %r2, [%rd7];
	add.s64 %rd8, %rd3, %rd5;
	ld.global.u32 %r3, [%rd8];
`)
	fmt.Fprintf(&b, "\tmul.wide.u32 %%rd9, %%r8, %d;\n\tadd.s64 %%rd10, %%rd4, %%rd9;\n", 4*len(forms))
	r := strings.NewReplacer("%0", "%r4", "%1", "%r1", "%2", "%r2", "%3", "%r3")
	for k, f := range forms {
		fmt.Fprintf(&b, "\t%s\n\tst.global.u32 [%%rd10+%d], %%r4;\n", r.Replace(f), 4*k)
	}
	b.WriteString("DONE:\n\tret;\n}\n")
	return b.String()
}

// lowerPTX parses and lowers a module: nil, or the first error.
func lowerPTX(name, src string) error {
	m, err := ptx.Parse(name, []byte(src))
	if err != nil {
		return err
	}
	_, err = ir.Lower(m, nil)
	return err
}

// TestVideoProbeMatchesH100 runs every form of testdata/video's two probes
// through the parser, the lowering and the engine on the recorded operand
// rows, and compares every result bit for bit with the H100's: the probe
// (1512 forms: the PTX video instructions, scalar with every type, .sat,
// secondary operations, selectors and merges, vset, vmad, and the SIMD
// vadd2 … vset4, as nvcc 13 / ptxas built them for an H100), whose SASS
// the scalar rules were read from, and the held-out probe (260 forms
// recorded after those rules were written: other selector, merge, .sat and
// vmad combinations). Every form must run: none is refused.
func TestVideoProbeMatchesH100(t *testing.T) {
	for _, p := range []struct {
		name, dir, stem string
		forms           int
	}{
		{"probe", "testdata/video", "video_simd", 1512},
		{"heldout", "testdata/video/heldout", "video_heldout", 260},
	} {
		t.Run(p.name, func(t *testing.T) { checkVideoProbe(t, p.dir+"/"+p.stem, p.forms) })
	}
}

// checkVideoProbe runs the probe recorded as stem.forms.txt and
// stem.h100.txt, which must list nforms forms.
func checkVideoProbe(t *testing.T, stem string, nforms int) {
	formsText, err := testenv.ReadRecording(stem + ".forms.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := testenv.ReadRecording(stem + ".h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	forms := strings.Split(strings.TrimSpace(string(formsText)), "\n")
	if len(forms) != nforms {
		t.Fatalf("%d forms, want %d", len(forms), nforms)
	}
	lines := strings.Split(strings.TrimSpace(string(rec)), "\n")
	if len(lines) < 2 || lines[0] != "no error" {
		t.Fatalf("recording: %d lines, first %q", len(lines), lines[0])
	}
	lines = lines[1:]
	hex := func(s string) uint32 {
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(v)
	}
	rows := len(lines)
	in := make([][3]uint32, rows)
	want := make([][]uint32, rows)
	for i, line := range lines {
		head, rest, _ := strings.Cut(line, ":")
		abc, got := strings.Fields(head), strings.Fields(rest)
		if len(abc) != 3 || len(got) != len(forms) {
			t.Fatalf("row %d: %d operands and %d results, want 3 and %d", i, len(abc), len(got), len(forms))
		}
		for j := range 3 {
			in[i][j] = hex(abc[j])
		}
		want[i] = make([]uint32, len(forms))
		for k := range got {
			want[i][k] = hex(got[k])
		}
	}

	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeFunctional})
	var run []int // indices of the forms warpsim runs
	for k, f := range forms {
		if err := lowerPTX("form.ptx", videoPTX([]string{f})); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		run = append(run, k)
	}
	runForms := make([]string, len(run))
	for i, k := range run {
		runForms[i] = forms[k]
	}
	mod, err := dev.LoadModule("video.ptx", []byte(videoPTX(runForms)))
	if err != nil {
		t.Fatal(err)
	}
	kern, err := mod.Kernel("probe")
	if err != nil {
		t.Fatal(err)
	}
	bufs := make([]uint64, 3)
	for j := range bufs {
		b := make([]byte, 4*rows)
		for i := range rows {
			binary.LittleEndian.PutUint32(b[4*i:], in[i][j])
		}
		if bufs[j], err = dev.Malloc(uint64(len(b))); err != nil {
			t.Fatal(err)
		}
		dev.Write(bufs[j], b)
	}
	out, err := dev.Malloc(uint64(4 * rows * len(run)))
	if err != nil {
		t.Fatal(err)
	}
	params := make([]byte, 36)
	for j, p := range append(bufs, out) {
		binary.LittleEndian.PutUint64(params[8*j:], p)
	}
	binary.LittleEndian.PutUint32(params[32:], uint32(rows))
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(rows+63) / 64, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}
	if _, err := dev.Launch(kern, cfg, params); err != nil {
		t.Fatal(err)
	}
	res := make([]byte, 4*rows*len(run))
	dev.Read(out, res)
	for j, k := range run {
		bad, first := 0, ""
		for i := range rows {
			got := binary.LittleEndian.Uint32(res[4*(i*len(run)+j):])
			if got != want[i][k] {
				if bad == 0 {
					first = fmt.Sprintf("a=%08x b=%08x c=%08x: got %08x, H100 %08x", in[i][0], in[i][1], in[i][2], got, want[i][k])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d rows differ; first %s", forms[k], bad, rows, first)
		}
	}
	t.Logf("%d forms × %d rows: %d run and were compared", len(forms), rows, len(run))
}
