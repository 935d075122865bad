package libdevice

import "math"

func init() {
	regBits("__nv_rcp64h", "d", "d", func(a []uint64) uint64 { return rcpApproxFtz64(a[0]) })
	regBits("__nv_rsqrt", "d", "d", func(a []uint64) uint64 { return rsqrtApproxF64(a[0]) })
}

var _ = math.Abs
