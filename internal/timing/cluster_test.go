package timing

import (
	"math"
	"slices"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestPlaceCluster: clusters placed one after another on an empty H100,
// k blocks per SM, until none fits: as many as the H100's driver answers
// to cudaOccupancyMaxActiveClusters (arch.MaxActiveClusters, the recorded
// table: testdata/clusters/cluster_launch.h100.txt): exactly at one block
// per SM, within 14% at 2, 4 and 8 (the model places up to 14% more, at 8
// blocks per SM and clusters of 16: the driver's answers at several blocks
// per SM are not a packing of these GPCs), for every measured cluster size
// (1–10, 12, 14, 16); every cluster inside one GPC, spread over its SMs.
func TestPlaceCluster(t *testing.T) {
	a := arch.MustLookup("h100")
	var gpcs [][]int
	gpcOf := make([]int, a.SMs)
	sm := 0
	for g, n := range a.GPCs() {
		var ids []int
		for range n {
			gpcOf[sm] = g
			ids = append(ids, sm)
			sm++
		}
		gpcs = append(gpcs, ids)
	}
	for _, k := range []int{1, 2, 4, 8} {
		for _, size := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16} {
			want := a.MaxActiveClusters(k, size)
			free := make([]int, a.SMs)
			for i := range free {
				free[i] = k
			}
			got := 0
			var pick []int
			for {
				var ok bool
				if pick, ok = placeCluster(free, gpcs, size, pick); !ok {
					break
				}
				got++
				per := map[int]int{}
				for _, sm := range pick {
					if gpcOf[sm] != gpcOf[pick[0]] {
						t.Fatalf("k=%d size %d: cluster on SMs %v, in more than one GPC", k, size, pick)
					}
					per[sm]++
				}
				if len(per) < min(size, len(gpcs[gpcOf[pick[0]]])) && k*len(per) < size {
					t.Fatalf("k=%d size %d: cluster on SMs %v, not spread", k, size, pick)
				}
			}
			tol := 0.0
			if k > 1 {
				tol = 0.14
			}
			if math.Abs(float64(got-want)) > tol*float64(want) {
				t.Errorf("k=%d clusters of %d: %d placed at once, the H100 answers %d", k, size, got, want)
			}
		}
	}
}

// TestClusterLaunchOrder: blocks are handed out cluster by cluster, in
// the engine's cluster and rank order, each block once.
func TestClusterLaunchOrder(t *testing.T) {
	c := &clusterPlan{dims: [3]uint32{2, 2, 1}, grid: [3]uint32{4, 2, 2}, n: 4}
	var got []int
	for i := range 16 {
		got = append(got, c.linear(i))
	}
	// Cluster (0,0,0): blocks (0,0,0) (1,0,0) (0,1,0) (1,1,0); cluster
	// (1,0,0): (2,0,0) (3,0,0) (2,1,0) (3,1,0); then z = 1 likewise.
	want := []int{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}
	if !slices.Equal(got, want) {
		t.Errorf("launch order %v, want %v", got, want)
	}
}

// TestRemoteSectors: a remote atomic's distinct 32-byte sectors of other
// blocks' shared memory, a sector per block rank (the rank is in the
// address's high bits, as the shared::cluster window names it).
func TestRemoteSectors(t *testing.T) {
	rank := func(r uint64) uint64 { return (r + 1) << 24 }
	for _, c := range []struct {
		name  string
		addrs []uint64
		want  int
	}{
		{"none", nil, 0},
		{"one word", []uint64{rank(1) + 64}, 1},
		{"a line's 32 words", func() []uint64 {
			var a []uint64
			for w := range uint64(32) {
				a = append(a, rank(1)+4*w)
			}
			return a
		}(), 4},
		{"one offset, three ranks", []uint64{rank(1) + 8, rank(2) + 8, rank(3) + 8}, 3},
		{"two sectors of one rank", []uint64{rank(0) + 0, rank(0) + 28, rank(0) + 32}, 2},
	} {
		if got := remoteSectors(c.addrs); got != c.want {
			t.Errorf("%s: %d sectors, want %d", c.name, got, c.want)
		}
	}
}

// TestPlaceClusterSpreadsOverGPCs: clusters that fit several to an SM go
// to the GPC whose roomiest SMs have the most room, so that a grid of 33
// clusters of 4 small blocks takes an SM a block wherever the GPCs allow
// (testdata/timing/rowwalk: it ran on 132 SMs of the H200 as fast an SM
// as 3 clusters on 12; the first GPC with room put it on 16 SMs).
func TestPlaceClusterSpreadsOverGPCs(t *testing.T) {
	a := arch.MustLookup("h200")
	var gpcs [][]int
	sm := 0
	for _, n := range a.GPCs() {
		var ids []int
		for range n {
			ids = append(ids, sm)
			sm++
		}
		gpcs = append(gpcs, ids)
	}
	free := make([]int, a.SMs)
	for i := range free {
		free[i] = 8
	}
	used := map[int]int{} // blocks an SM
	var pick []int
	clusters := a.SMs / 4
	for i := range clusters {
		var ok bool
		if pick, ok = placeCluster(free, gpcs, 4, pick); !ok {
			t.Fatalf("cluster %d: no room", i)
		}
		for _, s := range pick {
			used[s]++
		}
	}
	// The H100's GPCs (arch.GPCs: 18, 18, 5 × 16, 8, 4 × 2 SMs) cannot
	// give every block an SM of its own: the two 18-SM GPCs leave 2 SMs
	// each, the 2-SM groups take 2 blocks an SM.
	two := 0
	for s, n := range used {
		if n > 2 {
			t.Errorf("SM %d holds %d blocks of %d clusters of 4 on %d SMs, want at most 2", s, n, clusters, a.SMs)
		}
		if n == 2 {
			two++
		}
	}
	if len(used) < a.SMs-12 {
		t.Errorf("%d clusters of 4 on %d SMs (%d of them 2 blocks), want at least %d", clusters, len(used), two, a.SMs-12)
	}
	t.Logf("%d clusters of 4: %d SMs, %d of them with 2 blocks", clusters, len(used), two)
}
