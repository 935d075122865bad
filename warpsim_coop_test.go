package warpsim_test

import (
	"encoding/binary"
	"errors"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestCooperativeNvccPTX runs nvcc's own PTX of testdata/coop/grid_sync.cu
// (recorded on the H100 by testdata/coop/record.sh) as cooperative launches:
// nvcc's grid.sync() spins on an atomic counter in the grid workspace that
// %envreg1/%envreg2 point to, so it needs the workspace and blocks that take
// turns. The sums must be what the H100 printed for the same kernels, for
// any worker count and in both modes.
func TestCooperativeNvccPTX(t *testing.T) {
	src, err := os.ReadFile("testdata/coop/grid_sync.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile("testdata/coop/grid_sync.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`phase sum (\d+) .* checksum (\d+), 0 mismatches`).FindSubmatch(rec)
	if m == nil {
		t.Fatal("grid_sync.h100.txt has no phase sum line")
	}
	wantSum, _ := strconv.ParseInt(string(m[1]), 10, 64)
	wantCheck, _ := strconv.ParseInt(string(m[2]), 10, 64)
	const n, blocks, threads, sweeps = 10007, 48, 128, 6
	for _, mode := range []warpsim.Mode{warpsim.ModeFunctional, warpsim.ModeTiming} {
		for _, workers := range []int{1, 4} {
			t.Run(string(mode)+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Workers: workers, Mode: mode})
				mod, err := dev.LoadModule("grid_sync.nvcc.ptx", src)
				if err != nil {
					t.Fatal(err)
				}
				k, err := mod.Kernel("_Z6phasesPiS_PxS0_ii")
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
				a, b, part, total := alloc(4*n), alloc(4*n), alloc(8*blocks), alloc(8)
				params := make([]byte, 40)
				for i, p := range []uint64{a, b, part, total} {
					binary.LittleEndian.PutUint64(params[8*i:], p)
				}
				binary.LittleEndian.PutUint32(params[32:], n)
				binary.LittleEndian.PutUint32(params[36:], sweeps)
				cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1},
					SharedBytes: threads * 8, Cooperative: true}
				if _, err := dev.Launch(k, cfg, params); err != nil {
					t.Fatal(err)
				}
				buf := make([]byte, 8)
				if err := dev.Read(total, buf); err != nil {
					t.Fatal(err)
				}
				if got := int64(binary.LittleEndian.Uint64(buf)); got != wantSum {
					t.Errorf("phase sum %d, the H100's %d", got, wantSum)
				}
				ga, gb := make([]byte, 4*n), make([]byte, 4*n)
				if err := dev.Read(a, ga); err != nil {
					t.Fatal(err)
				}
				if err := dev.Read(b, gb); err != nil {
					t.Fatal(err)
				}
				var check int64
				for i := 0; i < n; i++ {
					check += 3*int64(int32(binary.LittleEndian.Uint32(ga[4*i:]))) + int64(int32(binary.LittleEndian.Uint32(gb[4*i:])))
				}
				if check != wantCheck {
					t.Errorf("checksum after %d sweeps %d, the H100's %d", sweeps, check, wantCheck)
				}
			})
		}
	}
}

// TestCooperativeLimit: a cooperative grid larger than the occupancy
// calculator's blocks per SM times the SM count is refused before it runs,
// and without the flag the same grid runs.
func TestCooperativeLimit(t *testing.T) {
	src, err := os.ReadFile("testdata/coop/grid_sync.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}})
	mod, err := dev.LoadModule("grid_sync.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("_Z5validPi")
	if err != nil {
		t.Fatal(err)
	}
	out, err := dev.Malloc(4)
	if err != nil {
		t.Fatal(err)
	}
	params := binary.LittleEndian.AppendUint64(nil, out)
	block := warpsim.Dim3{X: 1024, Y: 1, Z: 1}
	per, most := dev.CooperativeLimit(k, block, 0)
	if per != 2 || most != 2*132 {
		t.Errorf("cooperative limit %d per SM, %d in all; want 2 and 264 (1024 threads, 2048 per SM, 132 SMs)", per, most)
	}
	for _, c := range []struct {
		grid uint32
		coop bool
		ok   bool
	}{{uint32(most), true, true}, {uint32(most) + 1, true, false}, {uint32(most) + 1, false, true}} {
		_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: c.grid, Y: 1, Z: 1}, Block: block, Cooperative: c.coop}, params)
		var ce *warpsim.ConfigError
		if c.ok && err != nil || !c.ok && !errors.As(err, &ce) {
			t.Errorf("grid %d cooperative %v: %v", c.grid, c.coop, err)
		}
	}
}
