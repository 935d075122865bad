package libdevice

import "github.com/warpsim/warpsim/ptx/ptxtype"

// typeOf maps the signature letters used in this package's tables and in the
// recordings (testdata/gen/mathref_host.h) to PTX types.
func typeOf(c byte) ptxtype.Type {
	switch c {
	case 'f':
		return ptxtype.F32
	case 'd':
		return ptxtype.F64
	case 'i':
		return ptxtype.S32
	case 'u':
		return ptxtype.U32
	case 'l':
		return ptxtype.S64
	case 'L':
		return ptxtype.U64
	case 'h':
		return ptxtype.U16
	}
	panic("warpsim internal error: libdevice: bad signature letter " + string(c))
}

func types(sig string) []ptxtype.Type {
	t := make([]ptxtype.Type, len(sig))
	for i := range sig {
		t[i] = typeOf(sig[i])
	}
	return t
}

// newFunc builds a Func from signature letters: args, the return type ("" for
// void) and out-parameters.
func newFunc(name, args, ret, outs string) *Func {
	f := &Func{Name: name, Args: types(args), Outs: types(outs)}
	if ret != "" {
		f.Ret = typeOf(ret[0])
	}
	return f
}

// regF1 registers an f32 → f32 function in both modes.
func regF1(name string, fn func(m mode, x float32) float32) {
	for _, m := range []mode{ieee, flushed} {
		m := m
		f := newFunc(name, "f", "f", "")
		f.Impl = func(a []uint64) uint64 { return uint64(b32(fn(m, f32(uint32(a[0]))))) }
		m.reg(f)
	}
}

// regF2 registers an (f32, f32) → f32 function in both modes.
func regF2(name string, fn func(m mode, x, y float32) float32) {
	for _, m := range []mode{ieee, flushed} {
		m := m
		f := newFunc(name, "ff", "f", "")
		f.Impl = func(a []uint64) uint64 {
			return uint64(b32(fn(m, f32(uint32(a[0])), f32(uint32(a[1])))))
		}
		m.reg(f)
	}
}

// regF3 registers an (f32, f32, f32) → f32 function in both modes.
func regF3(name string, fn func(m mode, x, y, z float32) float32) {
	for _, m := range []mode{ieee, flushed} {
		m := m
		f := newFunc(name, "fff", "f", "")
		f.Impl = func(a []uint64) uint64 {
			return uint64(b32(fn(m, f32(uint32(a[0])), f32(uint32(a[1])), f32(uint32(a[2])))))
		}
		m.reg(f)
	}
}

// regD1, regD2, regD3 register f64 functions (the same in both modes).
func regD1(name string, fn func(x float64) float64) {
	f := newFunc(name, "d", "d", "")
	f.Impl = func(a []uint64) uint64 { return b64(fn(f64(a[0]))) }
	register(f)
}

func regD2(name string, fn func(x, y float64) float64) {
	f := newFunc(name, "dd", "d", "")
	f.Impl = func(a []uint64) uint64 { return b64(fn(f64(a[0]), f64(a[1]))) }
	register(f)
}

func regD3(name string, fn func(x, y, z float64) float64) {
	f := newFunc(name, "ddd", "d", "")
	f.Impl = func(a []uint64) uint64 { return b64(fn(f64(a[0]), f64(a[1]), f64(a[2]))) }
	register(f)
}

// regBits registers a function on raw bits, the same in both modes.
func regBits(name, args, ret string, fn func(a []uint64) uint64) {
	f := newFunc(name, args, ret, "")
	f.Impl = fn
	register(f)
}

// regBitsM registers a function on raw bits that depends on the mode.
func regBitsM(name, args, ret string, fn func(m mode, a []uint64) uint64) {
	for _, m := range []mode{ieee, flushed} {
		m := m
		f := newFunc(name, args, ret, "")
		f.Impl = func(a []uint64) uint64 { return fn(m, a) }
		m.reg(f)
	}
}

// regOut registers a function with out-parameters in both modes.
func regOut(name, args, ret, outs string, fn func(m mode, a, o []uint64) uint64) {
	for _, m := range []mode{ieee, flushed} {
		m := m
		f := newFunc(name, args, ret, outs)
		f.ImplOut = func(a, o []uint64) uint64 { return fn(m, a, o) }
		f.Impl = func(a []uint64) uint64 {
			var o [2]uint64
			return fn(m, a, o[:len(outs)])
		}
		m.reg(f)
	}
}

func (m mode) reg(f *Func) {
	if m.ftz {
		registerFTZ(f)
	} else {
		register(f)
	}
}
