package cudart

import (
	"sync"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// Thread-block clusters: cluster launches (cudaLaunchKernelEx with
// cudaLaunchAttributeClusterDimension, or a kernel with __cluster_dims__),
// cudaFuncAttributeNonPortableClusterSizeAllowed, and the cluster
// occupancy queries, answered as the H100's driver answers them
// (testdata/clusters/cluster_launch.h100.txt; docs/clusters.md).

// ErrorInvalidClusterSize is cudaErrorInvalidClusterSize: the driver's
// answer to every cluster launch it refuses (a cluster above 8 blocks
// without the non-portable attribute or above 16 with it, a zero
// dimension, a grid that is not a whole number of clusters, a cluster
// that contradicts the kernel's __cluster_dims__).
const ErrorInvalidClusterSize Error = 912

// nonPortable holds, per server, the kernels that allow non-portable
// cluster sizes.
var nonPortable sync.Map // *Server → map[int]bool (guarded by nonPortableMu)

var nonPortableMu sync.Mutex

func (s *Server) setNonPortable(kid int, on bool) {
	nonPortableMu.Lock()
	defer nonPortableMu.Unlock()
	m, _ := nonPortable.LoadOrStore(s, map[int]bool{})
	m.(map[int]bool)[kid] = on
}

func (s *Server) isNonPortable(kid int) bool {
	nonPortableMu.Lock()
	defer nonPortableMu.Unlock()
	m, ok := nonPortable.Load(s)
	return ok && m.(map[int]bool)[kid]
}

// kernelClusterDims is the kernel's __cluster_dims__, zero when none.
func kernelClusterDims(k Kernel) Dim3 {
	if c, ok := k.(interface{ ClusterDims() warpsim.Dim3 }); ok {
		return c.ClusterDims()
	}
	return Dim3{}
}

// maxClusterSize is the most blocks a cluster of kernel kid may have: the
// portable 8, or 16 once cudaFuncAttributeNonPortableClusterSizeAllowed is
// set. Launches refuse a larger cluster with cudaErrorInvalidClusterSize
// (testdata/programs5/launch_ex).
func (s *Server) maxClusterSize(kid int) uint64 {
	if s.isNonPortable(kid) {
		return arch.MaxClusterNonPortable
	}
	return arch.MaxClusterPortable
}

// checkCluster is the driver's check of a launch's cluster shape.
func (s *Server) checkCluster(kid int, k Kernel, cfg LaunchConfig) Error {
	kd := kernelClusterDims(k)
	c := cfg.Cluster
	if c == (Dim3{}) {
		c = kd
	} else if kd != (Dim3{}) && kd != c {
		return ErrorInvalidClusterSize
	}
	if c == (Dim3{}) {
		return Success
	}
	if c.X == 0 || c.Y == 0 || c.Z == 0 {
		return ErrorInvalidClusterSize
	}
	if c.Threads() > s.maxClusterSize(kid) {
		return ErrorInvalidClusterSize
	}
	g := cfg.Grid
	if g.X%c.X != 0 || g.Y%c.Y != 0 || g.Z%c.Z != 0 {
		return ErrorInvalidClusterSize
	}
	return Success
}

// clusterOp answers opLaunchCluster, opOccupancyCluster and
// opPotentialCluster.
func (s *Server) clusterOp(op uint32, p *payloadReader) reply {
	if op == opLaunchCluster {
		c := Dim3{X: p.u32(), Y: p.u32(), Z: p.u32()}
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		if c == (Dim3{}) {
			// An explicit attribute of 0x0x0 is no cluster shape the
			// driver takes.
			return reply{code: ErrorInvalidClusterSize}
		}
		return s.launchWith(p, false, c)
	}
	kid, block, dyn := p.u32(), p.u32(), p.u32()
	var c Dim3
	if op == opOccupancyCluster {
		c = Dim3{X: p.u32(), Y: p.u32(), Z: p.u32()}
	}
	if p.err != nil {
		return reply{code: ErrorInvalidValue}
	}
	k, ok := s.kernel(kid)
	if !ok {
		return reply{code: ErrorInvalidDeviceFunction}
	}
	a := s.opt.Arch
	per := 0
	if block > 0 && int(block) <= a.MaxThreadsPerBlock && k.StaticSharedBytes()+int(dyn) <= a.SharedPerBlockOptin {
		per = a.Occupancy(arch.OccupancyInput{
			BlockSize: int(block), RegsPerThread: k.RegsPerThread(),
			StaticShared: k.StaticSharedBytes(), DynamicShared: int(dyn),
		}).BlocksPerSM
	}
	if op == opPotentialCluster {
		return reply{data: putU32s(uint32(a.MaxPotentialClusterSize(per, s.isNonPortable(int(kid)))))}
	}
	if c == (Dim3{}) {
		c = kernelClusterDims(k)
	}
	n := 0
	// The query refuses a cluster above the portable 8 without the
	// non-portable attribute (testdata/programs5/launch_ex: 16 refused);
	// with it, it sets no bound of its own (testdata/clusters/cluster_launch:
	// 17 answers 16 clusters).
	if !s.isNonPortable(int(kid)) && c.Threads() > arch.MaxClusterPortable {
		return reply{code: ErrorInvalidClusterSize}
	}
	if c != (Dim3{}) {
		n = a.MaxActiveClusters(per, int(c.Threads()))
	}
	return reply{data: putU32s(uint32(n))}
}

func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
