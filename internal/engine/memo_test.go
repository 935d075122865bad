package engine

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// memoPTX: kernels whose launches the memo may replay (cpy, add, inc,
// twice) and kernels it must always execute (atom: an atomic; clk: a
// clock read; pr: printf).
const memoPTX = `
.extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);
.global .align 1 .b8 fmt[4] = {37, 100, 10, 0};

// cpy: dst[i] = src[i]*3 + 1
.visible .entry cpy(.param .u64 dst, .param .u64 src)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [dst];
	ld.param.u64 %rd2, [src];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.u32 %r5, [%rd5];
	mad.lo.s32 %r6, %r5, 3, 1;
	st.global.u32 [%rd4], %r6;
	ret;
}

// inc: a[i] += 1 (reads what it writes)
.visible .entry inc(.param .u64 a)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r5, [%rd4];
	add.s32 %r6, %r5, 1;
	st.global.u32 [%rd4], %r6;
	ret;
}

// atom: atomicAdd(a, 1) per thread
.visible .entry atom(.param .u64 a)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [a];
	atom.global.add.u32 %r1, [%rd1], 1;
	ret;
}

// satom: each block counts its threads with shared-memory atomics and
// writes the count to a[ctaid]
.visible .entry satom(.param .u64 a)
{
	.shared .align 4 .b32 cnt;
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@!%p1 st.shared.u32 [cnt], 0;
	bar.sync 0;
	atom.shared.add.u32 %r2, [cnt], 1;
	bar.sync 0;
	@%p1 bra SDONE;
	ld.shared.u32 %r3, [cnt];
	ld.param.u64 %rd1, [a];
	mov.u32 %r4, %ctaid.x;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
SDONE:
	ret;
}

// clk: a[i] = (clock() != 0) + src[i], which is src[i] + 1 but reads the clock
.visible .entry clk(.param .u64 a, .param .u64 src)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [src];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	mov.u32 %r5, %clock;
	setp.ne.u32 %p1, %r5, 0;
	selp.u32 %r6, 1, 1, %p1;
	ld.global.u32 %r7, [%rd5];
	add.s32 %r8, %r7, %r6;
	st.global.u32 [%rd4], %r8;
	ret;
}

// pr: printf("%d\n", a[0]) in the grid's thread 0; a[1] = a[0]
.visible .entry pr(.param .u64 a)
{
	.local .align 8 .b8 buf[8];
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, %ctaid.x;
	or.b32 %r1, %r1, %r3;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	ld.param.u64 %rd1, [a];
	ld.global.u32 %r2, [%rd1];
	st.global.u32 [%rd1+4], %r2;
	mov.u64 %rd2, buf;
	cvta.local.u64 %rd3, %rd2;
	st.local.u32 [%rd2], %r2;
	mov.u64 %rd4, fmt;
	cvta.global.u64 %rd5, %rd4;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd5;
	.param .b64 p1;
	st.param.b64 [p1], %rd3;
	.param .b32 rv;
	call.uni (rv), vprintf, (p0, p1);
	}
DONE:
	ret;
}
`

// memoStep is one thing a memo test does: a launch of kernel with the
// buffers named by args, or (host) a write of the program's own into a
// buffer between launches.
type memoStep struct {
	kernel string
	args   []int
	stack  int    // the per-thread stack limit (0: the default)
	host   int    // with kernel "": buffer host gets by added to its element 5
	by     uint32 // (the program writing device memory between launches)
}

