package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"

	"github.com/warpsim/warpsim/internal/tensor"
)

// TestWMMAMatchesH100 runs clang-22's PTX of testdata/tensor/wmma_probe.cu
// (built with warpsim's mma.h) on the recorded inputs and compares D with
// the H100's, for every recorded wmma shape and type.
func TestWMMAMatchesH100(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", "wmma_probe.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	entries := regexp.MustCompile(`\.entry (\S+)\(`).FindAllStringSubmatch(string(src), -1)
	// in wmma_probe.cu's main order: name, M, N, K, element bytes of A/B and C, A row-major, B row-major, C column-major
	vs := []struct {
		name           string
		M, N, K, ab, c int
		arow, brow     bool
		ccol           bool
	}{
		{"m16n16k16_f16_f32_rc", 16, 16, 16, 2, 4, true, false, false},
		{"m16n16k16_f16_f32_cr_ccol", 16, 16, 16, 2, 4, false, true, true},
		{"m16n16k16_f16_f32_rr", 16, 16, 16, 2, 4, true, true, false},
		{"m16n16k16_f16_f16_rc", 16, 16, 16, 2, 2, true, false, false},
		{"m16n16k16_f16_f16_cc", 16, 16, 16, 2, 2, false, false, false},
		{"m32n8k16_f16_f32_rc", 32, 8, 16, 2, 4, true, false, false},
		{"m8n32k16_f16_f32_rr", 8, 32, 16, 2, 4, true, true, false},
		{"m16n16k16_bf16_f32_rc", 16, 16, 16, 2, 4, true, false, false},
		{"m16n16k8_tf32_f32_rr", 16, 16, 8, 4, 4, true, true, false},
		{"m16n16k8_tf32_f32_cc", 16, 16, 8, 4, 4, false, false, false},
		{"m16n16k16_s8_s32_rc", 16, 16, 16, 1, 4, true, false, false},
		{"m16n16k16_u8_s32_rr", 16, 16, 16, 1, 4, true, true, false},
		{"m8n8k4_f64_f64_rc", 8, 8, 4, 8, 8, true, false, false},
	}
	if len(entries) != len(vs) {
		t.Fatalf("%d kernels in wmma_probe.ptx, %d variants", len(entries), len(vs))
	}
	// nvcc 13 writes f64 wmma.mma with its optional rounding, .rn
	// (testdata/programs3/nvcc/ptx/wmma_f64.nvcc.ptx): the same MMA, run
	// again as the last variant.
	rn := strings.Replace(string(src), "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64", "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn", 1)
	if rn == string(src) {
		t.Fatal("no f64 wmma.mma in wmma_probe.ptx")
	}
	mrn := testModule(t, rn)
	vs = append(vs, vs[len(vs)-1])
	entries = append(entries, entries[len(entries)-1])
	m := testModule(t, string(src))
	for i, v := range vs {
		m, sub := m, v.name
		if i == len(vs)-1 {
			m, sub = mrn, v.name+"_rn"
		}
		t.Run(sub, func(t *testing.T) {
			rec, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "wmma_"+v.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			const cases = 64
			na, nb, nc := cases*v.M*v.K*v.ab, cases*v.K*v.N*v.ab, cases*v.M*v.N*v.c
			if len(rec) != na+nb+nc+nc {
				t.Fatalf("recording has %d bytes, want %d", len(rec), na+nb+2*nc)
			}
			buf := func(b []byte) uint64 {
				a := m.buffer(t, len(b))
				d, _ := m.Mem.Bytes(a, uint64(len(b)))
				copy(d, b)
				return a
			}
			da, db, dc := buf(rec[:na]), buf(rec[na:na+nb]), buf(rec[na+nb:na+nb+nc])
			dd := buf(bytes.Repeat([]byte{0xEE}, nc))
			lda, ldb, ldc := v.M, v.K, v.N
			if v.arow {
				lda = v.K
			}
			if v.brow {
				ldb = v.N
			}
			ccol := 0
			if v.ccol {
				ldc, ccol = v.M, 1
			}
			p := u64p(da, db, dc, dd)
			for _, x := range []int{lda, ldb, ldc, ccol} {
				p = binary.LittleEndian.AppendUint32(p, uint32(x))
			}
			if _, _, err := m.launchTest(t, run{kernel: entries[i][1], grid: [3]uint32{cases, 1, 1}, block: [3]uint32{32, 1, 1}, params: p}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(dd, uint64(nc))
			want := rec[na+nb+nc:]
			if !bytes.Equal(got, want) {
				n := 0
				for j := 0; j < nc; j += v.c {
					if !bytes.Equal(got[j:j+v.c], want[j:j+v.c]) {
						n++
					}
				}
				t.Errorf("%d of %d elements of D differ from the H100's", n, nc/v.c)
			}
		})
	}
}

// TestWMMAGemmProgramMatchesH100 runs the 12-line wmma GEMM
// (testdata/tensor/gemm_wmma.cu, clang's PTX) on its own inputs and prints
// C as the program does: the text must equal the H100's output.
func TestWMMAGemmProgramMatchesH100(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", "gemm_wmma.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(tensorRec, "out", "gemm_wmma.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	m := testModule(t, string(src))
	ha, hb := make([]byte, 2*n*n), make([]byte, 2*n*n)
	for i := 0; i < n*n; i++ {
		binary.LittleEndian.PutUint16(ha[2*i:], tensor.F32ToF16(math.Float32bits(float32((i*7919)%1000)/337.0-1.3)))
		binary.LittleEndian.PutUint16(hb[2*i:], tensor.F32ToF16(math.Float32bits(float32((i*104729)%997)/211.0-2.2)))
	}
	da, db, dc := m.buffer(t, len(ha)), m.buffer(t, len(hb)), m.buffer(t, 4*n*n)
	b, _ := m.Mem.Bytes(da, uint64(len(ha)))
	copy(b, ha)
	b, _ = m.Mem.Bytes(db, uint64(len(hb)))
	copy(b, hb)
	if _, _, err := m.launchTest(t, run{kernel: "_Z4gemmPK6__halfS1_Pf", grid: [3]uint32{n / 16, n / 16, 1}, block: [3]uint32{32, 1, 1}, params: u64p(da, db, dc)}); err != nil {
		t.Fatal(err)
	}
	c := m.u32s(t, dc, n*n)
	var out strings.Builder
	for i, x := range c {
		sep := " "
		if i%8 == 7 {
			sep = "\n"
		}
		fmt.Fprintf(&out, "%s%s", fmt.Sprintf("%.9g", float64(math.Float32frombits(x))), sep)
	}
	if out.String() != string(want) {
		t.Errorf("output differs from the H100's")
	}
}
