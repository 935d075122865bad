package sanitize_test

import (
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/devhook"
	"github.com/warpsim/warpsim/internal/sanitize"
)

const header = ".version 8.0\n.target sm_90\n.address_size 64\n"

// kernels are small PTX kernels, each exercising one rule. Each takes one
// u64 parameter, a 4 KiB buffer.
const kernels = header + `
// Lanes write s[lane] and read s[lane^1]; __syncwarp between makes it
// ordered, so only the unsynchronized kernel has (warp-level) hazards.
.visible .entry warpRace(.param .u64 out)
{
	.reg .b32 %r<8>;
	.shared .align 4 .b8 s[128];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r5, s;
	add.u32 %r2, %r2, %r5;
	st.shared.u32 [%r2], %r1;
	xor.b32 %r3, %r1, 1;
	shl.b32 %r3, %r3, 2;
	add.u32 %r3, %r3, %r5;
	ld.shared.u32 %r4, [%r3];
	ret;
}
.visible .entry warpSynced(.param .u64 out)
{
	.reg .b32 %r<8>;
	.shared .align 4 .b8 s[128];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r5, s;
	add.u32 %r2, %r2, %r5;
	st.shared.u32 [%r2], %r1;
	bar.warp.sync -1;
	xor.b32 %r3, %r1, 1;
	shl.b32 %r3, %r3, 2;
	add.u32 %r3, %r3, %r5;
	ld.shared.u32 %r4, [%r3];
	ret;
}
// Every thread adds to one shared word: atomics are never hazards.
.visible .entry sharedAtomics(.param .u64 out)
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 s[4];
	atom.shared.add.u32 %r1, [s], 1;
	ret;
}
// Every block writes word 0 of the buffer: a race on global memory.
.visible .entry globalRace(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra done;
	st.global.u32 [%rd1], %r1;
done:
	ret;
}
// A store past a thread's 32-byte local array.
.visible .entry localOut(.param .u64 out)
{
	.local .align 4 .b8 depot[32];
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd1, %r1, 16;
	mov.u64 %rd2, depot;
	add.s64 %rd3, %rd2, %rd1;
	st.local.u32 [%rd3], %r1;
	ret;
}
// shfl.sync by every lane with a mask of the low half: lanes 16-31 call
// without being members.
.visible .entry shflMask(.param .u64 out)
{
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xffff;
	ret;
}
// vote.sync with the full mask by the low half only: allowed (the others
// may come later), and compute-sanitizer is silent on the H100.
.visible .entry voteHalf(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p<3>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	@!%p1 bra done;
	vote.sync.any.pred %p2, %p1, -1;
done:
	ret;
}
// Thread t reads word t; only what atom and st wrote is initialized.
.visible .entry initAfterAtomic(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r1, 2;
	@%p1 atom.global.add.u32 %r2, [%rd3], 1;
	setp.eq.u32 %p1, %r1, 2;
	@%p1 st.global.u32 [%rd3], %r1;
	ld.global.u32 %r3, [%rd3];
	ret;
}
// Misaligned 8-byte shared load by lane 1.
.visible .entry sharedMisaligned(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	.shared .align 8 .b8 s[512];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, s;
	add.u32 %r2, %r2, %r3;
	ld.shared.u64 %rd1, [%r2];
	ret;
}
`

type launch struct {
	kernel       string
	grid, block  uint32
	opt          sanitize.Options
	wantContains []string
	wantErrors   int
}

func runKernel(t *testing.T, opt sanitize.Options, src, kernel string, grid, block uint32) (string, *sanitize.Sanitizer, error) {
	t.Helper()
	a, err := arch.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	opt.SharedBase = uint64(a.ReservedSharedPerBlock)
	san := sanitize.New(opt)
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Workers: 2})
	devhook.SetChecker(dev, san)
	m, err := dev.LoadModule("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := dev.Malloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	san.HostAlloc(buf, 4096)
	params := binary.LittleEndian.AppendUint64(nil, buf)
	_, lerr := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: grid, Y: 1, Z: 1}, Block: warpsim.Dim3{X: block, Y: 1, Z: 1}}, params[:k.ParamBytes()])
	san.EndLaunch()
	return string(san.Take()) + san.Summary(), san, lerr
}

