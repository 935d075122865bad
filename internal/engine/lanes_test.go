package engine

import (
	"math/rand"
	"testing"
)

// TestLaneKernels checks the whole-warp lane kernels (lanes_amd64.s where
// the build has them, else the Go forms themselves) against the Go forms
// of lanes.go, lane by lane, on random lanes with the high words set, and
// that they write nothing outside their 32 lanes.
func TestLaneKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const guard = 0x5a5a5a5a5a5a5a5a
	for i := 0; i < 2000; i++ {
		var src [34]uint64
		var words [34]uint32
		for l := range src {
			src[l] = rng.Uint64()
			words[l] = rng.Uint32()
		}
		s64 := (*[32]uint64)(src[1:33])
		s32 := (*[32]uint32)(words[1:33])
		v := rng.Uint64()
		cases := []struct {
			name     string
			got, go_ func(d *[34]uint64)
		}{
			{"fill32", func(d *[34]uint64) { fill32((*[32]uint64)(d[1:33]), v) }, func(d *[34]uint64) { fill32Go((*[32]uint64)(d[1:33]), v) }},
			{"widen32", func(d *[34]uint64) { widen32((*[32]uint64)(d[1:33]), s32) }, func(d *[34]uint64) { widen32Go((*[32]uint64)(d[1:33]), s32) }},
			{"loadWords32", func(d *[34]uint64) { loadWords32((*[32]uint64)(d[1:33]), s32) }, func(d *[34]uint64) { loadWords32Go((*[32]uint64)(d[1:33]), s32) }},
			{"loadWords64", func(d *[34]uint64) { loadWords64((*[32]uint64)(d[1:33]), s64) }, func(d *[34]uint64) { loadWords64Go((*[32]uint64)(d[1:33]), s64) }},
		}
		for _, tc := range cases {
			var got, want [34]uint64
			for l := range got {
				got[l], want[l] = guard, guard
			}
			tc.got(&got)
			tc.go_(&want)
			if got != want {
				t.Fatalf("%s: lanes %#x, want %#x", tc.name, got, want)
			}
		}
		var got, want [34]uint32
		for l := range got {
			got[l], want[l] = 0x5a5a5a5a, 0x5a5a5a5a
		}
		narrow32((*[32]uint32)(got[1:33]), s64)
		narrow32Go((*[32]uint32)(want[1:33]), s64)
		if got != want {
			t.Fatalf("narrow32: words %#x, want %#x", got, want)
		}
	}
}
