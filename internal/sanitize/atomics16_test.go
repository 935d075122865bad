package sanitize_test

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/sanitize"
)

// halfAtomicKernels: the f16/bf16 and 128-bit atomics, which the
// sanitizer must see as atomics (never hazards; sized as the access).
const halfAtomicKernels = header + `
// Every thread adds to one shared f16, one bf16x2 word and swaps one
// 16-byte slot: atomics, no hazards.
.visible .entry sharedHalfAtomics(.param .u64 out)
{
	.reg .b16 %rs<4>;
	.reg .b32 %r<4>;
	.reg .b128 %q<3>;
	.reg .b64 %rd<3>;
	.shared .align 16 .b8 s[32];
	mov.b16 %rs1, 0x3c00;
	atom.shared.add.noftz.f16 %rs2, [s], %rs1;
	mov.b32 %r1, 0x3f803f80;
	atom.shared.add.noftz.bf16x2 %r2, [s+4], %r1;
	mov.b64 %rd1, 1;
	mov.b128 %q1, {%rd1, %rd1};
	atom.shared.exch.b128 %q2, [s+16], %q1;
	ret;
}
// Thread 0 swaps the 16 bytes just past the 4 KiB buffer.
.visible .entry globalB128Out(.param .u64 out)
{
	.reg .b64 %rd<4>;
	.reg .b128 %q<3>;
	ld.param.u64 %rd1, [out];
	mov.b128 %q1, {%rd1, %rd1};
	atom.global.cas.b128 %q2, [%rd1+4096], %q1, %q1;
	ret;
}
// Thread 0 adds eight halves at the buffer's last 8 bytes: the last four
// elements are past its end.
.visible .entry globalV8Out(.param .u64 out)
{
	.reg .b16 %rs<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.b16 %rs1, 0x3c00;
	red.global.add.noftz.v8.f16 [%rd1+4088], {%rs1,%rs1,%rs1,%rs1,%rs1,%rs1,%rs1,%rs1};
	ret;
}
`

// TestHalfAndB128AtomicsAreAtomics: racecheck reports no hazard between
// f16/bf16/b128 atomics on one shared address; memcheck reports an
// out-of-bounds 128-bit atomic as one 16-byte atomic access, and a vector
// reduction's first element past the end as a 2-byte atomic (each element
// is its own atomic; the lane stops there).
func TestHalfAndB128AtomicsAreAtomics(t *testing.T) {
	mem := sanitize.Options{Tool: sanitize.Memcheck}
	for _, tc := range []launch{
		{"sharedHalfAtomics", 2, 128, sanitize.Options{Tool: sanitize.Racecheck}, []string{"RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"}, 0},
		{"sharedHalfAtomics", 2, 128, mem, []string{"ERROR SUMMARY: 0 errors"}, 0},
		{"globalB128Out", 1, 1, mem, []string{"Invalid __global__ atomic of size 16 bytes", "ERROR SUMMARY: 1 error"}, 1},
		{"globalV8Out", 1, 1, mem, []string{"Invalid __global__ atomic of size 2 bytes", "ERROR SUMMARY: 1 error"}, 1},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			out, san, err := runKernel(t, tc.opt, halfAtomicKernels, tc.kernel, tc.grid, tc.block)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			for _, w := range tc.wantContains {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			if n := san.Errors(); n != tc.wantErrors {
				t.Errorf("Errors() = %d, want %d\n%s", n, tc.wantErrors, out)
			}
		})
	}
}
