package engine

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// texKernelPTX fetches one float per thread from a 2D texture at texel
// centres (point or linear filtering, as the descriptor says).
const texKernelPTX = `
.visible .entry fetch(.param .u64 tex, .param .u64 out, .param .u32 n)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [tex];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r5, [n];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	rem.u32 %r6, %r4, %r5;
	div.u32 %r7, %r4, %r5;
	cvt.rn.f32.u32 %f1, %r6;
	cvt.rn.f32.u32 %f2, %r7;
	add.f32 %f1, %f1, 0f3F200000;
	add.f32 %f2, %f2, 0f3F000000;
	tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.f32 [%rd4], %f3;
	ret;
}
`

// newTexture writes an n×n float texture and its descriptor into m and
// returns the handle.
func newTexture(t testing.TB, m *Module, n int, linear bool) uint64 {
	data, err := m.Mem.Alloc(uint64(4 * n * n))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.Mem.Bytes(data, uint64(4*n*n))
	for i := 0; i < n*n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i%97)*0.25))
	}
	h, _ := m.Mem.Alloc(texDescBytes)
	d, _ := m.Mem.Bytes(h, texDescBytes)
	put := func(off int, v uint32) { binary.LittleEndian.PutUint32(d[off:], v) }
	put(0, texMagic)
	binary.LittleEndian.PutUint64(d[8:], data)
	binary.LittleEndian.PutUint64(d[16:], uint64(4*n))
	binary.LittleEndian.PutUint64(d[24:], uint64(4*n*n))
	put(32, uint32(n))
	put(36, uint32(n))
	put(52, 1)         // channels
	put(56, 32)        // bits
	put(60, chanFloat) // kind
	put(64, 4)         // element bytes
	put(68, addrClamp) // address modes
	put(72, addrClamp)
	if linear {
		put(80, 1)
	}
	return h
}

// BenchmarkTexFetch: point and linear filtering at x+0.625 (two texels
// weighed), and linear filtering at texel centres ("linear-centre": one
// texel of weight 256, as NVIDIA's convolutionTexture fetches).
func BenchmarkTexFetch(b *testing.B) {
	for _, c := range []struct {
		name   string
		linear bool
		ptx    string
	}{
		{"point", false, texKernelPTX},
		{"linear", true, texKernelPTX},
		{"linear-centre", true, strings.Replace(texKernelPTX, "0f3F200000", "0f3F000000", 1)},
	} {
		linear := c.linear
		b.Run(c.name, func(b *testing.B) {
			const n = 256
			benchKernel(b, c.ptx, "fetch", n*n/256, 256, 1, func(m *Module) []byte {
				h := newTexture(b, m, n, linear)
				out, _ := m.Mem.Alloc(4 * n * n)
				p := u64p(h, out)
				return binary.LittleEndian.AppendUint32(p, n)
			})
		})
	}
}

// TestTexWeights checks the filter weights' invariants: they sum to 256
// and each axis keeps its own weight.
func TestTexWeights(t *testing.T) {
	for a := 0; a <= 256; a += 3 {
		for bb := 0; bb <= 256; bb += 5 {
			var w [8]int
			texWeights(2, a, bb, 0, &w)
			if w[0]+w[1]+w[2]+w[3] != 256 || w[1]+w[3] != a || w[2]+w[3] != bb {
				t.Fatalf("2D weights of (%d, %d): %v", a, bb, w[:4])
			}
			for c := 0; c <= 256; c += 7 {
				texWeights(3, a, bb, c, &w)
				sum, x, z := 0, 0, 0
				for i, v := range w {
					sum += v
					if i&1 != 0 {
						x += v
					}
					if i&4 != 0 {
						z += v
					}
				}
				if sum != 256 || x != a || z != c {
					t.Fatalf("3D weights of (%d, %d, %d): %v", a, bb, c, w)
				}
			}
		}
	}
}

// TestRoundTiesAway compares roundTiesAway with exact halfway cases and
// with float32 conversion elsewhere.
func TestRoundTiesAway(t *testing.T) {
	one := float64(math.Nextafter32(1, 2)) - 1 // float32 ulp at 1
	cases := []struct {
		hi, lo float64
		want   float32
	}{
		{1 + one/2, 0, math.Nextafter32(1, 2)}, // tie: away from zero
		{-(1 + one/2), 0, -math.Nextafter32(1, 2)},
		{1 + 3*one/2, 0, 1 + 2*float32(one)}, // tie, even above too
		{1 + one/2, -1e-30, 1},               // just below the tie
		{0.1, 0, float32(0.1)},
		{math.Inf(1), 0, float32(math.Inf(1))},
	}
	for _, c := range cases {
		if got := roundTiesAway(c.hi, c.lo); got != c.want {
			t.Errorf("roundTiesAway(%v, %v) = %v, want %v", c.hi, c.lo, got, c.want)
		}
	}
}

