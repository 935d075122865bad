package warpsim_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestClusterNvccPTX runs nvcc's own PTX of testdata/clusters/
// cluster_dsmem.cu (recorded on the H100 by testdata/clusters/record.sh):
// its histogram as cluster launches of 1, 2, 4 and 8 blocks
// (LaunchConfig.Cluster), its reduction and its PTX-forms kernel through
// their .reqnctapercluster (__cluster_dims__), on the program's inputs.
// What they compute must be what the H100 printed, in both modes, for one
// worker and four.
func TestClusterNvccPTX(t *testing.T) {
	src, err := os.ReadFile("testdata/clusters/cluster_dsmem.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile("testdata/clusters/cluster_dsmem.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := string(rec)
	// The program's inputs (cluster_dsmem.cu's main).
	const n, nbins = 50000, 256
	in := make([]byte, 4*n)
	x := uint32(12345)
	for i := range n {
		x = x*1664525 + 1013904223
		binary.LittleEndian.PutUint32(in[4*i:], (x>>8)^(x>>20))
	}
	const m = 32 * 256
	fin := make([]byte, 4*m)
	for i := range m {
		x = x*1664525 + 1013904223
		scale := float32(1)
		if x&1 != 0 {
			scale = 1e-3
		}
		binary.LittleEndian.PutUint32(fin[4*i:], math.Float32bits(float32(int32(x>>9))/3.0*scale))
	}
	for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
		for _, workers := range []int{1, 4} {
			t.Run(string(mode)+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Workers: workers, Mode: mode})
				mod, err := dev.LoadModule("cluster_dsmem.nvcc.ptx", src)
				if err != nil {
					t.Fatal(err)
				}
				alloc := func(size uint64) uint64 {
					p, err := dev.Malloc(size)
					if err != nil {
						t.Fatal(err)
					}
					return p
				}
				read := func(p uint64, size int) []byte {
					b := make([]byte, size)
					if err := dev.Read(p, b); err != nil {
						t.Fatal(err)
					}
					return b
				}
				var got strings.Builder
				din, dhist := alloc(4*n), alloc(4*nbins)
				if err := dev.Write(din, in); err != nil {
					t.Fatal(err)
				}
				hist, err := mod.Kernel("_Z9histogramPKjiPj")
				if err != nil {
					t.Fatal(err)
				}
				for cs := uint32(1); cs <= 8; cs *= 2 {
					if err := dev.Write(dhist, make([]byte, 4*nbins)); err != nil {
						t.Fatal(err)
					}
					params := make([]byte, 24)
					binary.LittleEndian.PutUint64(params, din)
					binary.LittleEndian.PutUint32(params[8:], n)
					binary.LittleEndian.PutUint64(params[16:], dhist)
					cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 16, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 128, Y: 1, Z: 1},
						SharedBytes: nbins / cs * 4, Cluster: warpsim.Dim3{X: cs, Y: 1, Z: 1}}
					if _, err := dev.Launch(hist, cfg, params); err != nil {
						t.Fatal(err)
					}
					h := read(dhist, 4*nbins)
					var total, sum uint32
					for i := range nbins {
						v := binary.LittleEndian.Uint32(h[4*i:])
						total += v
						sum = sum*31 + v
					}
					fmt.Fprintf(&got, "histogram cluster %d: total %d hash %08x\n", cs, total, sum)
				}
				dfi, dfo := alloc(4*m), alloc(32)
				if err := dev.Write(dfi, fin); err != nil {
					t.Fatal(err)
				}
				red, err := mod.Kernel("_Z6reducePKfPf")
				if err != nil {
					t.Fatal(err)
				}
				params := make([]byte, 16)
				binary.LittleEndian.PutUint64(params, dfi)
				binary.LittleEndian.PutUint64(params[8:], dfo)
				if _, err := dev.Launch(red, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 32, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 256, Y: 1, Z: 1}}, params); err != nil {
					t.Fatal(err)
				}
				o := read(dfo, 32)
				for i := range 8 {
					fmt.Fprintf(&got, "reduce cluster %d: %s\n", i, hexFloat(math.Float32frombits(binary.LittleEndian.Uint32(o[4*i:]))))
				}
				pf, err := mod.Kernel("_Z8ptxformsPjS_")
				if err != nil {
					t.Fatal(err)
				}
				dout, dcount := alloc(4*64*8*4), alloc(4)
				binary.LittleEndian.PutUint64(params, dout)
				binary.LittleEndian.PutUint64(params[8:], dcount)
				if _, err := dev.Launch(pf, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 4, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}, params); err != nil {
					t.Fatal(err)
				}
				out := read(dout, 4*64*8*4)
				for b := range 4 {
					for th := 0; th < 64; th += 9 {
						var v [8]uint32
						for j := range v {
							v[j] = binary.LittleEndian.Uint32(out[4*((b*64+th)*8+j):])
						}
						fmt.Fprintf(&got, "ptxforms block %d thread %2d: ld %d generic %d isspacep.cluster %d isspacep.cta %d st %d red %d atom %d oldsum %d\n",
							b, th, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
					}
				}
				fmt.Fprintf(&got, "global cluster-scoped atomics: %d\n", binary.LittleEndian.Uint32(read(dcount, 4)))
				// The recording prints the histogram of cluster size 4 too.
				var wantLines []string
				for _, l := range strings.Split(strings.TrimSuffix(want, "\n"), "\n") {
					if !strings.HasPrefix(l, " ") {
						wantLines = append(wantLines, l)
					}
				}
				if g, w := got.String(), strings.Join(wantLines, "\n")+"\n"; g != w {
					t.Errorf("differs from the H100's:\ngot:\n%s\nwant:\n%s", g, w)
				}
			})
		}
	}
}

// hexFloat formats f as C's printf("%a") does for a float promoted to
// double (normal numbers).
func hexFloat(f float32) string {
	d := float64(f)
	if d == 0 {
		return "0x0p+0"
	}
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	bits := math.Float64bits(d)
	exp := int(bits>>52&0x7ff) - 1023
	mant := strings.TrimRight(fmt.Sprintf("%013x", bits&(1<<52-1)), "0")
	if mant != "" {
		mant = "." + mant
	}
	return fmt.Sprintf("%s0x1%sp%+d", sign, mant, exp)
}
