package timing

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestGateWakesWaiters: threads waiting on a gate for a value return once
// it is reached and not before, whether they are still polling when it is
// reached, have polled for spinNS and gone to sleep, or sleep at once
// (spin off: more workers than cores).
func TestGateWakesWaiters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spin  bool
		delay time.Duration
	}{
		{"polling", true, 0},
		{"polled then slept", true, 4 * spinNS * time.Nanosecond},
		{"slept at once", false, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g gate
			var reached atomic.Bool
			var early atomic.Int32
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if v := g.waitFor(3, tc.spin); v < 3 || !reached.Load() {
						early.Add(1)
					}
				}()
			}
			time.Sleep(tc.delay)
			g.add(1)
			g.add(1)
			reached.Store(true)
			g.set(3)
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("a waiter did not return within 10 s of the gate reaching its value")
			}
			if n := early.Load(); n > 0 {
				t.Errorf("%d waiters returned before the gate reached their value", n)
			}
		})
	}
}

// TestPerSMStateOwnLines checks that the per-SM state the first wave makes
// for the SMs in turn (run, startBlock, useSM), one object after another in
// memory, and that each SM's thread then writes — its blocks, its L1's
// header (tick, the memo), its instruction fetch state and streams — lies
// on cache lines no other SM's does (cacheLinePad, streamPad). Without the
// pads, blockT's 168 bytes, cache's 224 and fetchT's 96 put two SMs' fields
// on one line and fail it.
func TestPerSMStateOwnLines(t *testing.T) {
	p := &Params{SubPartitions: 4, IcacheBytes: 128 * fetchLineBytes}
	type span struct{ at, n uintptr }
	for _, tc := range []struct {
		name string
		// make returns one SM's object (kept, so that it is on the heap)
		// and the bytes of it that are used.
		make func() (any, []span)
	}{
		{"blockT", func() (any, []span) {
			b := &blockT{}
			return b, []span{{uintptr(unsafe.Pointer(b)), unsafe.Offsetof(b.issue0) + 8}}
		}},
		{"L1 header", func() (any, []span) {
			c := newCache(256<<10, 4)
			return c, []span{{uintptr(unsafe.Pointer(c)), unsafe.Offsetof(c.overflow) + 1}}
		}},
		{"fetch state", func() (any, []span) {
			f := newFetch(10, p)
			return f, []span{{uintptr(unsafe.Pointer(f)), unsafe.Offsetof(f.started) + 1},
				{uintptr(unsafe.Pointer(unsafe.SliceData(f.streams))), uintptr(len(f.streams)) * unsafe.Sizeof(streamT{})}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			owner := map[uintptr]int{} // cache line -> SM
			var keep []any
			for sm := range 16 {
				obj, spans := tc.make()
				keep = append(keep, obj)
				for _, s := range spans {
					for line := s.at / 64; line <= (s.at+s.n-1)/64; line++ {
						if j, ok := owner[line]; ok && j != sm {
							t.Fatalf("SM %d's %s shares the line at %#x with SM %d's", sm, tc.name, line*64, j)
						}
						owner[line] = sm
					}
				}
			}
			runtime.KeepAlive(keep)
		})
	}
}
