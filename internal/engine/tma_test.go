package engine

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/internal/tmap"
)

const tmaRec = "../../testdata/tma"

// tmaCase is one line of testdata/tma/cases.txt (see its header).
type tmaCase struct {
	name, kind             string
	dtype, rank            int
	g, s                   [5]uint64
	b, e                   [5]uint32
	il, sw, l2, oob        int
	c                      [5]int32
	dstoff, op, tmoff, pat int
	gaoff                  int64
}

// readCaseLines reads one of testdata/tma's case files: one case a line,
// whitespace-separated fields, # comments; every case must have nfields
// fields. num parses field i of a case as an integer.
func readCaseLines(t *testing.T, file string, nfields int) (cases [][]string, num func(fs []string, i int) int64) {
	t.Helper()
	f, err := os.Open(filepath.Join(tmaRec, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) != nfields {
			t.Fatalf("%s: %d fields in %q", file, len(fs), sc.Text())
		}
		cases = append(cases, fs)
	}
	return cases, func(fs []string, i int) int64 {
		v, err := strconv.ParseInt(fs[i], 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return v
	}
}

func readTMACases(t *testing.T, file string) []tmaCase {
	lines, num := readCaseLines(t, file, 37)
	var cs []tmaCase
	for _, fs := range lines {
		n := func(i int) int64 { return num(fs, i) }
		c := tmaCase{name: fs[0], kind: fs[1], dtype: int(n(2)), rank: int(n(3))}
		for i := 0; i < 5; i++ {
			c.g[i] = uint64(n(4 + i))
			if i < 4 {
				c.s[i+1] = uint64(n(9 + i))
			}
			c.b[i] = uint32(n(13 + i))
			c.e[i] = uint32(n(18 + i))
			c.c[i] = int32(n(27 + i))
		}
		c.il, c.sw, c.l2, c.oob = int(n(23)), int(n(24)), int(n(25)), int(n(26))
		c.dstoff, c.op, c.gaoff, c.tmoff, c.pat = int(n(32)), int(n(33)), n(34), int(n(35)), int(n(36))
		cs = append(cs, c)
	}
	return cs
}

// tmaSpec32 and tmaSpec16 are tma_probe.cu's special values (pat 2).
var (
	tmaSpec32 = [16]uint32{0x00000001, 0x807fffff, 0x00800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345,
		0x3f801000, 0x3f803000, 0x3f800fff, 0x3f801001, 0x7f7ff000, 0x7f7fffff, 0x00001000, 0x80000000}
	tmaSpec16 = [16]uint16{0x0001, 0x8001, 0x03ff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe12,
		0x7bff, 0x0400, 0x8000, 0x3c00, 0x3c01, 0x7f7f, 0x0080, 0x8080}
)

// tmaPattern is tma_probe.cu's pattern(): element k's bits.
func tmaPattern(dt, pat int, k uint32) uint64 {
	hash := func(k uint32) uint32 { return k*2654435761 ^ k<<13 ^ k>>7 }
	h, h2 := hash(k), hash(k+7777)
	if pat == 2 {
		if k%3 == 0 {
			i := k / 3
			if k >= 100000 {
				i += 5
			}
			if dt == 6 || dt == 9 {
				return uint64(tmaSpec16[i%16])
			}
			return uint64(tmaSpec32[i%16])
		}
		pat = 0
	}
	if pat == 0 {
		s := k / 3 & 1
		switch dt {
		case 6:
			return uint64(s<<15 | (10+k%10)<<10 | h>>6&0x3ff)
		case 9:
			return uint64(s<<15 | (118+k%20)<<7 | h>>9&0x7f)
		case 7, 10, 11, 12:
			return uint64(s<<31 | (118+k%20)<<23 | h>>9&0x7fffff)
		case 8:
			return uint64(s)<<63 | uint64(1016+k%20)<<52 | (uint64(h)<<20^uint64(h2))&0xfffffffffffff
		}
	}
	return uint64(h2)<<32 | uint64(h)
}

func tmaFill(p []byte, dt, pat int, salt uint32) {
	es := tmap.ElemSize(uint8(dt))
	for i := 0; i*es < len(p); i++ {
		v := tmaPattern(dt, pat, uint32(i)+salt)
		for j := 0; j < es && i*es+j < len(p); j++ {
			p[i*es+j] = byte(v >> (8 * j))
		}
	}
}

func (c *tmaCase) tiled(addr uint64) tmap.Tiled {
	r := c.rank
	if r > 5 {
		r = 5
	}
	a := tmap.Tiled{DType: uint8(c.dtype), Rank: uint32(c.rank), Addr: addr, Interleave: uint8(c.il),
		Swizzle: uint8(c.sw), L2: uint8(c.l2), OOBFill: uint8(c.oob)}
	if c.dtype > 255 {
		a.DType = 255
	}
	a.Dim, a.Box, a.EStride = c.g[:], c.b[:], c.e[:]
	a.Stride = c.s[1:]
	return a
}

// TestTMAMatchesH100 runs every case of testdata/tma/cases.txt as the H100
// ran it (tma_probe.cu, clang's PTX in ptx/tma_probe.ptx) and compares the
// bytes: shared memory after a load (layout, out-of-bounds fill, swizzle,
// element strides, multicast), the tensor after a store or reduction, the
// driver's cuTensorMapEncodeTiled verdicts, and the faults.
func TestTMAMatchesH100(t *testing.T) { runTMACases(t, "cases.txt") }

// TestTMAInterleaveMatchesH100 runs testdata/tma/il_cases.txt, the
// interleaved layouts (CU_TENSOR_MAP_INTERLEAVE_16B/32B), as the H100 ran
// them: the shared memory after a load and the transaction bytes it
// completed (measured by tma_probe.cu's kind I), the tensor after a store
// (kind T), and the driver's cuTensorMapEncodeTiled verdicts. A measured
// load (kind I) spins 4,000,000 clock64 cycles and then counts its bytes
// down one by one (about a CPU second in the engine), so the plain run
// takes every fourth case; TestLongTMAInterleaveMatchesH100 takes all 48.
func TestTMAInterleaveMatchesH100(t *testing.T) { runTMACasesEvery(t, "il_cases.txt", 4) }

// TestLongTMAInterleaveMatchesH100 is TestTMAInterleaveMatchesH100 over
// every case.
func TestLongTMAInterleaveMatchesH100(t *testing.T) {
	testenv.Long(t)
	runTMACasesEvery(t, "il_cases.txt", 1)
}

// runTMACases runs one case file of testdata/tma through tma_probe.cu's
// PTX and compares every byte with the H100's recording. Under -short (CI's
// race step, where an interleaved case's mbarrier wait loop takes seconds)
// every fourth case; the plain run takes them all.
func runTMACases(t *testing.T, file string) { runTMACasesEvery(t, file, 1) }

// runTMACasesEvery is runTMACases over every k-th case of file (the first,
// the k+1-th, …), and under -short every 4k-th.
func runTMACasesEvery(t *testing.T, file string, k int) {
	src, err := os.ReadFile(filepath.Join(tmaRec, "ptx", "tma_probe.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m := testModule(t, string(src))
	for i, c := range readTMACases(t, file) {
		if i%k != 0 || testing.Short() && i%(4*k) != 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			rec, err := os.ReadFile(filepath.Join(tmaRec, "out", c.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			wantEnc, wantErr := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint32(rec[4:])
			want := rec[8:]
			if c.kind == "E" {
				addr := uint64(0x7f00_0000_0000) + uint64(c.gaoff)
				if c.gaoff < 0 {
					addr = 0
				}
				_, code, why := tmap.EncodeTiled(c.tiled(addr))
				if uint32(code) != wantEnc {
					t.Fatalf("cuTensorMapEncodeTiled: %d (%s), the H100's driver %d", code, why, wantEnc)
				}
				return
			}
			sim := sharedTMACase(t, m, file, c)
			if sim.err != nil {
				t.Fatal(sim.err)
			}
			if uint32(sim.code) != wantEnc || sim.code != 0 {
				t.Fatalf("encode %d (%s), H100 %d", sim.code, sim.why, wantEnc)
			}
			if err := sim.launchErr; wantErr != 0 {
				kinds := map[uint32]FaultKind{715: FaultIllegal, 716: FaultMisaligned}
				f, ok := err.(*Fault)
				if !ok || f.Kind != kinds[wantErr] {
					t.Fatalf("the H100 stopped with CUDA error %d; warpsim: %v", wantErr, err)
				}
				return
			} else if err != nil {
				t.Fatal(err)
			}
			got := sim.got
			if c.e[0] != 1 && (c.kind == "L" || c.kind == "M") {
				// The phase-completed word of a load whose expectation
				// counts dimension 0 by its element stride: the H100 (es_21)
				// and an H200 (the same case, t2_es0_tx) disagreed, so
				// only the data is compared (tmap.TxBytes).
				want = append([]byte{}, want...)
				copy(want[:4], got[:4])
			}
			if !bytes.Equal(got, want) {
				k := 0
				for k < len(got) && got[k] == want[k] {
					k++
				}
				nd := 0
				for i := range got {
					if got[i] != want[i] {
						nd++
					}
				}
				lo := k &^ 15
				t.Errorf("%d of %d bytes differ, first at %d:\n got %x\nwant %x", nd, len(want), k,
					got[lo:min(lo+32, len(got))], want[lo:min(lo+32, len(want))])
			}
		})
	}
}

// A TMA case's simulation, made once per package run for every test that
// runs the case (sharedTMACase): TestTMAInterleaveMatchesH100's every
// fourth case is also TestLongTMAInterleaveMatchesH100's, which CI's
// WARPSIM_LONG=1 step runs in the same process. Only the result is kept;
// each test compares it with the H100's recording itself.
type tmaCaseRun struct {
	once sync.Once
	done bool
	err  error // the case could not be set up (an allocation failed)
	tmaCaseResult
}

type tmaCaseResult struct {
	code      int    // cuTensorMapEncodeTiled's result for the case's tensor
	why       string // and its reason
	launchErr error
	got       []byte // the output buffer after the launch (nil if it failed)
}

var tmaCaseRuns sync.Map // case file + "/" + case name → *tmaCaseRun

// sharedTMACase runs case c of file in m (or returns the run another test
// made of it): the tensor map's encoding, the launch's error and the
// output buffer's bytes. Whichever test runs the case first simulates it,
// in its own module: the case's output does not depend on where its
// buffers are, only on the case.
func sharedTMACase(t *testing.T, m *Module, file string, c tmaCase) *tmaCaseRun {
	t.Helper()
	v, _ := tmaCaseRuns.LoadOrStore(file+"/"+c.name, &tmaCaseRun{})
	s := v.(*tmaCaseRun)
	s.once.Do(func() {
		s.tmaCaseResult, s.err = simulateTMACase(t, m, c)
		s.done = true
	})
	if !s.done {
		t.Fatalf("case %s: its simulation stopped in another test", c.name)
	}
	return s
}

// simulateTMACase sets up case c in m (its global tensor, the tensor map,
// the parameters of tma_probe.cu's kernel) and launches it.
func simulateTMACase(t *testing.T, m *Module, c tmaCase) (res tmaCaseResult, err error) {
	es := tmap.ElemSize(uint8(c.dtype))
	r := min(max(c.rank, 1), 5)
	bytesN := c.g[0] * uint64(es)
	if r > 1 {
		bytesN = c.s[r-1] * c.g[r-1]
	}
	g, err := m.Mem.Alloc(bytesN + 256)
	if err != nil {
		return res, err
	}
	gb, _ := m.Mem.Bytes(g, bytesN)
	tmaFill(gb, c.dtype, c.pat, 0)
	mp, code, why := tmap.EncodeTiled(c.tiled(g + uint64(c.gaoff)))
	res.code, res.why = code, why
	if code != 0 {
		return res, nil
	}
	params := make([]byte, 176)
	mp.Encode(params)
	n := uint64(es)
	for i := 0; i < r; i++ {
		n *= uint64((c.b[i] + c.e[i] - 1) / c.e[i])
	}
	dump := ((n+uint64(c.dstoff)+1023)/1024)*1024 + 1024
	expect, nsrc := n, n
	kind := c.kind
	if kind == "I" || kind == "T" { // interleaved: room for 8 boxes (tma_probe.cu)
		expect, nsrc = 8*n+4096, 8*n
		dump = ((8*n+uint64(c.dstoff)+1023)/1024)*1024 + 1024
		kind = map[string]string{"I": "L", "T": "S"}[kind]
	}
	le := binary.LittleEndian
	for i := 0; i < 5; i++ {
		le.PutUint32(params[128+4*i:], uint32(c.c[i]))
	}
	le.PutUint32(params[148:], uint32(c.dstoff))
	le.PutUint32(params[152:], uint32(expect))
	le.PutUint32(params[156:], uint32(dump))
	le.PutUint32(params[160:], uint32(nsrc))
	le.PutUint16(params[164:], uint16(c.op))
	if c.kind == "I" {
		le.PutUint16(params[166:], 1) // measure the transaction bytes
	}
	var out uint64
	var outN uint64
	ru := run{block: [3]uint32{128, 1, 1}, dyn: uint32(dump + 2048), its: true, steps: 50_000_000}
	switch kind {
	case "L", "M":
		blocks := uint64(1)
		ru.kernel = fmt.Sprintf("kload%d", r)
		if c.kind == "M" {
			blocks, ru.kernel = 2, "kmcast2"
		}
		ru.grid = [3]uint32{uint32(blocks), 1, 1}
		outN = blocks * (16 + dump)
		if out, err = m.Mem.Alloc(outN); err != nil {
			return res, err
		}
	default:
		hs, err := m.Mem.Alloc(nsrc)
		if err != nil {
			return res, err
		}
		sb, _ := m.Mem.Bytes(hs, nsrc)
		tmaFill(sb, c.dtype, c.pat, 100000)
		le.PutUint64(params[168:], hs)
		ru.kernel = fmt.Sprintf("kstore%d", r)
		if c.kind == "R" {
			ru.kernel = fmt.Sprintf("kred%d", c.op&7)
		}
		out, outN = g, bytesN
	}
	if kind == "L" || kind == "M" {
		le.PutUint64(params[168:], out)
	}
	ru.params = params
	_, _, res.launchErr = m.launchTest(t, ru)
	if res.launchErr == nil {
		b, _ := m.Mem.Bytes(out, outN)
		res.got = bytes.Clone(b)
	}
	return res, nil
}

// TestGridConstantParamAddress: the generic address of a kernel parameter
// (cvta.param, as clang takes the address of a __grid_constant__ one) reads
// the parameter buffer, through ld and isspacep.param; cvta.to.param goes
// back.
func TestGridConstantParamAddress(t *testing.T) {
	m := testModule(t, `
.visible .entry k(.param .align 64 .b8 k_p[128], .param .u64 k_out)
{
	.reg .b64 %rd<8>; .reg .b32 %r<4>; .reg .pred %p<2>;
	mov.b64 %rd1, k_p;
	cvta.param.u64 %rd2, %rd1;
	ld.u32 %r1, [%rd2+8];
	isspacep.param %p1, %rd2;
	selp.u32 %r2, 1, 0, %p1;
	cvta.to.param.u64 %rd3, %rd2;
	cvt.u32.u64 %r3, %rd3;
	ld.param.u64 %rd4, [k_out];
	st.global.u32 [%rd4], %r1;
	st.global.u32 [%rd4+4], %r2;
	st.global.u32 [%rd4+8], %r3;
	ret;
}`)
	out := m.buffer(t, 12)
	params := make([]byte, 136)
	binary.LittleEndian.PutUint32(params[8:], 0xdeadbeef)
	binary.LittleEndian.PutUint64(params[128:], out)
	if _, _, err := m.launchTest(t, run{kernel: "k", block: [3]uint32{1, 1, 1}, params: params}); err != nil {
		t.Fatal(err)
	}
	if got := m.u32s(t, out, 3); got[0] != 0xdeadbeef || got[1] != 1 || got[2] != 0 {
		t.Errorf("got %#x, want [0xdeadbeef 1 0]", got)
	}
}
