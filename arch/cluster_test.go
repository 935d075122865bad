package arch

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestClusterOccupancyH100 holds MaxActiveClusters and
// MaxPotentialClusterSize against every answer the H100's driver gave in
// testdata/clusters/cluster_launch.h100.txt for cluster sizes 1–16, block
// sizes 32–1024 and dynamic shared memory 0–227 KiB (the recorded kernel
// uses 8 registers).
func TestClusterOccupancyH100(t *testing.T) {
	b, err := os.ReadFile("../testdata/clusters/cluster_launch.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	a := MustLookup("h100")
	occ := func(block, smem int) int {
		if block > a.MaxThreadsPerBlock || smem > a.SharedPerBlockOptin {
			return 0
		}
		return a.Occupancy(OccupancyInput{BlockSize: block, RegsPerThread: 8, DynamicShared: smem}).BlocksPerSM
	}
	n := 0
	re := regexp.MustCompile(`(?m)^k_empty cluster (\d+)x(\d+)x(\d+) block (\d+) smem (\d+): (\d+)$`)
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		v := make([]int, 6)
		for i := range v {
			v[i], _ = strconv.Atoi(m[1+i])
		}
		if got := a.MaxActiveClusters(occ(v[3], v[4]), v[0]*v[1]*v[2]); got != v[5] {
			t.Errorf("cluster %dx%dx%d block %d smem %d: %d active clusters, the H100's driver %d", v[0], v[1], v[2], v[3], v[4], got, v[5])
		}
		n++
	}
	re = regexp.MustCompile(`(?m)^k_empty (non-portable|portable) block (\d+) smem (\d+): (\d+)$`)
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		block, _ := strconv.Atoi(m[2])
		smem, _ := strconv.Atoi(m[3])
		want, _ := strconv.Atoi(m[4])
		if got := a.MaxPotentialClusterSize(occ(block, smem), m[1] == "non-portable"); got != want {
			t.Errorf("%s block %d smem %d: potential cluster size %d, the H100's driver %d", m[1], block, smem, got, want)
		}
		n++
	}
	if n < 800 {
		t.Errorf("%d recorded answers checked; the recording has more than 800", n)
	}
}

// TestGPCsReproduceClusters: the H100's GPCs cover its 132 SMs, and a
// cluster placed inside one GPC gives the recorded
// cudaOccupancyMaxActiveClusters at one block per SM for every measured
// cluster size (testdata/clusters/cluster_launch.h100.txt).
func TestGPCsReproduceClusters(t *testing.T) {
	a := MustLookup("h100")
	sum := 0
	for _, g := range a.GPCs() {
		sum += g
	}
	if sum != a.SMs {
		t.Fatalf("GPCs hold %d SMs, want %d", sum, a.SMs)
	}
	for size, want := range h100Clusters[1] {
		if want == 0 {
			continue
		}
		got := 0
		for _, g := range a.GPCs() {
			got += g / size
		}
		if got != want {
			t.Errorf("clusters of %d at one block per SM: %d fit the GPCs, the H100 answers %d", size, got, want)
		}
	}
	if g := MustLookup("a100").GPCs(); len(g) != 7 || g[6] != 12 {
		t.Errorf("a100 GPCs %v, want 6 of 16 and 12", g)
	}
}
