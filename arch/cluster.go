package arch

// Thread-block clusters (compute capability 9.0 and later): what the
// driver answers to cudaOccupancyMaxActiveClusters and
// cudaOccupancyMaxPotentialClusterSize, and the cluster size limits.
//
// The H100's answers were measured (testdata/clusters/cluster_launch.cu,
// recorded by testdata/clusters/record.sh on an H100 80GB HBM3, driver
// 580.159.04, CUDA 13.0): over cluster sizes 1–16, block sizes 32–1024 and
// dynamic shared memory 0–227 KiB, the answer depends only on the cluster
// size and on the blocks one SM holds, k = min(the occupancy calculator's
// blocks per SM, 8): the driver never counts more than 8 blocks of a
// cluster launch per SM. The clusters of one size do not pack the 132 SMs
// evenly (each cluster must fit in one GPC, and the GPCs differ), so the
// answers are the measured table, not a formula; for a k or a size it
// does not hold, the answer is scaled from the nearest measured entry
// below (an estimate, docs/clusters.md).

// MaxClusterPortable and MaxClusterNonPortable are the largest cluster a
// kernel may be launched with, without and with
// cudaFuncAttributeNonPortableClusterSizeAllowed (H100).
const (
	MaxClusterPortable    = 8
	MaxClusterNonPortable = 16
)

// clusterBlocksPerSM is the most blocks per SM the driver counts for a
// cluster launch.
const clusterBlocksPerSM = 8

// h100Clusters[k][size] is cudaOccupancyMaxActiveClusters on the H100 for
// k blocks per SM and clusters of size blocks (0: not measured).
var h100Clusters = map[int][18]int{
	8: {0, 1056, 528, 327, 248, 193, 163, 139, 124, 102, 88, 0, 74, 0, 65, 0, 58, 16},
	4: {0, 528, 264, 163, 124, 94, 79, 69, 62, 51, 44, 0, 37, 0, 30, 0, 28, 0},
	2: {0, 264, 132, 79, 62, 47, 39, 32, 30, 23, 21, 0, 16, 0, 14, 0, 14, 0},
	1: {0, 132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 0, 7, 0, 7, 0, 7, 0},
}

// MaxActiveClusters is cudaOccupancyMaxActiveClusters: how many clusters
// of size blocks can be resident at once when an SM holds blocksPerSM
// blocks of the kernel (the occupancy calculator's answer).
func (a *Arch) MaxActiveClusters(blocksPerSM, size int) int {
	k := min(blocksPerSM, clusterBlocksPerSM)
	if k <= 0 || size <= 0 || a.SMs <= 0 {
		return 0
	}
	if a.Major == 9 && a.SMs == 132 {
		for kk := k; kk >= 1; kk-- {
			t, ok := h100Clusters[kk]
			if !ok {
				continue
			}
			if size < len(t) && t[size] > 0 {
				return t[size] * k / kk
			}
			for s := min(size, len(t)-1); s >= 1; s-- {
				if t[s] > 0 && s <= MaxClusterNonPortable {
					return t[s] * s / size * k / kk
				}
			}
		}
	}
	return k * a.SMs / size
}

// MaxPotentialClusterSize is cudaOccupancyMaxPotentialClusterSize: the
// largest cluster the kernel may use (the H100 answers 8, or 16 with the
// non-portable attribute, for every block size and shared memory that
// leaves a block resident; 0 when none is).
func (a *Arch) MaxPotentialClusterSize(blocksPerSM int, nonPortable bool) int {
	if blocksPerSM <= 0 || a.Major < 9 {
		return 0
	}
	if nonPortable {
		return MaxClusterNonPortable
	}
	return MaxClusterPortable
}

// h100GPCs are the groups of SMs the H100's cluster scheduler places a
// cluster's blocks in, one group each (the GPCs, in SM order). NVIDIA's
// H100 whitepaper: the full GH100 has 8 GPCs of 9 TPCs (18 SMs); the SXM5
// H100 enables 132 SMs (66 TPCs), so its GPCs differ in size. How they
// differ is inferred from the recorded cudaOccupancyMaxActiveClusters at one
// block per SM (h100Clusters[1]: 132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 7,
// 7, 7 clusters of 1–10, 12, 14 and 16 blocks), which a cluster fitting
// only inside one group reproduces exactly with these groups and no others
// (seven groups of 16–18 SMs hold the 7 clusters of 10–16 blocks; two of
// 18 the two extra clusters of 9; the rest of the SMs take one cluster of
// 5–8 and two of 3–4 and 1–2 each): 2 × 18, 5 × 16, then 16 SMs that take
// clusters as groups of 8, 2, 2, 2 and 2 (TestGPCsReproduceClusters).
var h100GPCs = []int{18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2}

// GPCs are the sizes of the groups of SMs (GPCs) a cluster's blocks are
// placed in together, in SM order: the H100's inferred from its recorded
// cluster occupancy, otherwise GPCs of 16 SMs (the last one the rest).
func (a *Arch) GPCs() []int {
	if a.Major == 9 && a.SMs == 132 {
		return h100GPCs
	}
	var g []int
	for n := a.SMs; n > 0; n -= 16 {
		g = append(g, min(n, 16))
	}
	return g
}
