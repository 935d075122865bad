package engine

import (
	"encoding/binary"
	"io"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time; on a shared machine it
// measures the engine's cost better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// aluLoopPTX: every thread runs 1000 iterations of 8 ALU instructions and a
// branch; uniform across the warp.
const aluLoopPTX = `
.visible .entry alu(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 1;
$loop:
	add.s32 %r3, %r3, %r1;
	xor.b32 %r4, %r3, 0x5555;
	mul.lo.s32 %r5, %r4, 3;
	shl.b32 %r6, %r5, 1;
	and.b32 %r7, %r6, 0xffff;
	or.b32 %r3, %r7, %r3;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 1000;
	@%p1 bra $loop;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`

// divergentPTX: odd lanes take a longer path inside each iteration.
const divergentPTX = `
.visible .entry div(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, 1;
	and.b32 %r8, %r1, 1;
	setp.eq.u32 %p2, %r8, 0;
$loop:
	@%p2 bra $even;
	mul.lo.s32 %r3, %r3, 3;
	add.s32 %r3, %r3, %r1;
	bra.uni $join;
$even:
	add.s32 %r3, %r3, 7;
$join:
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 500;
	@%p1 bra $loop;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`

// memPTX: a vector add, c[i] = a[i] + b[i].
const memPTX = `
.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [c];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd4, %r4, 4;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	add.s64 %rd7, %rd3, %rd4;
	ld.global.u32 %r5, [%rd5];
	ld.global.u32 %r6, [%rd6];
	add.s32 %r7, %r5, %r6;
	st.global.u32 [%rd7], %r7;
	ret;
}
`

// sharedReducePTX: a 256-thread block sums its slice in shared memory
// with a barrier per step.
const sharedReducePTX = `
.visible .entry sred(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b8 sdata[1024];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	shl.b32 %r3, %r2, 8;
	add.s32 %r3, %r3, %r1;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r4, [%rd4];
	mov.u32 %r5, sdata;
	shl.b32 %r6, %r1, 2;
	add.s32 %r7, %r5, %r6;
	st.shared.u32 [%r7], %r4;
	bar.sync 0;
	mov.u32 %r8, 128;
$loop:
	setp.ge.u32 %p1, %r1, %r8;
	@%p1 bra $skip;
	shl.b32 %r9, %r8, 2;
	add.s32 %r10, %r7, %r9;
	ld.shared.u32 %r11, [%r10];
	ld.shared.u32 %r4, [%r7];
	add.s32 %r4, %r4, %r11;
	st.shared.u32 [%r7], %r4;
$skip:
	bar.sync 0;
	shr.u32 %r8, %r8, 1;
	setp.ne.u32 %p2, %r8, 0;
	@%p2 bra $loop;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra $done;
	ld.shared.u32 %r4, [sdata];
	mul.wide.u32 %rd5, %r2, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r4;
$done:
	ret;
}
`

// rmwPTX: every thread adds a scalar read from memory (the same word for
// the whole warp) to its own element five times, storing after each add:
// the shape of the read-modify-write kernel of NVIDIA's simpleStreams
// sample as clang compiles it (a broadcast load, a coalesced store, a
// counted loop with the setp fused into the branch's guard).
const rmwPTX = `
.visible .entry rmw(.param .u64 data, .param .u64 factor, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	ld.param.u32 %r1, [n];
	ld.param.u64 %rd1, [data];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u64 %rd2, [factor];
	cvta.to.global.u64 %rd2, %rd2;
	setp.lt.s32 %p1, %r1, 1;
	@%p1 bra $done;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	mul.wide.s32 %rd3, %r5, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.b32 %r6, [%rd4];
$loop:
	ld.global.b32 %r7, [%rd2];
	add.s32 %r6, %r6, %r7;
	st.global.b32 [%rd4], %r6;
	add.s32 %r1, %r1, -1;
	setp.ne.b32 %p2, %r1, 0;
	@%p2 bra $loop;
$done:
	ret;
}
`

func benchKernel(b *testing.B, src, kernel string, grid, block uint32, workers int, setup func(m *Module) []byte) {
	m := testModule(b, src)
	params := setup(m)
	var warpInst, threadInst uint64
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		c, _, err := m.launchTest(b, run{kernel: kernel, grid: [3]uint32{grid}, block: [3]uint32{block}, params: params, workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		warpInst += c.InstExecuted
		threadInst += c.ThreadInstExecuted
	}
	sec := time.Since(start).Seconds()
	cpu := (cpuTime() - cpu0).Seconds()
	b.ReportMetric(float64(warpInst)/sec, "warp-inst/s")
	b.ReportMetric(float64(warpInst)/cpu, "warp-inst/cpu-s")
	b.ReportMetric(float64(threadInst)/sec, "thread-inst/s")
}

func outBuffer(n int) func(m *Module) []byte {
	return func(m *Module) []byte {
		a, _ := m.Mem.Alloc(uint64(n))
		return u64p(a)
	}
}

func BenchmarkUniformALU(b *testing.B) {
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			benchKernel(b, aluLoopPTX, "alu", 16, 256, w, outBuffer(16*256*4))
		})
	}
}

func BenchmarkDivergent(b *testing.B) {
	benchKernel(b, divergentPTX, "div", 16, 256, 1, outBuffer(16*256*4))
}