func TestRules(t *testing.T) {
	race := sanitize.Options{Tool: sanitize.Racecheck}
	tests := []launch{
		{"warpRace", 1, 32, race, []string{"Warning: Race reported between Write access at warpRace+0x40 in t.ptx:15\n=========     and Read access at warpRace+0x80 in t.ptx:19 [128 hazards]", "RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)"}, 0},
		{"warpSynced", 1, 32, race, []string{"RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"}, 0},
		{"warpRace", 1, 32, sanitize.Options{Tool: sanitize.Racecheck, RaceReport: sanitize.ReportHazard, PrintLimit: 1},
			[]string{"Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x404 in block (0,0,0) :\n=========     Write Thread (1,0,0) at warpRace+0x40 in t.ptx:15\n=========     Read Thread (0,0,0) at warpRace+0x80 in t.ptx:19\n", "RACECHECK SUMMARY: 1 hazard displayed (0 errors, 128 warnings)"}, 0},
		{"sharedAtomics", 2, 128, race, []string{"RACECHECK SUMMARY: 0 hazards displayed"}, 0},
		{"globalRace", 3, 32, race, []string{"RACECHECK SUMMARY: 0 hazards displayed"}, 0},
		{"globalRace", 3, 32, sanitize.Options{Tool: sanitize.Racecheck, GlobalRaces: true},
			[]string{"Error: Race reported between Write access at globalRace+0x50 in t.ptx:57\n=========     and Write access at globalRace+0x50 in t.ptx:57 [8 hazards]", "(1 error, 0 warnings)"}, 1},
		{"localOut", 1, 4, sanitize.Options{Tool: sanitize.Memcheck},
			[]string{"Invalid __local__ write of size 4 bytes\n=========     at localOut+0x40 in t.ptx:71\n=========     by thread (2,0,0) in block (0,0,0)\n=========     Access to 0xfffab0 is out of bounds", "by thread (3,0,0)", "ERROR SUMMARY: 2 errors"}, 2},
		{"shflMask", 1, 32, sanitize.Options{Tool: sanitize.Synccheck},
			[]string{"Barrier error detected. Invalid arguments.\n=========     at shflMask+0x10 in t.ptx:80\n=========     by thread (0,0,0) in block (0,0,0)", "by thread (31,0,0)", "ERROR SUMMARY: 32 errors"}, 32},
		{"voteHalf", 1, 32, sanitize.Options{Tool: sanitize.Synccheck}, []string{"ERROR SUMMARY: 0 errors"}, 0},
		{"initAfterAtomic", 1, 8, sanitize.Options{Tool: sanitize.Initcheck},
			[]string{"Uninitialized __global__ memory read of size 4 bytes\n=========     at initAfterAtomic+0x80 in t.ptx:110\n=========     by thread (3,0,0) in block (0,0,0)", "by thread (7,0,0)", "ERROR SUMMARY: 5 errors"}, 5},
		{"initAfterAtomic", 1, 8, sanitize.Options{Tool: sanitize.Initcheck, PrintLimit: 1}, []string{"by thread (3,0,0)", "ERROR SUMMARY: 5 errors"}, 5},
		{"sharedMisaligned", 1, 2, sanitize.Options{Tool: sanitize.Memcheck},
			[]string{"Invalid __shared__ read of size 8 bytes\n=========     at sharedMisaligned+0x40 in t.ptx:123\n=========     by thread (1,0,0) in block (0,0,0)\n=========     Access to 0x404 is misaligned", "ERROR SUMMARY: 1 error"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			out, san, err := runKernel(t, tc.opt, kernels, tc.kernel, tc.grid, tc.block)
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			for _, w := range tc.wantContains {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			if tc.opt.PrintLimit == 1 && strings.Count(out, "by thread") > 1 {
				t.Errorf("--print-limit 1 printed more:\n%s", out)
			}
			if n := san.Errors(); n != tc.wantErrors {
				t.Errorf("Errors() = %d, want %d\n%s", n, tc.wantErrors, out)
			}
		})
	}
}

// TestTileMasks: lanes of four 8-lane tiles shuffle with their own tile's
// mask (cooperative groups' thread_block_tile<8>): no error.
func TestTileMasks(t *testing.T) {
	src := header + `
.visible .entry tiles(.param .u64 out)
{
	.reg .b32 %r<6>;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 24;
	mov.u32 %r3, 255;
	shl.b32 %r3, %r3, %r2;
	shfl.sync.down.b32 %r4, %r1, 1, 0x181f, %r3;
	bar.warp.sync %r3;
	ret;
}
`
	out, san, err := runKernel(t, sanitize.Options{Tool: sanitize.Synccheck}, src, "tiles", 1, 32)
	if err != nil || san.Errors() != 0 {
		t.Errorf("per-tile masks reported (err %v):\n%s", err, out)
	}
}

// TestDeterministic: the same report every run, whatever the worker count
// asked for.
func TestDeterministic(t *testing.T) {
	opt := sanitize.Options{Tool: sanitize.Racecheck, RaceReport: sanitize.ReportAll, GlobalRaces: true}
	first, _, _ := runKernel(t, opt, kernels, "globalRace", 40, 64)
	for i := 0; i < 3; i++ {
		again, _, _ := runKernel(t, opt, kernels, "globalRace", 40, 64)
		if again != first {
			t.Fatalf("run %d differs:\n%s\n--- first\n%s", i, again, first)
		}
	}
}

func TestSignature(t *testing.T) {
	for _, tc := range [][2]string{
		{"_Z8writeAllPii", "writeAll(int *, int)"},
		{"_Z10readBeforePKiPi", "readBefore(const int *, int *)"},
		{"_Z9histogramPKhPji", "histogram(const unsigned char *, unsigned int *, int)"},
		{"_Z3addIiEvPT_S0_i", "void add<int>(int *, int, int)"},
		{"_Z1fPPf", "f(float **)"},
		// As compute-sanitizer printed them (testdata/hostile/memcheck_h100.txt).
		{"_Z6readAtPKcxPVj", "readAt(const char *, long long, volatile unsigned int *)"},
		{"_Z7writeAtPcxPVj", "writeAt(char *, long long, volatile unsigned int *)"},
		{"_Z6blocksPViS0_", "blocks(volatile int *, volatile int *)"},
		// Template literals as compute-sanitizer printed them
		// (testdata/sanitize/probe5: pipeline_no_wait, cp_async_tail).
		{"_ZN4cuda3__424__cp_async_shared_globalILm16EEEvPcPKc", "void cuda::__4::__cp_async_shared_global<(unsigned long)16>(char *, const char *)"},
		{"_ZN6nvcuda12experimental19__pipeline_internal21ImplementationChooserILb1EE14CpAsyncChooserILm16ELm16EE8cp_asyncEPvPKv",
			"nvcuda::experimental::__pipeline_internal::ImplementationChooser<(bool)1>::CpAsyncChooser<(unsigned long)16, (unsigned long)16>::cp_async(void *, const void *)"},
		{"plain", "plain"},
	} {
		if got := sanitize.Signature(tc[0]); got != tc[1] {
			t.Errorf("Signature(%s) = %q, want %q", tc[0], got, tc[1])
		}
	}
}

// TestBarrierCountMismatch: warp 0 waits at barrier 1 for 64 threads, warp
// 1 arrives saying 96. As compute-sanitizer reported such warps on the H100
// (testdata/sanitize/probe2/named_barrier, probe4/count_swap), the warp that
// gave the count the later warp did not is named, thread by thread:
// "Divergent thread(s) in block."
func TestBarrierCountMismatch(t *testing.T) {
	src := header + `
.visible .entry mismatch(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra first;
	bar.sync 1, 96;
	bra.uni done;
first:
	bar.sync 1, 64;
done:
	ret;
}
.visible .entry matched(.param .u64 out)
{
	bar.sync 1, 64;
	bar.sync 1, 64;
	bar.sync 0;
	ret;
}
`
	out, san, _ := runKernel(t, sanitize.Options{Tool: sanitize.Synccheck}, src, "mismatch", 1, 64)
	if !strings.Contains(out, "Barrier error detected. Divergent thread(s) in block.\n=========     at mismatch+0x50 in t.ptx:15\n=========     by thread (0,0,0) in block (0,0,0)") ||
		strings.Contains(out, "by thread (32,0,0)") || san.Errors() != 32 {
		t.Errorf("count mismatch not reported as warp 0's 32 threads:\n%s", out)
	}
	out, san, _ = runKernel(t, sanitize.Options{Tool: sanitize.Synccheck}, src, "matched", 2, 64)
	if san.Errors() != 0 {
		t.Errorf("matching counts reported:\n%s", out)
	}
}
