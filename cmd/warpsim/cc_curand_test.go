package main

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Random123's known-answer vectors for philox4x32_10 (kat_vectors): counter,
// key, output.
var philoxKAT = []struct {
	ctr [4]uint32
	key [2]uint32
	out [4]uint32
}{
	{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
	{[4]uint32{^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0)}, [2]uint32{^uint32(0), ^uint32(0)},
		[4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
	{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0},
		[4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
}

// refPhilox is Philox4x32-10 as Salmon et al. describe it: ten rounds of
// two 32x32->64 products, the key bumped by the Weyl constants.
func refPhilox(c [4]uint32, k [2]uint32) [4]uint32 {
	for r := 0; r < 10; r++ {
		p0 := uint64(0xD2511F53) * uint64(c[0])
		p1 := uint64(0xCD9E8D57) * uint64(c[2])
		c = [4]uint32{uint32(p1>>32) ^ c[1] ^ k[0], uint32(p1), uint32(p0>>32) ^ c[3] ^ k[1], uint32(p0)}
		k[0] += 0x9E3779B9
		k[1] += 0xBB67AE85
	}
	return c
}

// philoxStream models curandStatePhilox4_32_10_t as a stream: output pos of
// subsequence seq is word pos%4 of the block at counter seq*2^64 + pos/4
// (mod 2^128), the key being the seed's halves.
type philoxStream struct {
	key      [2]uint32
	seq, pos *big.Int
}

func newPhiloxStream(seed, seq, offset uint64) *philoxStream {
	return &philoxStream{[2]uint32{uint32(seed), uint32(seed >> 32)}, new(big.Int).SetUint64(seq), new(big.Int).SetUint64(offset)}
}

func (s *philoxStream) next() uint32 {
	ctr := new(big.Int).Lsh(s.seq, 64)
	ctr.Add(ctr, new(big.Int).Rsh(s.pos, 2))
	var c [4]uint32
	for i := range c {
		c[i] = uint32(new(big.Int).Rsh(ctr, uint(32*i)).Uint64())
	}
	w := refPhilox(c, s.key)[s.pos.Uint64()&3]
	s.pos.Add(s.pos, big.NewInt(1))
	return w
}

func (s *philoxStream) skip(n uint64) { s.pos.Add(s.pos, new(big.Int).SetUint64(n)) }

// xwState is XORWOW's xorshift part, v[0..4] (Marsaglia's x, y, z, w, v).
type xwState [5]uint32

func xwStep(v xwState) xwState {
	t := v[0] ^ (v[0] >> 2)
	return xwState{v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))}
}

// xwMatrix is a 160x160 GF(2) matrix as its columns: column j is the image
// of the state with only bit j set (bit j%32 of word j/32).
type xwMatrix [160]xwState

func (m *xwMatrix) apply(v xwState) xwState {
	var r xwState
	for j := 0; j < 160; j++ {
		if v[j/32]>>(j%32)&1 != 0 {
			for i := range r {
				r[i] ^= m[j][i]
			}
		}
	}
	return r
}

// xwPowers returns A^(2^k) for k = 0..130, A being the xorshift step.
func xwPowers() []*xwMatrix {
	pow := make([]*xwMatrix, 131)
	pow[0] = new(xwMatrix)
	for j := 0; j < 160; j++ {
		var e xwState
		e[j/32] = 1 << (j % 32)
		pow[0][j] = xwStep(e)
	}
	for k := 1; k < len(pow); k++ {
		pow[k] = new(xwMatrix)
		for j := 0; j < 160; j++ {
			pow[k][j] = pow[k-1].apply(pow[k-1][j])
		}
	}
	return pow
}

// xorwowModel is curandStateXORWOW_t: Marsaglia's xorwow (the xorshift
// words plus a Weyl sequence d stepped by 362437), with cuRAND's seed
// scrambling, jumps by matrix powers.
type xorwowModel struct {
	v   xwState
	d   uint32
	pow []*xwMatrix
}

func (x *xorwowModel) jump(n uint64, from int) {
	for k := 0; n != 0; k, n = k+1, n>>1 {
		if n&1 != 0 {
			x.v = x.pow[from+k].apply(x.v)
		}
	}
}

func (x *xorwowModel) skip(n uint64)    { x.jump(n, 0); x.d += 362437 * uint32(n) }
func (x *xorwowModel) skipSeq(n uint64) { x.jump(n, 67) }

func (x *xorwowModel) init(seed, seq, offset uint64) {
	t0 := 1099087573 * (uint32(seed) ^ 0xaad26b49)
	t1 := 2591861531 * (uint32(seed>>32) ^ 0xf7dcefdd)
	x.d = 6615241 + t1 + t0
	x.v = xwState{123456789 + t0, 362436069 ^ t0, 521288629 + t1, 88675123 ^ t1, 5783321 + t0}
	x.skipSeq(seq)
	x.skip(offset)
}

func (x *xorwowModel) next() uint32 {
	x.v = xwStep(x.v)
	x.d += 362437
	return x.v[4] + x.d
}

func uniformBits(x uint32) uint32 { return math.Float32bits(float32(x)*0x1p-32 + 0x1p-33) }

func uniformDoubleWords(x, y uint32) []uint32 {
	z := uint64(x) ^ uint64(y)<<21
	b := math.Float64bits(float64(z)*0x1p-53 + 0x1p-54)
	return []uint32{uint32(b >> 32), uint32(b)}
}

// TestCCCurandAPI runs testdata/curand/curand_api.cu (curand_kernel.h's
// integer streams and uniform conversions) and checks every word against
// the models above: Philox4x32-10 checked first against Random123's
// known-answer vectors, XORWOW's matrix jumps against plain stepping.
// (The Box-Muller normals are the H100 recording's:
// TestCCPrograms4MatchH100/curand_states.)
func TestCCCurandAPI(t *testing.T) {
	needClang(t)
	for i, k := range philoxKAT {
		if got := refPhilox(k.ctr, k.key); got != k.out {
			t.Fatalf("model: known answer %d: %08x, want %08x", i, got, k.out)
		}
	}
	pow := xwPowers()
	v := xwState{1, 2, 3, 4, 5}
	w := v
	for i := 0; i < 1<<10+37; i++ {
		w = xwStep(w)
	}
	m := xorwowModel{v: v, pow: pow}
	m.jump(1<<10+37, 0)
	if m.v != w {
		t.Fatalf("model: matrix jump %x, stepping %x", m.v, w)
	}

	var want []uint32
	var what []string
	add := func(label string, ws ...uint32) {
		for _, x := range ws {
			want = append(want, x)
			what = append(what, label)
		}
	}
	for i, k := range philoxKAT {
		add(fmt.Sprintf("known answer %d", i), k.out[:]...)
	}
	p := newPhiloxStream(0x0123456789abcdef, 0xfedcba9876543210, 5)
	for i := 0; i < 17; i++ { // curand4, 3 x curand, curand4, 2 x curand, curand4 (STATE 1, 0, 2)
		add("philox outputs 5..21", p.next())
	}
	p.skip(1000003)
	add("philox skipahead", p.next())
	p.seq.Add(p.seq, big.NewInt(3))
	add("philox skipahead_sequence", p.next())
	add("philox curand_uniform", uniformBits(p.next()), uniformBits(p.next()))
	a, b := p.next(), p.next()
	add("philox curand_uniform_double", uniformDoubleWords(a, b)...)
	for i := 0; i < 4; i++ {
		add("philox curand_uniform4", uniformBits(p.next()))
	}
	for i := 0; i < 2; i++ {
		a, b := p.next(), p.next()
		add("philox curand_uniform2_double", uniformDoubleWords(a, b)...)
	}
	p = newPhiloxStream(0x0123456789abcdef, 7, 0)
	for i := 0; i < 4; i++ {
		p.skip(0xfffffffffffffffc)
	}
	p.skip(12)
	for i := 0; i < 8; i++ {
		add("philox counter carry", p.next())
	}
	add("philox all ones through curand_init and skipahead", philoxKAT[1].out[:]...)

	x := xorwowModel{pow: pow}
	x.init(0x0123456789abcdef, 0, 0)
	for i := 0; i < 8; i++ {
		add("xorwow raw", x.next())
	}
	x.init(42, 1, 0)
	add("xorwow subsequence 1", x.next(), x.next())
	x.init(42, 5, 7)
	add("xorwow subsequence 5 offset 7", x.next())
	x.init(42, 0x10000000003, 1000000000000)
	add("xorwow subsequence 2^40+3 offset 10^12", x.next(), x.next())
	x.skip(123456789)
	add("xorwow skipahead", x.next())
	x.skipSeq(2)
	add("xorwow skipahead_sequence", x.next())
	add("xorwow curand_uniform", uniformBits(x.next()))
	a, b = x.next(), x.next()
	add("xorwow curand_uniform_double", uniformDoubleWords(a, b)...)
	x.init(^uint64(0), ^uint64(0), ^uint64(0))
	add("xorwow all ones", x.next())
	add("", 0) // the "scattered" line
	for id := uint64(0); id < 256; id++ {
		h := (id + 1) * 0x9E3779B97F4A7C15
		x.init(2024+id, h, h>>20)
		add(fmt.Sprintf("scattered thread %d", id), x.next(), x.next())
	}

	prog := buildCU(t, "../../testdata/curand/curand_api.cu", "-O3", "-arch=sm_90", "-std=c++17")
	out, stderr := runProgram(t, prog)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want)+1 || lines[len(lines)-1] != "no error" {
		t.Fatalf("%d lines (want %d, the last \"no error\"):\n%s\n%s", len(lines), len(want)+1, out, stderr)
	}
	bad := 0
	for i, l := range lines[:len(want)] {
		if what[i] == "" {
			if l != "scattered" {
				t.Fatalf("line %d: %q, want \"scattered\"", i+1, l)
			}
			continue
		}
		got, err := strconv.ParseUint(l, 16, 32)
		if err != nil || uint32(got) != want[i] {
			if bad++; bad <= 10 {
				t.Errorf("line %d (%s): %s, want %08x", i+1, what[i], l, want[i])
			}
		}
	}
}

