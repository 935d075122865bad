package timing

import (
	"testing"
)

// TestSampleWindow: grids of at most waves+2 waves are timed in full;
// larger ones from their first waves, the window growing to at most three
// times that and always leaving two waves out.
func TestSampleWindow(t *testing.T) {
	tests := []struct {
		nb, wave       int
		sample         bool
		limit, maxLimt int
	}{
		{nb: 1000, wave: 100, sample: false, limit: 1000, maxLimt: 1000},
		{nb: 600, wave: 100, sample: true, limit: 600, maxLimt: 600},   // 6 waves: in full
		{nb: 700, wave: 100, sample: true, limit: 400, maxLimt: 500},   // 7 waves: 4, growing to 5
		{nb: 5000, wave: 100, sample: true, limit: 400, maxLimt: 1200}, // 50 waves: 4, growing to 12
	}
	for _, tc := range tests {
		l, m := sampleWindow(tc.nb, tc.wave, tc.sample, 4)
		if l != tc.limit || m != tc.maxLimt {
			t.Errorf("%d blocks in waves of %d (sampling %v): window %d growing to %d, want %d, %d", tc.nb, tc.wave, tc.sample, l, m, tc.limit, tc.maxLimt)
		}
	}
}

// TestSamplingExtrapolation: blocks retiring at a steady rate after the
// first wave give that rate; the window stops growing once it settles;
// the untimed blocks are charged at it.
func TestSamplingExtrapolation(t *testing.T) {
	s := &gridState{wave: 4, limitBlk: 40, maxLimit: 80}
	// The first wave retires at 1000; then one block every 10 cycles.
	for i := 0; i < 4; i++ {
		s.retires = append(s.retires, 1000)
	}
	for i := 1; i <= 36; i++ {
		s.retires = append(s.retires, 1000+uint64(10*i))
	}
	whole, half, ok := s.rates(1360)
	if !ok || whole != 10 || half != 10 {
		t.Fatalf("rates: %v %v %v, want 10, 10 cycles per block", whole, half, ok)
	}
	if s.extend(1360) {
		t.Error("a settled window grew")
	}
	s.lastDispatch = 1360
	if got := s.extrapolate(100, 1500); got != 1500+10*60 {
		t.Errorf("extrapolated %d cycles, want %d", got, 1500+10*60)
	}
	// A rate that is still changing (blocks retiring faster and faster)
	// grows the window by a wave.
	s2 := &gridState{wave: 4, limitBlk: 40, maxLimit: 80}
	at := uint64(1000)
	for i := 0; i < 40; i++ {
		s2.retires = append(s2.retires, at)
		if i >= 4 {
			at += uint64(40 - i)
		}
	}
	if !s2.extend(at) || s2.limitBlk != 44 {
		t.Errorf("an unsettled window: limit %d, want it grown to 44", s2.limitBlk)
	}
}