func BenchmarkMemoryBound(b *testing.B) {
	const n = 1 << 20
	benchKernel(b, memPTX, "vadd", n/256, 256, 1, func(m *Module) []byte {
		a, _ := m.Mem.Alloc(4 * n)
		bb, _ := m.Mem.Alloc(4 * n)
		c, _ := m.Mem.Alloc(4 * n)
		return u64p(a, bb, c)
	})
}

func BenchmarkSharedReduce(b *testing.B) {
	const blocks = 1024
	benchKernel(b, sharedReducePTX, "sred", blocks, 256, 1, func(m *Module) []byte {
		in, _ := m.Mem.Alloc(4 * blocks * 256)
		d, _ := m.Mem.Bytes(in, 4*blocks*256)
		for i := 0; i < blocks*256; i++ {
			binary.LittleEndian.PutUint32(d[4*i:], uint32(i))
		}
		out, _ := m.Mem.Alloc(4 * blocks)
		return u64p(in, out)
	})
}

// BenchmarkReadModifyWrite runs rmwPTX on 2^20 threads, five iterations.
func BenchmarkReadModifyWrite(b *testing.B) {
	const n = 1 << 20
	benchKernel(b, rmwPTX, "rmw", n/256, 256, 1, func(m *Module) []byte {
		d, _ := m.Mem.Alloc(4 * n)
		f, _ := m.Mem.Alloc(4)
		return append(u64p(d, f), 5, 0, 0, 0)
	})
}

// TestHotLoopAllocs checks that running warps allocates nothing per
// instruction: a second block on a warmed-up worker allocates nothing, for
// uniform ALU code, global loads and stores, shared memory with barriers,
// and printf. A block that printed keeps its output: its copy and the list
// of its segments, made once when the block ends whatever it printed, are
// the only allocations allowed (maxAllocs).
func TestHotLoopAllocs(t *testing.T) {
	const n = 4 * 256
	cases := []struct {
		name, src, kernel string
		params            func(m *Module) []byte
		stdout            io.Writer
		maxAllocs         float64
	}{
		{"alu", aluLoopPTX, "alu", outBuffer(4 * n), nil, 0},
		{"memory", memPTX, "vadd", func(m *Module) []byte {
			a, _ := m.Mem.Alloc(4 * n)
			b, _ := m.Mem.Alloc(4 * n)
			c, _ := m.Mem.Alloc(4 * n)
			return u64p(a, b, c)
		}, nil, 0},
		{"shared and barriers", sharedReducePTX, "sred", func(m *Module) []byte {
			in, _ := m.Mem.Alloc(4 * n)
			out, _ := m.Mem.Alloc(4 * 4)
			return u64p(in, out)
		}, nil, 0},
		{"printf formatting", printfPTX, "pr", func(m *Module) []byte { return nil }, nil, 0},
		{"printf output", printfPTX, "pr", func(m *Module) []byte { return nil }, io.Discard, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := testModule(t, tc.src)
			params := tc.params(m)
			k := m.Prog.FuncByName[tc.kernel]
			l := &launch{mod: m, cfg: &Config{Kernel: k, Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{256, 1, 1}, Params: params, Stdout: tc.stdout},
				fn: m.Prog.Funcs[k], nblocks: 4, sharedOff: m.Prog.SharedOffsets[k], shared: m.Prog.StaticShared[k],
				limit: DefaultStepLimit, allocs: m.Mem.snapshot(), stackMax: m.stackLimit(k, 0), stackTop: localWindowTop - m.localGap(k, nil)}
			w := newWorker(l)
			w.runBlock(0)
			allocs := testing.AllocsPerRun(10, func() {
				w.runBlock(1)
			})
			if allocs > tc.maxAllocs {
				t.Errorf("running a block allocates %v times, want at most %v", allocs, tc.maxAllocs)
			}
			if w.c.InstExecuted == 0 || w.fault != nil {
				t.Fatalf("nothing ran (fault %v)", w.fault)
			}
		})
	}
}

// BenchmarkBareLaneLoop is the calibration point: one 32-lane add with no
// decoding at all. The engine's warp-inst/s on uniform ALU code is best read
// as a fraction of this figure on the same machine at the same moment.
//
// The lanes go four at a time, as the engine's fast forms run them
// (warp.fast). A loop of one lane a step (38 bytes, seven instructions) ran
// at one step a cycle where the linker placed it inside one 64-byte line of
// code and at half that where it straddled two: on the project's AMD EPYC
// VM 82-88 against 42-53 M warp instructions a CPU-second, with nothing but
// the loop's address changed (testdata/engine/JOURNAL.md, "The
// bare loop's placement"). Four lanes a step are
// bound by their loads and stores rather than by fetching the loop, at
// 100-106 M wherever the loop lands, so a ratio to this figure no longer
// depends on where the linker put it.
func BenchmarkBareLaneLoop(b *testing.B) {
	regs := make([]uint64, 4*32)
	start, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		a := (*[32]uint64)(regs[32:64])
		c := (*[32]uint64)(regs[64:96])
		d := (*[32]uint64)(regs[96:128])
		for l := 0; l < 32; l += 4 {
			d[l] = uint64(uint32(a[l]) + uint32(c[l]))
			d[l+1] = uint64(uint32(a[l+1]) + uint32(c[l+1]))
			d[l+2] = uint64(uint32(a[l+2]) + uint32(c[l+2]))
			d[l+3] = uint64(uint32(a[l+3]) + uint32(c[l+3]))
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "warp-inst/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "warp-inst/cpu-s")
}