// TestRoundTiesAwayFastPath checks roundTiesAway's shortcut (lo zero, no
// tie: Go's conversion) against roundTiesAwayExact, which computes both
// neighbours and the midpoints, on the values a filter can produce: sums of
// up to eight 9-bit weights times float32 values, over 256, exact ties
// between adjacent float32 values, and the edges of the normal range
// (subnormals, the largest floats, zeros of either sign). A shortcut taken
// at a tie, or past the range where the conversion rounds as the filter
// does, differs here.
func TestRoundTiesAwayFastPath(t *testing.T) {
	var vals []float64
	add32 := func(f float32) {
		vals = append(vals, float64(f), -float64(f))
		up, down := math.Nextafter32(f, float32(math.Inf(1))), math.Nextafter32(f, 0)
		// The midpoints, and the values just either side of them.
		for _, m := range []float64{(float64(f) + float64(up)) / 2, (float64(f) + float64(down)) / 2} {
			vals = append(vals, m, -m, math.Nextafter(m, 0), math.Nextafter(m, math.Inf(1)))
		}
	}
	for _, f := range []float32{0, 1, 0.1, 3, 1e-38, math.SmallestNonzeroFloat32, 1.1754942e-38, 1.1754944e-38,
		math.MaxFloat32, math.Nextafter32(math.MaxFloat32, 0), 1.7014118e38, 1.7014119e38, 8.507059e37} {
		add32(f)
	}
	vals = append(vals, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN())
	// Filter sums: weights of 1/256 times random float32s, as sample
	// forms them.
	seed := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	for range 20000 {
		var hi, lo float64
		for c := range 1 + next()%4 {
			f := math.Float32frombits(uint32(next()))
			if f != f || math.IsInf(float64(f), 0) {
				continue
			}
			p := float64(next()%257) * float64(f)
			if c == 0 {
				hi = p
				continue
			}
			var e float64
			hi, e = twoSum(hi, p)
			lo += e
		}
		if lo != 0 {
			hi, lo = twoSum(hi, lo)
		}
		vals = append(vals, hi/texWeightOne)
		add32(float32(hi / texWeightOne))
	}
	shortcuts := 0
	for _, v := range vals {
		got, want := roundTiesAway(v, 0), roundTiesAwayExact(v, 0)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("roundTiesAway(%v, 0) = %v (%#x), the exact rounding gives %v (%#x)", v, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		if b := math.Float64bits(v); b&(1<<29-1) != 1<<28 {
			shortcuts++
		}
	}
	if shortcuts < len(vals)/2 {
		t.Fatalf("only %d of %d values would take the shortcut", shortcuts, len(vals))
	}
}

// TestTexBadHandles: a handle that names no texture object, or one whose
// descriptor the program overwrote, faults with a message instead of
// crashing the engine.
func TestTexBadHandles(t *testing.T) {
	cases := []struct {
		name  string
		setup func(m *Module) uint64
		want  string
	}{
		{"not an object", func(m *Module) uint64 { a, _ := m.Mem.Alloc(256); return a }, "is not a live texture object"},
		{"unmapped", func(m *Module) uint64 { return 0x1234 }, "is not a live texture object"},
		{"corrupt", func(m *Module) uint64 {
			h := newTexture(t, m, 4, false)
			d, _ := m.Mem.Bytes(h, texDescBytes)
			binary.LittleEndian.PutUint32(d[56:], 0) // bits per channel
			return h
		}, "corrupt descriptor"},
		{"zero width", func(m *Module) uint64 {
			h := newTexture(t, m, 4, true)
			d, _ := m.Mem.Bytes(h, texDescBytes)
			binary.LittleEndian.PutUint32(d[32:], 0)
			return h
		}, "corrupt descriptor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := testModule(t, texKernelPTX)
			h := c.setup(m)
			out, _ := m.Mem.Alloc(4 * 64)
			p := binary.LittleEndian.AppendUint32(u64p(h, out), 8)
			_, _, err := m.launchTest(t, run{kernel: "fetch", grid: [3]uint32{1}, block: [3]uint32{64}, params: p})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
			// The fault names the whole instruction, its coordinates
			// included (issue 16 #24: the listing dropped them).
			var f *Fault
			if !errors.As(err, &f) || f.Text != "tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];" {
				t.Errorf("fault instruction %q, want the source's tex line", f.Text)
			}
		})
	}
}