// TestCCCurandNotOffered: the device states and distributions warpsim's
// curand_kernel.h does not offer are compile errors naming them, and the
// host library stays refused.
func TestCCCurandNotOffered(t *testing.T) {
	needClang(t)
	for _, c := range []struct{ name, src, want string }{
		{"mrg32k3a", "#include <curand_kernel.h>\n__global__ void k(curandStateMRG32k3a_t *s) {}\nint main() { return 0; }\n",
			"cuRAND's MRG32k3a state is not offered"},
		{"sobol", "#include <curand_kernel.h>\n__global__ void k(curandStateSobol32_t *s) {}\nint main() { return 0; }\n",
			"cuRAND's Sobol32 state is not offered"},
		{"poisson", "#include <curand_kernel.h>\n__global__ void k(unsigned *o) { curandState s; curand_init(1, 0, 0, &s); *o = curand_poisson(&s, 4.0); }\nint main() { return 0; }\n",
			"cuRAND's Poisson distribution (curand_poisson) is not offered"},
		{"host", "#include <curand.h>\nint main() { return 0; }\n", "NVIDIA's closed libraries"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, c.name+".cu")
			if err := os.WriteFile(src, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stderr := ccOutcome(t, src, "-O3", "-arch=sm_90")
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, want an error naming %q:\n%s", code, c.want, stderr)
			}
		})
	}
}

