package warpsim

import "fmt"

// ClusterDims is the kernel's __cluster_dims__ (.reqnctapercluster); zero
// when the kernel does not fix its cluster shape.
func (k *Kernel) ClusterDims() Dim3 {
	d := k.fn.ClusterDims
	return Dim3{uint32(d[0]), uint32(d[1]), uint32(d[2])}
}

// checkCluster checks a launch's cluster shape against the grid and the
// kernel's own (docs/clusters.md); "" when it is fine.
func checkCluster(k *Kernel, cfg LaunchConfig) string {
	c, kd := cfg.Cluster, k.ClusterDims()
	if c == (Dim3{}) {
		c = kd
	}
	if c == (Dim3{}) {
		return ""
	}
	if kd != (Dim3{}) && kd != c {
		return fmt.Sprintf("cluster %v does not match the kernel's __cluster_dims__ %v", c, kd)
	}
	if c.X == 0 || c.Y == 0 || c.Z == 0 {
		return fmt.Sprintf("cluster %v has a zero dimension", c)
	}
	if n := uint64(c.X) * uint64(c.Y) * uint64(c.Z); n > 16 {
		return fmt.Sprintf("cluster %v has %d blocks; at most 16", c, n)
	}
	g := cfg.Grid
	if g.X%c.X != 0 || g.Y%c.Y != 0 || g.Z%c.Z != 0 {
		return fmt.Sprintf("grid %v is not a whole number of %v clusters", g, c)
	}
	return ""
}
