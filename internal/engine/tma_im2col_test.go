package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/tmap"
)

// im2colCase is one line of testdata/tma/im2col_cases.txt (see its header).
type im2colCase struct {
	name, kind     string
	dtype, rank    int
	g, s           [5]uint64
	lo, up         [3]int32
	cpp, ppc       uint32
	e              [5]uint32
	il, sw, l2, oo int
	c              [5]int32
	o              [3]int32
	dstoff, pat    int
	gaoff          int64
}

func readIm2colCases(t *testing.T) []im2colCase {
	lines, num := readCaseLines(t, "im2col_cases.txt", 41)
	var cs []im2colCase
	for _, fs := range lines {
		n := func(i int) int64 { return num(fs, i) }
		c := im2colCase{name: fs[0], kind: fs[1], dtype: int(n(2)), rank: int(n(3))}
		for i := 0; i < 5; i++ {
			c.g[i] = uint64(n(4 + i))
			if i < 4 {
				c.s[i+1] = uint64(n(9 + i))
			}
			c.e[i] = uint32(n(21 + i))
			c.c[i] = int32(n(30 + i))
		}
		for i := 0; i < 3; i++ {
			c.lo[i], c.up[i], c.o[i] = int32(n(13+i)), int32(n(16+i)), int32(n(35+i))
		}
		c.cpp, c.ppc = uint32(n(19)), uint32(n(20))
		c.il, c.sw, c.l2, c.oo = int(n(26)), int(n(27)), int(n(28)), int(n(29))
		c.dstoff, c.gaoff, c.pat = int(n(38)), n(39), int(n(40))
		cs = append(cs, c)
	}
	return cs
}

func (c *im2colCase) args(addr uint64) tmap.Im2col {
	a := tmap.Im2col{DType: uint8(c.dtype), Rank: uint32(c.rank), Addr: addr, Channels: c.cpp, Pixels: c.ppc,
		Interleave: uint8(c.il), Swizzle: uint8(c.sw), L2: uint8(c.l2), OOBFill: uint8(c.oo)}
	if c.dtype > 255 {
		a.DType = 255
	}
	a.Dim, a.EStride, a.Stride = c.g[:], c.e[:], c.s[1:]
	a.Lower, a.Upper = c.lo[:], c.up[:]
	return a
}

// TestTMAIm2colMatchesH100 runs every case of testdata/tma/im2col_cases.txt
// as the GPU (an H200) ran it (im2col_probe.cu, clang's PTX in
// ptx/im2col_probe.ptx) and compares the bytes: the shared memory after an
// im2col load (pixel box traversal, corners, offsets, element strides,
// out-of-bounds fill, swizzle), the phase-completed word, the driver's
// cuTensorMapEncodeIm2col verdicts, and the faults.
func TestTMAIm2colMatchesH100(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(tmaRec, "ptx", "im2col_probe.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m := testModule(t, string(src))
	cases := readIm2colCases(t)
	if len(cases) < 83 {
		t.Fatalf("%d cases, want the 83 of im2col_cases.txt", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := os.ReadFile(filepath.Join(tmaRec, "out", c.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			le := binary.LittleEndian
			wantEnc, wantErr := le.Uint32(rec), le.Uint32(rec[4:])
			want := rec[8:]
			if c.kind == "E" {
				addr := uint64(0x7f00_0000_0000) + uint64(c.gaoff)
				if c.gaoff < 0 {
					addr = 0
				}
				_, code, why := tmap.EncodeIm2col(c.args(addr))
				if uint32(code) != wantEnc {
					t.Fatalf("cuTensorMapEncodeIm2col: %d (%s), the driver %d", code, why, wantEnc)
				}
				return
			}
			es := tmap.ElemSize(uint8(c.dtype))
			bytesN := c.s[c.rank-1] * c.g[c.rank-1]
			g := m.buffer(t, int(bytesN)+256)
			gb, _ := m.Mem.Bytes(g, bytesN)
			tmaFill(gb, c.dtype, c.pat, 0)
			mp, code, why := tmap.EncodeIm2col(c.args(g + uint64(c.gaoff)))
			if uint32(code) != wantEnc {
				t.Fatalf("encode %d (%s), the driver %d", code, why, wantEnc)
			}
			if code != 0 {
				if len(want) != 0 {
					t.Fatalf("the driver refused the map but the recording has %d bytes", len(want))
				}
				return
			}
			params := make([]byte, 184)
			mp.Encode(params)
			row := uint64(c.cpp) * uint64(es)
			if sw := uint64(tmap.SwizzleBytes(uint8(c.sw))); row < sw {
				row = sw
			}
			dump := ((row*uint64(c.ppc)+uint64(c.dstoff)+1023)/1024)*1024 + 1024
			for i := 0; i < 5; i++ {
				le.PutUint32(params[128+4*i:], uint32(c.c[i]))
			}
			for i := 0; i < 3; i++ {
				le.PutUint32(params[148+4*i:], uint32(c.o[i]))
			}
			le.PutUint32(params[160:], uint32(c.dstoff))
			le.PutUint32(params[164:], c.cpp*c.ppc*uint32(es))
			le.PutUint32(params[168:], uint32(dump))
			if c.kind == "P" {
				le.PutUint32(params[172:], 1)
			}
			outN := 16 + dump
			out := m.buffer(t, int(outN))
			le.PutUint64(params[176:], out)
			ru := run{block: [3]uint32{128, 1, 1}, dyn: uint32(dump + 2048), its: true, steps: 50_000_000,
				kernel: fmt.Sprintf("kim2col%d", c.rank), grid: [3]uint32{1, 1, 1}, params: params}
			_, _, err = m.launchTest(t, ru)
			if wantErr != 0 {
				kinds := map[uint32]FaultKind{715: FaultIllegal, 716: FaultMisaligned}
				f, ok := err.(*Fault)
				if !ok || f.Kind != kinds[wantErr] {
					t.Fatalf("the GPU stopped with CUDA error %d; warpsim: %v", wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(out, outN)
			if !bytes.Equal(got, want) {
				k := 0
				for k < len(got) && k < len(want) && got[k] == want[k] {
					k++
				}
				t.Errorf("%d bytes (GPU %d) differ first at %d", len(got), len(want), k)
			}
		})
	}
}
