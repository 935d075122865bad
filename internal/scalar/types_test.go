package scalar

import "github.com/warpsim/warpsim/ptx/ptxtype"

const (
	f16T  = ptxtype.F16
	bf16T = ptxtype.BF16
	f32T  = ptxtype.F32
	f64T  = ptxtype.F64
)
