package engine

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// builtinModule loads PTX whose externs are the engine's own (malloc,
// free, __assertfail, __trap).
func builtinModule(t *testing.T, src string) *Module {
	t.Helper()
	pm, err := ptx.Parse("test.ptx", []byte(".version 8.0\n.target sm_90\n.address_size 64\n"+src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	prog, err := ir.Lower(pm, BuiltinExtern)
	if err != nil {
		t.Fatalf("lower: %v", err)
	}
	m, err := Load(NewMemory(), prog, nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return m
}

const heapPTX = `
.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.extern .func free(.param .b64 free_param_0);
.visible .entry alloc(.param .u64 out, .param .u64 size)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [size];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 %rd5, [retval0];
	}
	st.global.u64 [%rd4], %rd5;
	ret;
}
.visible .entry churn()
{
	.reg .pred %p<3>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<3>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
$loop:
	{
	.param .b64 param0;
	st.param.b64 [param0], 64;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 %rd1, [retval0];
	}
	setp.eq.u64 %p1, %rd1, 0;
	@%p1 bra $next;
	st.u32 [%rd1+60], %r1;
	ld.u32 %r3, [%rd1+60];
	setp.ne.u32 %p2, %r3, %r1;
	@%p2 trap;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	call.uni free, (param0);
	}
$next:
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 20;
	@%p1 bra $loop;
	ret;
}
.visible .entry touch(.param .u64 p)
{
	.reg .b64 %rd<2>;
	.reg .b16 %rs<2>;
	ld.param.u64 %rd1, [p];
	mov.u16 %rs1, 1;
	st.u8 [%rd1], %rs1;
	ret;
}
.visible .entry release(.param .u64 p)
{
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	call.uni free, (param0);
	}
	ret;
}
`

// TestDeviceHeap: malloc serves the heap's bytes and no more, returns NULL
// past them, hands out bounds-checked blocks, and free behaves as the
// H100's does with bad pointers (testdata/harden/h100/badfree*.txt).
func TestDeviceHeap(t *testing.T) {
	m := builtinModule(t, heapPTX)
	heap := m.Mem.Heap()
	if heap.Limit() != 8<<20 {
		t.Errorf("default heap %d, want 8 MiB (cudaLimitMallocHeapSize)", heap.Limit())
	}
	// 1025: a block that would fill the heap to its last byte is refused.
	if !heap.SetLimit(1025) {
		t.Fatal("SetLimit before any launch refused")
	}
	out := m.buffer(t, 8*8)
	launch := func(kernel string, params []byte, threads uint32) error {
		_, _, err := m.launchTest(t, run{kernel: kernel, block: [3]uint32{threads}, params: params, workers: 1})
		return err
	}
	if err := launch("alloc", u64p(out, 256), 8); err != nil {
		t.Fatal(err)
	}
	ptrs := make([]uint64, 8)
	b, _ := m.Mem.Bytes(out, 64)
	for i := range ptrs {
		for k := 0; k < 8; k++ {
			ptrs[i] |= uint64(b[8*i+k]) << (8 * k)
		}
	}
	// 1025 bytes serve four blocks of 256; lanes allocate in order.
	for i, p := range ptrs {
		if (p != 0) != (i < 4) {
			t.Errorf("thread %d got %#x; want a block for threads 0-3 and NULL after", i, p)
		}
	}
	if heap.SetLimit(1 << 20) {
		t.Error("SetLimit after a kernel used malloc was accepted (CUDA: cudaErrorInvalidValue)")
	}
	p0, p1 := ptrs[0], ptrs[1]
	fault := func(err error) FaultKind {
		var f *Fault
		if errors.As(err, &f) {
			return f.Kind
		}
		if err != nil {
			t.Fatalf("err %v, want a fault", err)
		}
		return 0
	}
	cases := []struct {
		name   string
		kernel string
		p      uint64
		want   FaultKind
		detail string
	}{
		{"last byte", "touch", p0 + 255, 0, ""},
		{"one past the block", "touch", p0 + 256, FaultOutOfBounds, "1 bytes past the end of the 256-byte device malloc block"},
		{"free", "release", p0, 0, ""},
		{"use after free", "touch", p0, FaultOutOfBounds, "0 bytes into a 256-byte device malloc block at"},
		{"double free", "release", p0, FaultHeap, "freed already (double free)"},
		{"free of a cudaMalloc pointer", "release", out, FaultOutOfBounds, "not a pointer into the device heap"},
		{"free of an interior pointer is ignored", "release", p1 + 8, 0, ""},
		{"the block is still there", "touch", p1, 0, ""},
		{"free(NULL)", "release", 0, 0, ""},
	}
	for _, c := range cases {
		err := launch(c.kernel, u64p(c.p), 1)
		if got := fault(err); got != c.want {
			t.Errorf("%s: fault %v, want %v", c.name, got, c.want)
		}
		if want := c.detail; want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, want)
		}
	}
	// Blocks of many threads and workers allocating and freeing at once
	// (go test -race checks the heap's locking).
	m2 := builtinModule(t, heapPTX)
	if _, _, err := m2.launchTest(t, run{kernel: "churn", grid: [3]uint32{16}, block: [3]uint32{64}, workers: 4}); err != nil {
		t.Errorf("churn: %v", err)
	}
	if u := m2.Mem.Heap().Used(); u != 0 {
		t.Errorf("after every block was freed the heap holds %d bytes", u)
	}
	// The freed block's bytes are free again: one more 256-byte block fits.
	if err := launch("alloc", u64p(out, 256), 1); err != nil {
		t.Fatal(err)
	}
	b, _ = m.Mem.Bytes(out, 8)
	if b[0] == 0 && b[1] == 0 && b[2] == 0 && b[7] == 0 {
		t.Error("malloc after free returned NULL")
	}
}

const assertPTX = `
.global .align 1 .b8 msg[6] = {120, 32, 62, 32, 48, 0};
.global .align 1 .b8 file[5] = {97, 46, 99, 117, 0};
.global .align 1 .b8 fn[12] = {118, 111, 105, 100, 32, 107, 40, 105, 110, 116, 41, 0};
.extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);
.extern .func __trap();
.visible .entry asserter()
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 15;
	setp.ne.u32 %p1, %r2, 5;
	@%p1 bra $ok;
	mov.u64 %rd1, msg;
	cvta.global.u64 %rd1, %rd1;
	mov.u64 %rd2, file;
	cvta.global.u64 %rd2, %rd2;
	mov.u64 %rd3, fn;
	cvta.global.u64 %rd3, %rd3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	.param .b64 param1;
	st.param.b64 [param1], %rd2;
	.param .b32 param2;
	st.param.b32 [param2], 42;
	.param .b64 param3;
	st.param.b64 [param3], %rd3;
	.param .b64 param4;
	st.param.b64 [param4], 1;
	call.uni __assertfail, (param0, param1, param2, param3, param4);
	}
$ok:
	ret;
}
.visible .entry passer()
{
	ret;
}
.visible .entry trapper()
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 3;
	@%p1 bra $ok;
	call.uni __trap, ();
$ok:
	ret;
}
`

// TestAssertAndTrap: a failed assert prints the GPU's line for each
// failing thread (format recorded on an H100:
// testdata/programs/device_assert.h100.stderr) and stops the kernel with
// FaultAssert; __trap() is a trap.
func TestAssertAndTrap(t *testing.T) {
	m := builtinModule(t, assertPTX)
	_, _, err := m.launchTest(t, run{kernel: "asserter", grid: [3]uint32{2}, block: [3]uint32{32}, workers: 1})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultAssert {
		t.Fatalf("err %v, want an assert fault", err)
	}
	want := "a.cu:42: void k(int): block: [0,0,0], thread: [5,0,0] Assertion `x > 0` failed.\n" +
		"a.cu:42: void k(int): block: [0,0,0], thread: [21,0,0] Assertion `x > 0` failed.\n"
	if f.Output != want {
		t.Errorf("assert output:\n%s\nwant:\n%s", f.Output, want)
	}
	if f.Thread != [3]uint32{5} || f.Block != [3]uint32{} {
		t.Errorf("fault at block %v thread %v, want block 0 thread 5", f.Block, f.Thread)
	}
	_, _, err = m.launchTest(t, run{kernel: "trapper", block: [3]uint32{32}})
	if !errors.As(err, &f) || f.Kind != FaultTrap || f.Thread != [3]uint32{3} {
		t.Errorf("__trap: err %v, want a trap at thread 3", err)
	}
}

const stackPTX = `
.func (.param .b32 out) rec(.param .b32 n)
{
	.local .align 16 .b8 pad[48];
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [n];
	st.local.u32 [pad], %r1;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $base;
	add.s32 %r2, %r1, -1;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r2;
	.param .b32 retval0;
	call.uni (retval0), rec, (param0);
	ld.param.b32 %r3, [retval0];
	}
	ld.local.u32 %r2, [pad];
	add.s32 %r3, %r3, %r2;
	st.param.b32 [out], %r3;
	ret;
$base:
	st.param.b32 [out], 0;
	ret;
}
.func (.param .b32 out) big()
{
	.local .align 16 .b8 pad[4000];
	.reg .b32 %r<2>;
	mov.u32 %r1, 9;
	st.local.u32 [pad+3996], %r1;
	ld.local.u32 %r1, [pad+3996];
	st.param.b32 [out], %r1;
	ret;
}
.visible .entry recurse(.param .u32 n, .param .u64 res)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u32 %r1, [n];
	ld.param.u64 %rd1, [res];
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), rec, (param0);
	ld.param.b32 %r2, [retval0];
	}
	st.global.u32 [%rd1], %r2;
	ret;
}
.visible .entry static()
{
	.reg .b32 %r<2>;
	{
	.param .b32 retval0;
	call.uni (retval0), big, ();
	ld.param.b32 %r1, [retval0];
	}
	ret;
}
`

// TestStackLimit: the stack is counted in bytes (stack.go: the frames,
// 16-byte aligned, plus 16 bytes per call in progress) against
// cudaLimitStackSize, and a call past it faults; what ptxas can size (a
// call tree without recursion) always fits, as the driver raises the
// stack for it.
func TestStackLimit(t *testing.T) {
	m := testModule(t, stackPTX)
	kernel := m.Prog.Funcs[m.Prog.FuncByName["recurse"]]
	rec := m.Prog.Funcs[m.Prog.FuncByName["rec"]]
	res := m.buffer(t, 4)
	// The stack at a call of depth d (the kernel's frame, then d frames of
	// rec, each 16-aligned, plus 16 bytes per call): the deepest recursion
	// that fits a limit, by the model's arithmetic.
	need := func(d int) int {
		base := alignInt(kernel.FrameBytes, 16)
		for i := 1; i < d; i++ {
			base = alignInt(base+rec.FrameBytes, 16)
		}
		return base + rec.FrameBytes + 16*d
	}
	for _, limit := range []int{1024, 4096} {
		deepest := 0 // calls of rec: rec(n) makes n+1 of them
		for need(deepest+1) <= limit {
			deepest++
		}
		for _, c := range []struct {
			n     int
			fault bool
		}{{deepest - 1, false}, {deepest, true}} {
			_, _, err := m.launchTest(t, run{kernel: "recurse", block: [3]uint32{32}, params: append(append(u32p(uint32(c.n)), 0, 0, 0, 0), u64p(res)...), stack: limit})
			var f *Fault
			faulted := errors.As(err, &f) && f.Kind == FaultStackOverflow
			if faulted != c.fault || (err != nil && !faulted) {
				t.Errorf("stack %d, rec(%d) (%d calls, frame %d bytes): err %v, want fault %v", limit, c.n, c.n+1, rec.FrameBytes, err, c.fault)
			}
			if !c.fault && err == nil {
				if got := m.u32s(t, res, 1)[0]; got != uint32(c.n*(c.n+1)/2) {
					t.Errorf("rec(%d) = %d, want %d", c.n, got, c.n*(c.n+1)/2)
				}
			}
			if faulted && !strings.Contains(f.Detail, "cudaLimitStackSize") {
				t.Errorf("fault %q does not name cudaLimitStackSize", f.Detail)
			}
		}
		if deepest < 5 {
			t.Errorf("stack %d holds only %d calls of a %d-byte frame", limit, deepest, rec.FrameBytes)
		}
	}
	// A frame of 4000 bytes, more than the default 1024, in a call tree
	// ptxas sizes: the launch gets the stack it needs.
	if _, _, err := m.launchTest(t, run{kernel: "static", block: [3]uint32{32}}); err != nil {
		t.Errorf("static call tree with a 4000-byte frame: %v", err)
	}
}

func u32p(v uint32) []byte {
	return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
}

const stopPTX = `
.visible .entry spin()
{
$l:
	bra.uni $l;
}
.visible .entry halfBarrier()
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra $wait;
$l:
	bra.uni $l;
$wait:
	bar.sync 0;
	ret;
}
`

// TestStopReports: an interrupt and the wall-clock timeout stop a kernel
// that never ends, and the fault says where its warps were and what they
// wait on; the watchdog reports the same way.
func TestStopReports(t *testing.T) {
	m := testModule(t, stopPTX)
	launch := func(cfg *Config) (*Fault, time.Duration) {
		t.Helper()
		start := time.Now()
		_, err := m.Launch(cfg)
		var f *Fault
		if !errors.As(err, &f) {
			t.Fatalf("err %v, want a fault", err)
		}
		return f, time.Since(start)
	}
	base := func(kernel string) *Config {
		return &Config{Kernel: m.Prog.FuncByName[kernel], Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{64, 1, 1},
			StdoutMu: new(sync.Mutex), Workers: 2, SMs: 132, MaxWarpsPerSM: 64}
	}

	t.Run("interrupt", func(t *testing.T) {
		ctl := &Control{}
		cfg := base("halfBarrier")
		cfg.Control = ctl
		go func() {
			// Once the blocks are running (steps are counted every 2^16
			// per block), interrupt.
			for {
				if p, ok := ctl.Progress(); ok && p.Steps > 0 && ctl.Interrupt("interrupted (test)") {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		f, _ := launch(cfg)
		if f.Kind != FaultInterrupted || f.Detail != "interrupted (test)" {
			t.Fatalf("fault %v %q, want interrupted", f.Kind, f.Detail)
		}
		if f.RunningBlocks < 1 || f.RunningBlocks > 2 || len(f.Warps) != 2*f.RunningBlocks {
			t.Fatalf("%d warps in %d running blocks, want 2 per block with 2 workers", len(f.Warps), f.RunningBlocks)
		}
		w0, w1 := f.Warps[0], f.Warps[1]
		if w0.Wait != "waiting at barrier 0 (1 of 2 warps arrived)" || w0.Text != "bar.sync 0;" || w0.First != [3]uint32{0} || w0.Last != [3]uint32{31} {
			t.Errorf("warp 0: %+v", w0)
		}
		if w1.Wait != "running" || w1.Text != "bra.uni $l;" || w1.First != [3]uint32{32} || w1.Last != [3]uint32{63} {
			t.Errorf("warp 1: %+v", w1)
		}
		if f.Blocks != 4 || f.BlocksDone != 0 {
			t.Errorf("blocks %d of %d done", f.BlocksDone, f.Blocks)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		cfg := base("spin")
		cfg.Timeout = 200 * time.Millisecond
		f, took := launch(cfg)
		if f.Kind != FaultTimeout || len(f.Warps) == 0 || f.Warps[0].Text != "bra.uni $l;" {
			t.Fatalf("fault %v warps %+v, want a timeout at the loop", f.Kind, f.Warps)
		}
		if took > 10*time.Second {
			t.Errorf("a 200 ms timeout took %v", took)
		}
	})
	t.Run("watchdog", func(t *testing.T) {
		cfg := base("spin")
		cfg.StepLimit = 1 << 18
		f, _ := launch(cfg)
		if f.Kind != FaultWatchdog || len(f.Warps) == 0 || f.Warps[0].Wait != "running" || f.Line.PTXLine == 0 {
			t.Fatalf("fault %v warps %+v, want the watchdog with warp states", f.Kind, f.Warps)
		}
	})
	t.Run("no launch running", func(t *testing.T) {
		if (&Control{}).Interrupt("x") {
			t.Error("Interrupt with no launch reported one")
		}
	})
}
