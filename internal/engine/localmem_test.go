package engine

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestLocalBackingMatchesFlatWindow drives one lane's local memory
// (localBytes, localTail, ensureLocal) through random reads, writes and
// frames, and checks every answer against a flat model of the window: the
// bytes a lane reads are the last ones written there (zeros otherwise),
// and localTail is nil exactly where the lane's reach, which grows as it
// did when every lane backed it whole, does not cover the address. It
// fails when backing only the bytes used changes what a program reads.
func TestLocalBackingMatchesFlatWindow(t *testing.T) {
	for _, c := range []struct {
		name     string
		stackMax int
		gap      int // the launch's gap above its stack (localGap)
		seed     int64
	}{{"default stack", DefaultStackBytes, localGapBase, 1}, {"64 KiB stack", 64 << 10, localGapBase + gapVprintf, 2},
		{"small stack", 96, localGapBase, 3}, {"under memcheck", DefaultStackBytes, memcheckGap, 4}} {
		t.Run(c.name, func(t *testing.T) {
			top := localWindowTop - c.gap // the launch's stack top
			wp := &warp{w: &worker{l: &launch{stackMax: c.stackMax, stackTop: top}}}
			flat := make([]byte, localWindowTop)
			reach := 0 // how far below the top the old scheme backed
			grow := func(low int) {
				if low < localWindowTop-reach {
					reach = min(max(localWindowTop-low, 2*reach, c.gap+256), localWindowTop)
				}
			}
			low := top - c.stackMax
			rng := rand.New(rand.NewSource(c.seed))
			addr := func() int {
				switch rng.Intn(4) {
				case 0: // above the stack
					return top + rng.Intn(c.gap-8)
				case 1: // near the top of the stack
					return top - 1 - rng.Intn(min(64, c.stackMax))
				}
				return low + rng.Intn(localWindowTop-low-8)
			}
			for i := 0; i < 20000; i++ {
				a := addr()
				switch rng.Intn(4) {
				case 0: // a frame at a
					a = max(a&^15, low)
					if a > top {
						a = top - 16
					}
					grow(a)
					wp.ensureLocal(uint32(a), 1)
				case 1: // a store
					n := 1 << rng.Intn(4)
					a &^= n - 1
					grow(a)
					b := wp.localBytes(0, uint64(a), uint64(n))
					if len(b) != n {
						t.Fatalf("op %d: localBytes(%#x, %d) has %d bytes", i, a, n, len(b))
					}
					for j := range b {
						b[j] = byte(rng.Intn(256))
						flat[a+j] = b[j]
					}
				case 2: // a load
					n := 1 << rng.Intn(4)
					a &^= n - 1
					grow(a)
					if b := wp.localBytes(0, uint64(a), uint64(n)); !bytes.Equal(b, flat[a:a+n]) {
						t.Fatalf("op %d: localBytes(%#x, %d) = %x, want %x", i, a, n, b, flat[a:a+n])
					}
				case 3: // a string or an argument read by printf
					b := wp.localTail(0, uint64(a))
					if a < localWindowTop-reach {
						if b != nil {
							t.Fatalf("op %d: localTail(%#x) = %d bytes, want none (reach %#x)", i, a, len(b), reach)
						}
						continue
					}
					if !bytes.Equal(b, flat[a:]) {
						t.Fatalf("op %d: localTail(%#x) differs from the window's bytes", i, a)
					}
				}
			}
			if got := len(wp.local[0]); got > reach {
				t.Errorf("backs %d bytes, more than the reach %d", got, reach)
			}
		})
	}
}

// TestLocalBackingSmallFrames checks that a kernel whose threads call a
// function (its arguments and results pass through local memory) backs
// only the bytes near its frames, where every lane backed the 1 KiB above
// the stack and at least 256 bytes below it before (1,280 bytes a lane).
func TestLocalBackingSmallFrames(t *testing.T) {
	for _, c := range []struct {
		name, src, kernel string
		most              int // bytes a lane may back
	}{
		{"recursion ten deep", recursionPTX, "facts", 768},
		{"indirect calls", indirectPTX, "indirect", 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := testModule(t, c.src)
			out := m.buffer(t, 64*8)
			// (a driver that holds its blocks as the timing driver does,
			// whose slots the module keeps)
			cfg := &Config{Kernel: m.Prog.FuncByName[c.kernel], Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{64, 1, 1},
				Params: u64p(out), SMs: 132, MaxWarpsPerSM: 64, Driver: residentDriver{resident: 1}}
			if _, err := m.Launch(cfg); err != nil {
				t.Fatal(err)
			}
			lanes, most := 0, 0
			for _, w := range m.slots {
				for _, wp := range w.pool {
					for _, b := range wp.local {
						if len(b) > 0 {
							lanes++
							most = max(most, len(b))
						}
					}
				}
			}
			if lanes == 0 {
				t.Fatal("no lane backed local memory: the kernel does not exercise it")
			}
			if most > c.most {
				t.Errorf("a lane backs %d bytes of local memory, want at most %d", most, c.most)
			}
			t.Logf("%d lanes, at most %d bytes each", lanes, most)
		})
	}
}

// TestLocalBackingAcrossStackTops checks a lane whose buffer outlives a
// launch (a pooled slot) when the next launch's stack top lies higher (a
// kernel without printf after one with it: localGap): the bytes just below
// the new top are there, and what the lane wrote before keeps its address.
func TestLocalBackingAcrossStackTops(t *testing.T) {
	first := &launch{stackMax: DefaultStackBytes, stackTop: localWindowTop - memcheckGap}
	wp := &warp{w: &worker{l: first}}
	a := uint64(first.stackTop - 64)
	copy(wp.localBytes(0, a, 8), "8 bytes!")
	next := &launch{stackMax: DefaultStackBytes, stackTop: localWindowTop - localGapBase}
	wp.w.l = next
	for _, addr := range []uint64{uint64(next.stackTop - 4), uint64(first.stackTop), uint64(next.stackTop - 8)} {
		if b := wp.localBytes(0, addr, 4); len(b) != 4 {
			t.Errorf("localBytes(%#x, 4) under the higher stack top has %d bytes", addr, len(b))
		}
	}
	if got := string(wp.localBytes(0, a, 8)); got != "8 bytes!" {
		t.Errorf("the first launch's bytes at %#x read %q after the stack top moved", a, got)
	}
}
