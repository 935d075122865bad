package ir

import (
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/tensor"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/ptx"
)

// wshapeBody is what TestWmmaByteRoundsAsPtxas reads of one kernel's k loop
// in nvcc 13's SASS: the body between branches with the most IMMAs (ptxas
// unrolls the loop four times), its IMMA.16816 and LDG.E.U8 counts, the
// LDG.E.U8 issued before the first consumer of a loaded byte (IMAD ...,
// 0x100 or PRMT packing it, or an IMMA), and its load rounds: how often a
// load follows a consumer (PRMT, IMMA) of earlier loads — with in-order
// issue each such load goes out at least a round trip after the ones
// before it (testdata/programs3/wshape/rounds.py's count).
type wshapeBody struct {
	imma, bytes, firstRun, rounds int
}

func readWshape(t *testing.T) map[string]wshapeBody {
	t.Helper()
	data, err := testenv.ReadRecording(filepath.Join("..", "..", "testdata", "programs3", "wshape", "h200", "wshape.sass"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`k(\d+x\d+x\d+)_([su]8)_([rc][rc])`)
	inst := regexp.MustCompile(`/\*[0-9a-f]{4}\*/\s+([^;]*);`)
	out := map[string]wshapeBody{}
	for _, fn := range strings.Split(string(data), "Function : ")[1:] {
		m := name.FindString(strings.SplitN(fn, "\n", 2)[0])
		if m == "" {
			continue
		}
		var segs [][]string
		var cur []string
		for _, g := range inst.FindAllStringSubmatch(fn, -1) {
			f := strings.Fields(g[1])
			if len(f) > 1 && strings.HasPrefix(f[0], "@") {
				f = f[1:]
			}
			if strings.HasPrefix(f[0], "BRA") {
				segs, cur = append(segs, cur), nil
				continue
			}
			cur = append(cur, strings.Join(f, " "))
		}
		segs = append(segs, cur)
		var best wshapeBody
		for _, s := range segs {
			var b wshapeBody
			b.rounds = 1
			loaded, consumed, first := false, false, true
			for _, in := range s {
				op := strings.Fields(in)[0]
				pack := op == "IMAD" && strings.Contains(in, "0x100")
				switch {
				case strings.HasPrefix(op, "LDG"):
					if consumed {
						b.rounds, consumed = b.rounds+1, false
					}
					loaded = true
					if strings.HasPrefix(op, "LDG.E.U8") {
						b.bytes++
						if first {
							b.firstRun++
						}
					}
				case strings.HasPrefix(op, "IMMA"):
					b.imma++
					first = false
					consumed = consumed || loaded
				case op == "PRMT":
					first = false
					consumed = consumed || loaded
				case pack:
					first = false
				}
			}
			if b.imma > best.imma {
				best = b
			}
		}
		out[m] = best
	}
	return out
}

// TestWmmaByteRoundsAsPtxas checks wmmaByteRounds, and the byte loads
// WmmaAccesses makes of an 8-bit fragment stored the other way round from
// the MMA's, against nvcc 13's SASS of an 8-bit wmma k loop in every shape
// (m16n16k16, m32n8k16, m8n32k16), type (s8, u8) and A/B layout
// (testdata/programs3/wshape, h200/wshape.sass.gz; compile only, H200):
//
//   - the LDG.E.U8 of a step (the body's, over its four steps) are the
//     Insts of the fragments read a byte an element;
//   - the round trips a step's MMA waits (the larger of A's and B's
//     Rounds) are the body's load rounds over its four steps, rounded
//     half up — except where both operands are read a byte an element
//     in twenty loads a step (m32n8k16 and m8n32k16, A column-major, B
//     row-major), which take a round trip more than the later fragment's
//     (not modelled: wmmaByteRounds says so);
//   - a fragment of four byte loads is one group: the body's first
//     LDG.E.U8 before any consumer are at least four (eight: two steps').
//
// An eight-load fragment's two groups are read from wmmagemm's gg loop
// (TestWmmaRoundsAsPtxas), whose step issues four, packs, then four more;
// wshape's unrolled body sends its first step's eight together.
func TestWmmaByteRoundsAsPtxas(t *testing.T) {
	sass := readWshape(t)
	shapes := map[string]string{"16x16x16": "m16n16k16", "32x8x16": "m32n8k16", "8x32x16": "m8n32k16"}
	notModelled := map[string]bool{"32x8x16_cr": true, "8x32x16_cr": true}
	seen := 0
	for dims, shape := range shapes {
		for _, typ := range []string{"s8", "u8"} {
			for _, lay := range []string{"rr", "rc", "cr", "cc"} {
				key := "k" + dims + "_" + typ + "_" + lay
				b, ok := sass[key]
				if !ok {
					t.Errorf("%s: not in wshape.sass.gz", key)
					continue
				}
				seen++
				if b.imma != 8 {
					t.Errorf("%s: %d IMMA in the loop's body, want 8 (four steps of two)", key, b.imma)
					continue
				}
				elem := tensor.S8
				if typ == "u8" {
					elem = tensor.U8
				}
				var bytes, rounds int
				var acc [2]WmmaAccess
				for i, use := range []byte{'a', 'b'} {
					f, err := tensor.WMMAFrag(use, shape, elem)
					if err != nil {
						t.Fatalf("%s: %v", key, err)
					}
					to := TensorOperands{Frag: f, Use: use, Trans: lay[i] == 'c', DstSpace: ptx.SpaceGlobal}
					a := WmmaAccesses(&to, true)
					acc[i] = a
					if a.Interleaved {
						bytes += a.Insts
					}
					rounds = max(rounds, a.Rounds)
				}
				if bytes != b.bytes/4 {
					t.Errorf("%s: %d byte loads a step, ptxas %d (%d a body of four)", key, bytes, b.bytes/4, b.bytes)
				}
				want := int(math.Floor(float64(b.rounds)/4 + 0.5))
				if notModelled[dims+"_"+lay] {
					want--
				}
				if rounds != want {
					t.Errorf("%s: a step's MMA waits %d round trips, ptxas's body %d rounds for 4 steps (%d a step)", key, rounds, b.rounds, want)
				}
				for i, a := range acc {
					if a.Interleaved && a.Insts == 4 && (a.Groups != 1 || b.firstRun < 4) {
						t.Errorf("%s: operand %c of four byte loads: %d groups, ptxas sends %d byte loads before the first pack", key, "ab"[i], a.Groups, b.firstRun)
					}
				}
			}
		}
	}
	if seen != 24 {
		t.Errorf("%d kernels checked, want 24", seen)
	}
}
