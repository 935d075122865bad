package sanitize_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// gapKernels each store the local address of their 16-byte array, which
// is their whole frame, so the stack top is that address + 16. Each
// reaches a different system call, made under a branch never taken:
// none, vprintf, malloc (through a __noinline__ function), free.
const gapKernels = header + `
.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);
.extern .func (.param .b64 r) malloc(.param .b64 n);
.extern .func free(.param .b64 p);
.func (.param .b64 r) grab(.param .b64 n)
{
	.reg .b64 %rd<3>;
	ld.param.b64 %rd1, [n];
	{
	.param .b64 p0;
	.param .b64 r0;
	st.param.b64 [p0], %rd1;
	call.uni (r0), malloc, (p0);
	ld.param.b64 %rd2, [r0];
	}
	st.param.b64 [r], %rd2;
	ret;
}
.visible .entry none(.param .u64 out)
{
	.local .align 4 .b8 k[16];
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, k;
	st.global.u64 [%rd1], %rd2;
	ret;
}
.visible .entry printf(.param .u64 out)
{
	.local .align 4 .b8 k[16];
	.reg .pred %p1;
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, k;
	st.global.u64 [%rd1], %rd2;
	ld.global.u32 %r1, [%rd1+8];
	setp.eq.u32 %p1, %r1, 12345;
	@!%p1 bra done;
	{
	.param .b64 f0;
	.param .b64 a0;
	.param .b32 r0;
	st.param.b64 [f0], 0;
	st.param.b64 [a0], 0;
	call.uni (r0), vprintf, (f0, a0);
	}
done:
	ret;
}
.visible .entry heap(.param .u64 out)
{
	.local .align 4 .b8 k[16];
	.reg .pred %p1;
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, k;
	st.global.u64 [%rd1], %rd2;
	ld.global.u32 %r1, [%rd1+8];
	setp.eq.u32 %p1, %r1, 12345;
	@!%p1 bra done;
	{
	.param .b64 p0;
	.param .b64 r0;
	st.param.b64 [p0], 16;
	call.uni (r0), grab, (p0);
	}
done:
	ret;
}
.visible .entry freeing(.param .u64 out)
{
	.local .align 4 .b8 k[16];
	.reg .pred %p1;
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, k;
	st.global.u64 [%rd1], %rd2;
	ld.global.u32 %r1, [%rd1+8];
	setp.eq.u32 %p1, %r1, 12345;
	@!%p1 bra done;
	{
	.param .b64 p0;
	st.param.b64 [p0], 0;
	call.uni free, (p0);
	}
done:
	ret;
}
`

// TestLocalGap: the gap the driver leaves between a kernel's stack and the
// 16 MiB top of the local window, as the H100 and H200 showed it
// (testdata/sanitize/probe8, README; engine/stack.go): 0x240 bytes, 0x100
// more for printf, 0x210 more for malloc or free, 0x550 under memcheck
// whatever the kernel calls, and racecheck's, initcheck's and synccheck's
// own bytes on top of printf's.
func TestLocalGap(t *testing.T) {
	a, err := arch.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	none, mem := -1, int(sanitize.Memcheck)
	tests := []struct {
		kernel string
		tool   int
		gap    uint64
	}{
		{"none", none, 0x240},                      // probe7 local_past, probe8 noinline/rec/indirect/n64/n250/n1024
		{"printf", none, 0x340},                    // probe6 frames, probe8 printf
		{"heap", none, 0x450},                      // probe8 malloc
		{"freeing", none, 0x450},                   // (free is malloc's allocator's)
		{"none", mem, 0x550},                       // probe5 recursive_stack, probe7 local_past, probe8 noinline
		{"printf", mem, 0x550},                     // probe8 printf
		{"heap", mem, 0x550},                       // probe8 malloc
		{"printf", int(sanitize.Racecheck), 0x380}, // probe8 printf
		{"printf", int(sanitize.Initcheck), 0x3d0},
		{"printf", int(sanitize.Synccheck), 0x370},
	}
	for _, c := range tests {
		name := c.kernel + ".plain"
		if c.tool >= 0 {
			name = c.kernel + "." + sanitize.Tool(c.tool).String()
		}
		t.Run(name, func(t *testing.T) {
			dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Workers: 1})
			if c.tool >= 0 {
				devhook.SetChecker(dev, sanitize.New(sanitize.Options{Tool: sanitize.Tool(c.tool), SharedBase: uint64(a.ReservedSharedPerBlock)}))
			}
			m, err := dev.LoadModule("t.ptx", []byte(gapKernels))
			if err != nil {
				t.Fatal(err)
			}
			k, err := m.Kernel(c.kernel)
			if err != nil {
				t.Fatal(err)
			}
			buf, err := dev.Malloc(16)
			if err != nil {
				t.Fatal(err)
			}
			if err := dev.Write(buf, make([]byte, 16)); err != nil {
				t.Fatal(err)
			}
			params := binary.LittleEndian.AppendUint64(nil, buf)
			if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 1, Y: 1, Z: 1}}, params); err != nil {
				t.Fatal(err)
			}
			out := make([]byte, 8)
			if err := dev.Read(buf, out); err != nil {
				t.Fatal(err)
			}
			top := binary.LittleEndian.Uint64(out) + 16
			if got := 16<<20 - top; got != c.gap {
				t.Errorf("gap above the stack %s, want %s (the array at %#x)", fmt.Sprintf("%#x", got), fmt.Sprintf("%#x", c.gap), top-16)
			}
		})
	}
}
