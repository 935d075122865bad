package timing

import "testing"

// TestFarLinkThroughput: the link between the L2's partitions passes a far
// store's sectors at the rate of its path to the home partition, a far
// miss's request waits behind the sectors that path holds, and the fills'
// path back to the SM's side is not slowed by the stores; without a path
// of their own the stores share the fills' path and requests do not wait.
func TestFarLinkThroughput(t *testing.T) {
	// 64 bytes a cycle each way: 1,000 sectors of 32 bytes take 500 cycles.
	p := &Params{ClockHz: 1e9, FarBytesPerNS: 64, FarHomeBytesPerNS: 64}
	p.FarBytesPerCycle, p.FarHomeBytesPerCycle = 64, 64
	l := newFar(p)
	var last uint64
	for range 1000 {
		last = l.store(0, 32)
	}
	if last != 500 {
		t.Errorf("1,000 far store sectors at 64 B/cycle through at %d, want 500", last)
	}
	if got := l.request(0); got < 496 || got > 512 {
		t.Errorf("a far miss's request sent at 0 behind 500 cycles of stores crossed at %d, want 496-512 (its 16-cycle bucket)", got)
	}
	if got := l.toSM.take(0, 64*16); got != 16 {
		t.Errorf("a fill of 1,024 bytes back to the SM's side beside the stores: through at %d, want 16", got)
	}
	l.reset()
	if got := l.request(100); got != 100 {
		t.Errorf("a request on an idle link: %d, want 100", got)
	}

	// No path of their own: the stores take the fills' path.
	p.FarHomeBytesPerNS, p.FarHomeBytesPerCycle = 0, 0
	l = newFar(p)
	for range 1000 {
		last = l.store(0, 32)
	}
	if got := l.request(0); got != 0 {
		t.Errorf("without the home path a request waits until %d, want 0", got)
	}
	if got := l.toSM.take(0, 64*16); got != last+16 {
		t.Errorf("a fill of 1,024 bytes behind 1,000 store sectors on the shared path through at %d, want %d", got, last+16)
	}
	p.FarBytesPerCycle = 0
	if newFar(p) != nil {
		t.Error("a link without bandwidth should be unlimited (nil)")
	}
}
