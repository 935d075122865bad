package timing

import "testing"

// TestFarLinkThroughput: the link between the L2's two partitions is one
// path that far stores and far misses' fills share. From SM 0 (side 0),
// 4,096 whole sectors (32 pages) stored to pages homed in the far partition cross at
// the link's rate (64 bytes a cycle here: 2,048 cycles), where as many
// near ones take only the L2's bandwidth; a far miss sent beside them gets
// its line back only after them, a near miss does not wait.
func TestFarLinkThroughput(t *testing.T) {
	const rate, n = 64, 4096
	var nearPage, farPages []uint64
	for pg := uint64(1); len(farPages) < n/128+2 || len(nearPage) < n/128+2; pg++ {
		if farPage(pg) != smSide(0) {
			farPages = append(farPages, pg)
		} else {
			nearPage = append(nearPage, pg)
		}
	}
	sectors := func(pages []uint64) []uint64 {
		var out []uint64
		for _, pg := range pages[:n/128] {
			for k := uint64(0); k < 128; k++ {
				out = append(out, pg<<7|k)
			}
		}
		return out
	}
	fixture := func() *gridState {
		s := memFixture()
		s.d.far = newQueue(rate)
		return s
	}
	miss := func(s *gridState, page uint64) uint64 {
		return s.fromL2(0, page<<7, 32, 0)
	}

	s := fixture()
	if got := s.storeL2(0, sectors(farPages), 32, 0); got < n*32/rate || got > n*32/rate+32 {
		t.Errorf("%d far store sectors at %d bytes a cycle taken by cycle %d, want %d (+32)", n, rate, got, n*32/rate)
	}
	farAfter := miss(s, farPages[len(farPages)-1])
	nearAfter := miss(s, nearPage[len(nearPage)-1])
	if near := s.storeL2(0, sectors(nearPage), 32, 0); near >= n*32/rate/4 {
		t.Errorf("%d near store sectors taken by cycle %d: they should not take the link", n, near)
	}

	idle := fixture()
	farIdle := miss(idle, farPages[len(farPages)-1])
	nearIdle := miss(idle, nearPage[len(nearPage)-1])
	if farIdle >= n*32/rate {
		t.Fatalf("a far miss on an idle link answered at %d: the fixture's DRAM latency is longer than the stores' crossing", farIdle)
	}
	if farAfter < n*32/rate {
		t.Errorf("a far miss beside %d far store sectors answered at %d (alone %d), want after the stores cross at %d", n, farAfter, farIdle, n*32/rate)
	}
	if nearAfter != nearIdle {
		t.Errorf("a near miss beside the far stores answered at %d, alone %d: it does not cross", nearAfter, nearIdle)
	}
}
