package sanitize_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// genKernel turns bytes into a straight-line kernel of memory accesses:
// loads, stores and atomics of every size to global, shared, local and
// generic addresses (tid × stride + a constant that may lie far outside),
// barriers and warp-level operations with arbitrary masks, some under a
// branch only part of the warp takes. Four bytes make one operation.
func genKernel(data []byte) string {
	var b strings.Builder
	b.WriteString(header + `.visible .entry fuzz(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<40>;
	.shared .align 16 .b8 s[1024];
	.local .align 16 .b8 depot[64];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	cvt.u64.u32 %rd2, %r1;
	mov.u32 %r9, s;
	mov.u64 %rd9, depot;
	cvta.shared.u64 %rd8, s;
	cvta.local.u64 %rd7, depot;
`)
	skip := -1
	for i := 0; i+4 <= len(data) && i < 4*48; i += 4 {
		op, sz, mul, c := data[i], data[i+1], data[i+2], data[i+3]
		if op%9 == 8 && skip < 0 {
			fmt.Fprintf(&b, "\tsetp.lt.u32 %%p1, %%r1, %d;\n\t@%%p1 bra L%d;\n", c%64, i)
			skip = i
			continue
		}
		switch op % 9 {
		case 3:
			b.WriteString("\tbar.sync 0;\n")
		case 4:
			fmt.Fprintf(&b, "\tbar.warp.sync %d;\n", maskOf(c))
		case 5:
			fmt.Fprintf(&b, "\tshfl.sync.down.b32 %%r30, %%r1, %d, 31, %d;\n", c%32, maskOf(mul))
		case 6:
			fmt.Fprintf(&b, "\tvote.sync.ballot.b32 %%r31, %%p1, %d;\n", maskOf(c))
		case 7:
			fmt.Fprintf(&b, "\tredux.sync.add.u32 %%r32, %%r1, %d;\n", maskOf(c))
		default:
			memOp(&b, op%9, sz, mul, c)
		}
		if skip >= 0 && i > skip {
			fmt.Fprintf(&b, "L%d:\n", skip)
			skip = -1
		}
	}
	if skip >= 0 {
		fmt.Fprintf(&b, "L%d:\n", skip)
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

func maskOf(c byte) int64 {
	switch c % 4 {
	case 0:
		return -1
	case 1:
		return 0xffff
	case 2:
		return 0
	}
	return int64(c) * 0x01010101
}

// memOp writes one load (0), store (1) or atomic (2).
func memOp(b *strings.Builder, kind, sz, mul, c byte) {
	types := []string{"u8", "u16", "u32", "u64", "v2.u32", "v4.u32"}
	t := types[int(sz)%len(types)]
	if kind == 2 && t != "u64" {
		t = "u32"
	}
	off := int64(int8(c)) * int64(1+int(sz>>6)*1000)
	stride := int64(mul % 17)
	// The address: space 0 global, 1 shared, 2 local, 3 generic global,
	// 4 generic shared, 5 generic local.
	space := (sz >> 3) % 6
	if kind == 2 && (space == 2 || space == 5) {
		space = 0 // no atomics on local memory
	}
	fmt.Fprintf(b, "\tmul.lo.u64 %%rd10, %%rd2, %d;\n\tadd.s64 %%rd10, %%rd10, %d;\n", stride, off)
	ss, addr := "", "%rd11"
	switch space {
	case 0:
		ss = ".global"
		b.WriteString("\tadd.s64 %rd11, %rd10, %rd1;\n")
	case 1:
		ss, addr = ".shared", "%r11"
		b.WriteString("\tcvt.u32.u64 %r10, %rd10;\n\tadd.u32 %r11, %r10, %r9;\n")
	case 2:
		ss = ".local"
		b.WriteString("\tadd.s64 %rd11, %rd10, %rd9;\n")
	case 3:
		b.WriteString("\tadd.s64 %rd11, %rd10, %rd1;\n")
	case 4:
		b.WriteString("\tadd.s64 %rd11, %rd10, %rd8;\n")
	case 5:
		b.WriteString("\tadd.s64 %rd11, %rd10, %rd7;\n")
	}
	val, dst := "%r1", "%r20"
	switch t {
	case "u64":
		val, dst = "%rd2", "%rd20"
	case "v2.u32":
		val, dst = "{%r1, %r1}", "{%r20, %r21}"
	case "v4.u32":
		val, dst = "{%r1, %r1, %r1, %r1}", "{%r20, %r21, %r22, %r23}"
	}
	switch kind {
	case 0:
		fmt.Fprintf(b, "\tld%s.%s %s, [%s];\n", ss, t, dst, addr)
	case 1:
		fmt.Fprintf(b, "\tst%s.%s [%s], %s;\n", ss, t, addr, val)
	case 2:
		fmt.Fprintf(b, "\tatom%s.add.%s %s, [%s], %s;\n", ss, t, dst, addr, val)
	}
}

// FuzzSanitizer: random memory-access patterns through every tool never
// crash the sanitizer or the engine (a panic under a launch becomes a
// "warpsim internal error" fault, which fails the test).
func FuzzSanitizer(f *testing.F) {
	f.Add([]byte{1, 16, 1, 0, 0, 16, 3, 4, 3, 0, 0, 0, 0, 8, 4, 0})
	f.Add([]byte{8, 0, 0, 10, 3, 0, 0, 0, 1, 2, 4, 200, 5, 0, 1, 3})
	f.Add([]byte{2, 8, 4, 0, 2, 3, 0, 0, 1, 40, 16, 128, 0, 44, 4, 7, 4, 0, 0, 1})
	f.Add([]byte{1, 0xc8, 9, 0x7f, 0, 0xd0, 2, 0x80, 6, 0, 0, 2, 7, 0, 0, 1, 1, 35, 4, 0})
	a, err := arch.Lookup("h100")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := genKernel(data)
		for _, opt := range []sanitize.Options{
			{Tool: sanitize.Memcheck, CheckLocal: true},
			{Tool: sanitize.Racecheck, RaceReport: sanitize.ReportAll, GlobalRaces: true},
			{Tool: sanitize.Initcheck},
			{Tool: sanitize.Synccheck},
		} {
			opt.SharedBase = uint64(a.ReservedSharedPerBlock)
			san := sanitize.New(opt)
			dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, StepLimit: 1 << 20})
			devhook.SetChecker(dev, san)
			m, err := dev.LoadModule("fuzz.ptx", []byte(src))
			if err != nil {
				t.Fatalf("the generator wrote PTX that does not load: %v\n%s", err, src)
			}
			k, err := m.Kernel("fuzz")
			if err != nil {
				t.Fatal(err)
			}
			buf, _ := dev.Malloc(4096)
			san.HostAlloc(buf, 4096)
			_, lerr := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 2, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 48, Y: 1, Z: 1}},
				binary.LittleEndian.AppendUint64(nil, buf))
			if lerr != nil && strings.Contains(lerr.Error(), "internal error") {
				t.Fatalf("%s: %v\n%s", opt.Tool, lerr, src)
			}
			san.EndLaunch()
			_ = san.Take()
			_ = san.Summary()
		}
	})
}
