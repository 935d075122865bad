package scalar

import "github.com/warpsim/warpsim/ptx"

const (
	f16T  = ptx.F16
	bf16T = ptx.BF16
	f32T  = ptx.F32
	f64T  = ptx.F64
)
