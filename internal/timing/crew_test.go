package timing

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