// TestCCCurandSampleShape builds a program shaped as cuda-samples'
// MC_EstimatePiInlineP: XORWOW states initialised by one kernel (one
// subsequence a thread), used by another for a Monte Carlo estimate of pi,
// and a host .cpp file that includes <memory> after cuda_runtime.h
// (libstdc++'s __attribute__((__noinline__)) must not meet a macro: CUDA
// defines __noinline__ for CUDA compilers only). The hit count is checked
// against the XORWOW model of TestCCCurandAPI.
func TestCCCurandSampleShape(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	files := map[string]string{
		"pi.cu": `#include <curand_kernel.h>
__global__ void initRNG(curandState *s, unsigned seed) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, tid, 0, &s[tid]);
}
__global__ void count(unsigned *hits, curandState *s, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st = s[tid];
  unsigned in = 0;
  for (int i = 0; i < n; i++) {
    float x = curand_uniform(&st), y = curand_uniform(&st);
    in += x * x + y * y <= 1.0f;
  }
  s[tid] = st;
  hits[tid] = in;
}
unsigned estimate(int blocks, int threads, int n) {
  curandState *s;
  unsigned *d, h[1024], sum = 0;
  cudaMalloc(&s, blocks * threads * sizeof(curandState));
  cudaMalloc(&d, blocks * threads * sizeof(unsigned));
  initRNG<<<blocks, threads>>>(s, 1234);
  count<<<blocks, threads>>>(d, s, n);
  cudaMemcpy(h, d, blocks * threads * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * threads; i++) sum += h[i];
  return sum;
}
`,
		"main.cpp": `#include <cuda_runtime.h>
#include <memory>
#include <cstdio>
unsigned estimate(int blocks, int threads, int n);
int main() {
  std::unique_ptr<int> p(new int(4));
  printf("%u\n", estimate(*p, 64, 50));
  return 0;
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Built once, kept between runs under a key over both sources' content.
	prog := buildCU(t, filepath.Join(dir, "pi.cu"), "-O3", "-arch=sm_90", filepath.Join(dir, "main.cpp"))
	out, errs := runProgram(t, prog)
	x := xorwowModel{pow: xwPowers()}
	var want uint32
	for tid := uint64(0); tid < 256; tid++ {
		x.init(1234, tid, 0)
		for i := 0; i < 50; i++ {
			u, v := math.Float32frombits(uniformBits(x.next())), math.Float32frombits(uniformBits(x.next()))
			if float32(u*u)+float32(v*v) <= 1 {
				want++
			}
		}
	}
	if out != fmt.Sprintf("%d\n", want) {
		t.Errorf("got %q, want %d hits\n%s", out, want, errs)
	}
}