// TestMemoReplay runs each sequence of launches twice from the same
// memory, once with a Memo and once without, and wants the same memory,
// counters and printed output after every step; and that launches were
// replayed exactly where the case says they may be.
func TestMemoReplay(t *testing.T) {
	const n = 512 // elements per buffer
	l := func(kernel string, args ...int) memoStep { return memoStep{kernel: kernel, args: args} }
	host := func(buf int) memoStep { return memoStep{host: buf, by: 1} }
	undo := func(buf int) memoStep { return memoStep{host: buf, by: ^uint32(0)} }
	rep := func(s ...memoStep) []memoStep {
		var out []memoStep
		for i := 0; i < 6; i++ {
			out = append(out, s...)
		}
		return out
	}
	cases := []struct {
		name  string
		steps []memoStep
		// replays is how many launches the memo replays; hashes, when
		// not -1, how many times it hashed the memory.
		replays, hashes int
		// held, when not 0, bounds the bytes of deltas the memo keeps.
		held int
	}{
		// The first launch runs as it is, the second is recorded (the
		// memory hashed before and after it), the other four replay its
		// (empty) change, each taking the memory's hash from the last.
		{"repeated launch", rep(l("cpy", 1, 0)), 4, 2, 0},
		// cpy writes b from a, inc then changes b: cpy's memory before
		// is the same from the second round on, inc's too, so both
		// replay their recorded changes from the third round on.
		{"cycle of launches", rep(l("cpy", 1, 0), l("inc", 1)), 8, -1, 0},
		// a buffer read and written: every launch sees other memory;
		// after memoGiveUp records that never replayed, the memory is no
		// longer hashed: the first launch runs as it is, the next 8 are
		// recorded (the memory hashed before the first of them and after
		// each), the last 3 run as they are.
		{"read and written", append(rep(l("inc", 0)), rep(l("inc", 0))...), 0, 9, 0},
		// deltas the memo cannot keep: inc of buffer 1 records four
		// (the memory hashed before the first and after each), which
		// fill what the memo may hold; inc of buffer 0 then reads and
		// writes its buffer too, but none of its records can be kept.
		// They count towards giving up all the same: its first launch
		// runs as it is, the next 8 are recorded and not kept (hashed
		// before the first of them and after each), the last 3 run as
		// they are (before: every one of its launches was hashed, 17 in
		// all).
		{"deltas the memo cannot keep", append(rep(l("inc", 1))[:5], append(rep(l("inc", 0)), rep(l("inc", 0))...)...), 0, 14, 4 * 4 * n},
		// the program writes the input between launches.
		{"host write between launches", rep(l("cpy", 1, 0), host(0)), 0, -1, 0},
		// a host write makes the next launch execute; undone, the input
		// is as before but the output is still the one made from the
		// written input: that launch executes too, and the one after it,
		// on the memory recorded before the write, replays.
		{"host write undone", []memoStep{l("cpy", 1, 0), l("cpy", 1, 0), host(0), l("cpy", 1, 0), undo(0), l("cpy", 1, 0), l("cpy", 1, 0)}, 1, -1, 0},
		{"other parameters", rep(l("cpy", 1, 0), l("cpy", 2, 0)), 8, -1, 0},
		// another stack limit is another configuration (it decides
		// whether a deep call chain faults).
		{"other stack limit", []memoStep{l("cpy", 1, 0), l("cpy", 1, 0), {kernel: "cpy", args: []int{1, 0}, stack: 4096}, {kernel: "cpy", args: []int{1, 0}, stack: 4096}, l("cpy", 1, 0)}, 1, -1, 0},
		{"atomic", rep(l("atom", 2)), 0, -1, 0},
		// atomics on the block's own shared memory: replayed.
		{"shared atomics", rep(l("satom", 2)), 4, -1, 0},
		{"clock read", rep(l("clk", 1, 0)), 0, -1, 0},
		{"printf", rep(l("pr", 0)), 0, -1, 0},
		// launches too short for the hashing (every configuration's last
		// execution under worthNs a byte from step 4 on): the cycle of
		// launches still replays on the hash the last launch left, as
		// with worthNs 0 (before: none after step 4, each executed
		// launch losing the hash).
		{"too short, on a carried hash", rep(l("cpy", 1, 0), l("inc", 1)), 8, -1, 0},
		// too short from the start: nothing leaves a hash to carry, so
		// nothing is hashed or recorded.
		{"too short throughout", rep(l("cpy", 1, 0), l("inc", 1)), 0, 0, 0},
		// a buffer read and written, too short from step 2 on: the first
		// launch runs as it is, the second is recorded (hashed before and
		// after it), the third, too short, on the hash the second left
		// (hashed after it); no replay after memoShortRecords records, so
		// the rest run as they are (before the bound: recorded up to
		// memoGiveUp times, 9 hashes, as "read and written").
		{"too short, read and written", append(rep(l("inc", 0)), rep(l("inc", 0))...), 0, 3, 0},
	}
	// shortFrom is the step from which a case's launches are too short
	// for the hashing.
	shortFrom := map[string]int{"too short, on a carried hash": 4, "too short throughout": 0, "too short, read and written": 2}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mems := [2]*Module{testModule(t, memoPTX), testModule(t, memoPTX)}
			memo := NewMemo()
			memo.worthNs = 0
			if tc.held > 0 {
				memo.heldMax = tc.held
			}
			var bufs [2][3]uint64
			for i, m := range mems {
				for j := range bufs[i] {
					bufs[i][j] = m.buffer(t, 4*n)
					init := make([]uint32, n)
					for k := range init {
						init[k] = uint32(k*7 + j)
					}
					m.setU32s(t, bufs[i][j], init)
				}
			}
			for si, s := range tc.steps {
				var outs [2]bytes.Buffer
				var counts [2]Counters
				for i, m := range mems {
					if s.kernel == "" {
						v := m.u32s(t, bufs[i][s.host], n)
						v[5] += s.by
						m.setU32s(t, bufs[i][s.host], v)
						if i == 1 {
							memo.Touch() // as the CUDA runtime does for every request but a launch
						}
						continue
					}
					var params []byte
					for _, a := range s.args {
						params = append(params, u64p(bufs[i][a])...)
					}
					cfg := &Config{Kernel: m.Prog.FuncByName[s.kernel], Grid: [3]uint32{n / 128, 1, 1}, Block: [3]uint32{128, 1, 1},
						Params: params, Stdout: &outs[i], StdoutMu: new(sync.Mutex), SMs: 132, MaxWarpsPerSM: 64, ITS: true, StackBytes: s.stack}
					if i == 1 {
						cfg.Memo = memo
						if k, ok := shortFrom[tc.name]; ok && si >= k {
							memo.worthNs = time.Hour
						}
					}
					res, err := m.Launch(cfg)
					if err != nil {
						t.Fatalf("step %d (%s): %v", si, s.kernel, err)
					}
					counts[i] = res.Total()
				}
				if counts[0] != counts[1] {
					t.Errorf("step %d (%s): counters %+v executed, %+v with the memo", si, s.kernel, counts[0], counts[1])
				}
				if outs[0].String() != outs[1].String() {
					t.Errorf("step %d (%s): printed %q executed, %q with the memo", si, s.kernel, outs[0].String(), outs[1].String())
				}
				for j := range bufs[0] {
					a, b := mems[0].u32s(t, bufs[0][j], n), mems[1].u32s(t, bufs[1][j], n)
					for k := range a {
						if a[k] != b[k] {
							t.Fatalf("step %d (%s): buffer %d element %d is %d executed, %d with the memo", si, s.kernel, j, k, a[k], b[k])
						}
					}
				}
			}
			st := memo.Stats()
			if got := int(st.Replayed); got != tc.replays {
				t.Errorf("%d launches replayed, want %d", got, tc.replays)
			}
			if got := int(st.Hashed); tc.hashes >= 0 && got != tc.hashes {
				t.Errorf("memory hashed %d times, want %d", got, tc.hashes)
			}
		})
	}
}
