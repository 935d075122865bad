package engine

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// wgmmaTypesRec holds testdata/tensor/wgmmatypes: gen.py's PTX probes (one
// wgmma.mma_async or mma.sync per CTA), their inputs, and the H100's outputs.
var wgmmaTypesRec = filepath.Join(tensorRec, "wgmmatypes")

type wgmmaTypesVariant struct {
	name                    string
	threads, cases, in, out int
	instr                   string
}

func wgmmaTypesVariants(t *testing.T, dir string) []wgmmaTypesVariant {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "variants.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []wgmmaTypesVariant
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 6 {
			t.Fatalf("variants.tsv: %q: want 6 columns", l)
		}
		v := wgmmaTypesVariant{name: c[0], instr: c[5]}
		for i, p := range []*int{&v.threads, &v.cases, &v.in, &v.out} {
			if *p, err = strconv.Atoi(c[1+i]); err != nil {
				t.Fatalf("variants.tsv: %q: %v", l, err)
			}
		}
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		t.Fatal("variants.tsv lists no variant")
	}
	return vs
}

// TestWGMMATypesMatchH100 runs every probe of testdata/tensor/wgmmatypes
// (gen.py's PTX, run unchanged on the H100 through ptxas by run.sh) on the
// recorded inputs and compares every output register with the H100's: wgmma
// with f16 accumulators (f16 and fp8 inputs), the mixed fp8 pairings, A from
// registers for every type, the imm-scale-a/b negations, integer forms with A
// in registers; N from 8 to 256 with every swizzle mode, K- and MN-major
// operands, non-canonical strides and start offsets inside a swizzle row; and
// the mma.sync forms run.sh had not recorded (m16n8k8 f16 accumulators,
// e5m2×e4m3, mixed-sign 8- and 4-bit shapes, m16n8k128/m8n8k128 b1, and the
// m16n8k16 and f16-accumulator fp8 forms); and wmma's sub-byte forms
// (m8n8k32 s4/u4, m8n8k128 b1 .xor/.and.popc) from load to store.
func TestWGMMATypesMatchH100(t *testing.T) { matchTypeRecordings(t, wgmmaTypesRec) }

// TestMMA884MatchH100 runs every probe of testdata/tensor/mma884 the same
// way: mma.sync.aligned.m8n8k4 with f16 inputs (Volta's quad-pair shape) in
// every .row/.col pairing of A and B and every f16/f32 pairing of D and C
// that ptxas accepts, on the adversarial families; and wgmma with the
// matrix descriptor's base offset (bits 49-51) set and start addresses
// anywhere inside the swizzle pattern's repeat, on random shared memory.
func TestMMA884MatchH100(t *testing.T) { matchTypeRecordings(t, filepath.Join(tensorRec, "mma884")) }

// matchTypeRecordings runs the probes of a gen.py/run.sh recording folder
// (variants.tsv, ptx/, in/, out/) and compares every output register.
func matchTypeRecordings(t *testing.T, dir string) {
	for _, v := range wgmmaTypesVariants(t, dir) {
		t.Run(v.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "ptx", v.name+".ptx"))
			if err != nil {
				t.Fatal(err)
			}
			in, err := testenv.ReadRecording(filepath.Join(dir, "in", v.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := testenv.ReadRecording(filepath.Join(dir, "out", v.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			if len(in) != v.cases*v.in || len(want) != v.cases*v.out {
				t.Fatalf("input %d and output %d bytes, want %d cases of %d and %d", len(in), len(want), v.cases, v.in, v.out)
			}
			m := testModule(t, string(src))
			din := m.buffer(t, len(in))
			b, _ := m.Mem.Bytes(din, uint64(len(in)))
			copy(b, in)
			dout := m.buffer(t, len(want))
			if _, _, err := m.launchTest(t, run{kernel: "probe", grid: [3]uint32{uint32(v.cases), 1, 1}, block: [3]uint32{uint32(v.threads), 1, 1}, params: u64p(din, dout)}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(dout, uint64(len(want)))
			if bytes.Equal(got, want) {
				return
			}
			n := 0
			for i := 0; i < len(want); i += 4 {
				if !bytes.Equal(got[i:i+4], want[i:i+4]) {
					if n < 4 {
						th := i / 4 / (v.out / 4 / v.threads)
						t.Errorf("case %d thread %d register %d: %#08x, H100 %#08x", th/v.threads, th%v.threads, i/4%(v.out/4/v.threads),
							binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:]))
					}
					n++
				}
			}
			t.Errorf("%s: %d of %d output registers differ", v.instr, n, len(want)/4)
		})
	}
}

// TestWMMASubByteAPIMatchesH100 runs clang's PTX of
// testdata/tensor/wgmmatypes/wmma_subbyte.cu (mma.h's
// experimental::precision s4/u4/b1 fragments, mma_sync with satf, bmma_sync
// with XOR and AND) on the inputs of the wmma_* recordings and compares D with
// what the H100 computed from gen.py's PTX of the same operations.
func TestWMMASubByteAPIMatchesH100(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(wgmmaTypesRec, "ptx", "wmma_subbyte_cc.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m := testModule(t, string(src))
	for _, c := range []struct {
		name, kernel string
		arg          uint32
	}{
		{"wmma_m8n8k32_s32_s4_s4_s32", "_Z8probe_s4PKhPii", 0},
		{"wmma_m8n8k32_s32_s4_s4_s32_satfinite", "_Z8probe_s4PKhPii", 1},
		{"wmma_m8n8k32_s32_u4_u4_s32_satfinite", "_Z8probe_u4PKhPii", 1},
		{"wmma_m8n8k128_s32_b1_b1_s32_xor_popc", "_Z8probe_b1PKhPii", 0},
		{"wmma_m8n8k128_s32_b1_b1_s32_and_popc", "_Z8probe_b1PKhPii", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, err := testenv.ReadRecording(filepath.Join(wgmmaTypesRec, "in", c.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := testenv.ReadRecording(filepath.Join(wgmmaTypesRec, "out", c.name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			const caseIn, caseOut = 928, 256
			cases := len(in) / caseIn
			if cases == 0 || len(in) != cases*caseIn || len(want) != cases*caseOut {
				t.Fatalf("input %d and output %d bytes are not whole cases", len(in), len(want))
			}
			din := m.buffer(t, len(in))
			b, _ := m.Mem.Bytes(din, uint64(len(in)))
			copy(b, in)
			dout := m.buffer(t, len(want))
			params := binary.LittleEndian.AppendUint32(u64p(din, dout), c.arg)
			if _, _, err := m.launchTest(t, run{kernel: c.kernel, grid: [3]uint32{uint32(cases), 1, 1}, block: [3]uint32{32, 1, 1}, params: params}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(dout, uint64(len(want)))
			if n := diffWords(t, got, want); n > 0 {
				t.Errorf("%d of %d outputs differ from the H100's", n, len(want)/4)
			}
		})
	}
}

// diffWords reports the first differing 32-bit words and counts them.
func diffWords(t *testing.T, got, want []byte) int {
	t.Helper()
	n := 0
	for i := 0; i+4 <= len(want); i += 4 {
		if !bytes.Equal(got[i:i+4], want[i:i+4]) {
			if n < 3 {
				t.Errorf("word %d: %#08x, H100 %#08x", i/4, binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:]))
			}
			n++
		}
	}
	return n
}
