package timing

import (
	"reflect"
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
// header (tick, the memo) and arrays, its instruction fetch state — lies on
// cache lines no other SM's does (cacheLinePad, streamPad, lineSlice).
// Without them, blockT's 168 bytes, cache's 224, fetchT's 96, a 200-line
// L1's valid bits and a 10-line kernel's fetch times (80 bytes) put two
// SMs' fields on one line and fail it.
func TestPerSMStateOwnLines(t *testing.T) {
	p := &Params{SubPartitions: 4, IcacheBytes: 128 * fetchLineBytes}
	type span struct{ at, n uintptr }
	bytesOf := func(x any) span { // a slice's used bytes
		v := reflect.ValueOf(x)
		return span{v.Pointer(), uintptr(v.Len()) * v.Type().Elem().Size()}
	}
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
		{"a small L1's arrays", func() (any, []span) {
			c := newCache(25<<10, 4) // 200 lines: 200 bytes of valid bits
			return c, []span{bytesOf(c.lines)}
		}},
		{"fetch state", func() (any, []span) {
			f := newFetch(10, p)
			return f, []span{{uintptr(unsafe.Pointer(f)), unsafe.Offsetof(f.started) + 1}, bytesOf(f.streams), bytesOf(f.at), bytesOf(f.fifo)}
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

// TestCursorTakesEachOnce: an owner taking a list's SMs from its head and
// other workers stealing from its tail, at once, take each exactly once,
// the owner in order from the first and the stealers from the last.
func TestCursorTakesEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 19, 1000} {
		var c cursor
		got := make([]atomic.Int32, n)
		var wg sync.WaitGroup
		bad := make(chan string, 8)
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				last := -1
				for {
					i, ok := c.take(n, w > 0)
					if !ok {
						return
					}
					if w == 0 && i <= last || w > 0 && last >= 0 && i >= last {
						bad <- "out of order"
						return
					}
					last = i
					got[i].Add(1)
				}
			}()
		}
		wg.Wait()
		close(bad)
		for b := range bad {
			t.Fatalf("list of %d: a worker took its SMs %s", n, b)
		}
		for i := range got {
			if v := got[i].Load(); v != 1 {
				t.Fatalf("list of %d: SM %d taken %d times", n, i, v)
			}
		}
		if _, ok := c.take(n, false); ok {
			t.Fatalf("list of %d: an SM taken after all were", n)
		}
	}
}

// TestCrewPollsOnlyWithRoom: the crew polls only where the machine's load
// (/proc/loadavg's one-minute average) leaves a core for each runnable
// thread, with one of slack; a text that does not parse leaves the rule
// to the cores and GOMAXPROCS.
func TestCrewPollsOnlyWithRoom(t *testing.T) {
	for _, c := range []struct {
		text string
		load float64
		ok   bool
	}{
		{"0.52 0.58 0.59 2/345 12345\n", 0.52, true},
		{"37.13 29.94 17.73 12/345 21222\n", 37.13, true},
		{"", 0, false},
		{"x 1 2", 0, false},
		{"-1 0 0", 0, false},
	} {
		if load, ok := parseLoadAvg(c.text); load != c.load || ok != c.ok {
			t.Errorf("parseLoadAvg(%q) = %v, %v; want %v, %v", c.text, load, ok, c.load, c.ok)
		}
	}
	for _, c := range []struct {
		load float64
		cpus int
		room bool
	}{
		{0.1, 2, true}, {2.0, 2, true}, {3.0, 2, true}, {3.01, 2, false}, {37.1, 2, false}, {8.5, 8, true}, {9.5, 8, false},
	} {
		if room := loadLeavesRoom(c.load, c.cpus); room != c.room {
			t.Errorf("loadLeavesRoom(%v, %d) = %v, want %v", c.load, c.cpus, room, c.room)
		}
	}
}
