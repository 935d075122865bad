package engine

import (
	"bytes"
	"encoding/binary"
	"strings"
	"sync"
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// testModule parses, lowers and loads PTX for a test.
func testModule(t testing.TB, src string) *Module {
	t.Helper()
	if !strings.Contains(src, ".version") {
		src = ".version 8.0\n.target sm_90\n.address_size 64\n" + src
	}
	pm, err := ptx.Parse("test.ptx", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	prog, err := ir.Lower(pm, nil)
	if err != nil {
		t.Fatalf("lower: %v", err)
	}
	m, err := Load(NewMemory(), prog, nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return m
}

// run is one launch of a test kernel.
type run struct {
	kernel  string
	grid    [3]uint32
	block   [3]uint32
	dyn     uint32
	params  []byte
	workers int
	steps   int64
	its     bool
	stack   int // per-thread stack bytes (0: the default)
}

func (m *Module) launchTest(t testing.TB, r run) (Counters, *bytes.Buffer, error) {
	t.Helper()
	k, ok := m.Prog.FuncByName[r.kernel]
	if !ok {
		t.Fatalf("no kernel %s", r.kernel)
	}
	for i := range r.grid {
		if r.grid[i] == 0 {
			r.grid[i] = 1
		}
		if r.block[i] == 0 {
			r.block[i] = 1
		}
	}
	var out bytes.Buffer
	cfg := &Config{Kernel: k, Grid: r.grid, Block: r.block, DynShared: r.dyn, Params: r.params,
		Stdout: &out, StdoutMu: new(sync.Mutex), Workers: r.workers, StepLimit: r.steps,
		SMs: 132, MaxWarpsPerSM: 64, ITS: r.its, StackBytes: r.stack}
	res, err := m.Launch(cfg)
	return res.Total(), &out, err
}

// buffer is a device allocation for a test.
func (m *Module) buffer(t testing.TB, n int) uint64 {
	t.Helper()
	a, err := m.Mem.Alloc(uint64(n))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (m *Module) u32s(t testing.TB, addr uint64, n int) []uint32 {
	t.Helper()
	b, err := m.Mem.Bytes(addr, uint64(4*n))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func (m *Module) setU32s(t testing.TB, addr uint64, vals []uint32) {
	t.Helper()
	b, err := m.Mem.Bytes(addr, uint64(4*len(vals)))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
}

func u64p(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}
