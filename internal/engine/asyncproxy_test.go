package engine

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// The PTX in testdata/tensor/ptx is clang-22's compilation of the probe
// programs (warpsim compile testdata/tensor/<probe>.cu); the expected bytes
// are the H100's (testdata/tensor/out, made by run.sh).

func loadPTXFile(t *testing.T, name string) *Module {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", name))
	if err != nil {
		t.Fatal(err)
	}
	return testModule(t, string(src))
}

// TestLdmatrixMatchesH100: ldmatrix x1/x2/x4 (.trans), movmatrix and
// stmatrix x1/x2/x4 (.trans) on a permuted set of row addresses.
func TestLdmatrixMatchesH100(t *testing.T) {
	want, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "ldmatrix.bin"))
	if err != nil {
		t.Fatal(err)
	}
	m := loadPTXFile(t, "ldmatrix_probe.ptx")
	out := m.buffer(t, len(want))
	if _, _, err := m.launchTest(t, run{kernel: "_Z3ldmPj", block: [3]uint32{32, 1, 1}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, len(want)/4)
	names := []string{"x1", "x2", "x4", "x1.trans", "x2.trans", "x4.trans", "movmatrix"}
	for i := range got {
		w := binary.LittleEndian.Uint32(want[4*i:])
		if got[i] != w {
			what := "stmatrix"
			if i < 7*128 {
				what = "ldmatrix " + names[i/128]
			}
			t.Fatalf("%s: word %d is %#08x, H100 %#08x", what, i, got[i], w)
		}
	}
}

// TestAsyncCopiesMatchH100: a double-buffered cp.async pipeline, src-size
// zero fill, cp.async.mbarrier.arrive.noinc with try_wait.parity, one
// thread's mbarrier sequence and a block's two arrive/wait rounds.
func TestAsyncCopiesMatchH100(t *testing.T) {
	want, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "async.bin"))
	if err != nil {
		t.Fatal(err)
	}
	input, err := testenv.ReadRecording(filepath.Join(tensorRec, "in", "async_input.bin"))
	if err != nil {
		t.Fatal(err)
	}
	m := loadPTXFile(t, "async_probe.ptx")
	g := m.buffer(t, len(input))
	b, _ := m.Mem.Bytes(g, uint64(len(input)))
	copy(b, input)
	out := m.buffer(t, len(want))
	ob, _ := m.Mem.Bytes(out, uint64(len(want)))
	for i := range ob {
		ob[i] = 0xEE
	}
	for _, r := range []run{
		{kernel: "_Z4pipePKfPfi", block: [3]uint32{128, 1, 1}, params: append(u64p(g, out), 6, 0, 0, 0)},
		{kernel: "_Z5zfillPKjPj", block: [3]uint32{64, 1, 1}, params: u64p(g, out+4*128)},
		{kernel: "_Z4mbcpPKfPf", block: [3]uint32{128, 1, 1}, params: u64p(g, out+4*(128+1024))},
		{kernel: "_Z5mbseqPmPj", block: [3]uint32{128, 1, 1}, params: u64p(out+4*1280, out+4*1280+8*64)},
	} {
		if _, _, err := m.launchTest(t, r); err != nil {
			t.Fatalf("%s: %v", r.kernel, err)
		}
	}
	got, _ := m.Mem.Bytes(out, uint64(len(want)))
	for _, p := range []struct {
		name     string
		from, to int
	}{{"pipeline", 0, 512}, {"zero fill", 512, 4608}, {"cp.async.mbarrier.arrive", 4608, 5120}, {"block arrive/wait rounds", 5632, 6144}} {
		if !bytes.Equal(got[p.from:p.to], want[p.from:p.to]) {
			t.Errorf("%s: bytes %d..%d differ from the H100's", p.name, p.from, p.to)
		}
	}
	// mbseq: the results (pending counts, test_wait outcomes); the raw
	// object words and state tokens are opaque and not compared.
	results := []int{3, 4, 5, 6, 9, 10, 11, 12, 13, 16, 17, 18, 22, 23, 25, 26, 28, 29, 30, 35}
	for _, i := range results {
		gv := binary.LittleEndian.Uint64(got[5120+8*i:])
		wv := binary.LittleEndian.Uint64(want[5120+8*i:])
		if gv != wv {
			t.Errorf("mbarrier sequence step %d: %d, H100 %d", i, gv, wv)
		}
	}
}

// TestAsyncCopyWaitsForGroup: data lands in shared memory only when the
// group completes; a read before cp.async.wait_group sees the old bytes.
func TestAsyncCopyWaitsForGroup(t *testing.T) {
	m := testModule(t, `
.visible .entry k(.param .u64 g, .param .u64 o) {
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 s[16];
	ld.param.u64 %rd1, [g];
	ld.param.u64 %rd2, [o];
	mov.u32 %r1, 7;
	st.shared.u32 [s], %r1;
	cp.async.cg.shared.global [s], [%rd1], 16;
	cp.async.commit_group;
	ld.shared.u32 %r2, [s];
	st.global.u32 [%rd2], %r2;
	cp.async.wait_group 0;
	ld.shared.u32 %r3, [s];
	st.global.u32 [%rd2+4], %r3;
	ret;
}`)
	g := m.buffer(t, 16)
	m.setU32s(t, g, []uint32{42, 0, 0, 0})
	o := m.buffer(t, 8)
	if _, _, err := m.launchTest(t, run{kernel: "k", block: [3]uint32{1, 1, 1}, params: u64p(g, o)}); err != nil {
		t.Fatal(err)
	}
	if got := m.u32s(t, o, 2); got[0] != 7 || got[1] != 42 {
		t.Fatalf("before wait %d (want the old 7), after %d (want 42)", got[0], got[1])
	}
}
