package libdevice

// SIMD-within-a-word functions (__vadd2, __vcmpgeu4 …): two 16-bit or four
// 8-bit lanes of a 32-bit word, each processed independently.

type laneOp func(a, b int64, signed bool, w uint) int64

func laneGet(x uint32, i, w uint, signed bool) int64 {
	v := int64(x>>(i*w)) & (1<<w - 1)
	if signed && v >= 1<<(w-1) {
		v -= 1 << w
	}
	return v
}

func sat(v int64, signed bool, w uint) int64 {
	lo, hi := int64(0), int64(1)<<w-1
	if signed {
		lo, hi = -(1 << (w - 1)), 1<<(w-1)-1
	}
	return min(max(v, lo), hi)
}

// simd applies op lane by lane.
func simd(a, b uint32, w uint, signed bool, op laneOp) uint32 {
	var r uint32
	for i := uint(0); i < 32/w; i++ {
		v := op(laneGet(a, i, w, signed), laneGet(b, i, w, signed), signed, w)
		r |= uint32(v&(1<<w-1)) << (i * w)
	}
	return r
}

func boolLane(c bool, all bool, w uint) int64 {
	switch {
	case !c:
		return 0
	case all:
		return 1<<w - 1
	}
	return 1
}

func registerSimd() {
	type def struct {
		name   string
		signed bool
		unary  bool
		op     laneOp
	}
	cmp := func(f func(a, b int64) bool, all bool) laneOp {
		return func(a, b int64, _ bool, w uint) int64 { return boolLane(f(a, b), all, w) }
	}
	abs := func(v int64) int64 {
		if v < 0 {
			return -v
		}
		return v
	}
	defs := []def{
		{"vabs", true, true, func(a, _ int64, _ bool, _ uint) int64 { return abs(a) }},
		{"vabsss", true, true, func(a, _ int64, s bool, w uint) int64 { return sat(abs(a), s, w) }},
		{"vneg", true, true, func(a, _ int64, _ bool, _ uint) int64 { return -a }},
		{"vnegss", true, true, func(a, _ int64, s bool, w uint) int64 { return sat(-a, s, w) }},
		{"vabsdiffs", true, false, func(a, b int64, _ bool, _ uint) int64 { return abs(a - b) }},
		{"vabsdiffu", false, false, func(a, b int64, _ bool, _ uint) int64 { return abs(a - b) }},
		{"vadd", false, false, func(a, b int64, _ bool, _ uint) int64 { return a + b }},
		{"vaddss", true, false, func(a, b int64, s bool, w uint) int64 { return sat(a+b, s, w) }},
		{"vaddus", false, false, func(a, b int64, s bool, w uint) int64 { return sat(a+b, s, w) }},
		{"vsub", false, false, func(a, b int64, _ bool, _ uint) int64 { return a - b }},
		{"vsubss", true, false, func(a, b int64, s bool, w uint) int64 { return sat(a-b, s, w) }},
		{"vsubus", false, false, func(a, b int64, s bool, w uint) int64 { return sat(a-b, s, w) }},
		{"vavgs", true, false, func(a, b int64, _ bool, _ uint) int64 {
			s := a + b
			if s >= 0 {
				return (s + 1) >> 1
			}
			return -((-s + 1) >> 1)
		}},
		{"vavgu", false, false, func(a, b int64, _ bool, _ uint) int64 { return (a + b + 1) >> 1 }},
		{"vhaddu", false, false, func(a, b int64, _ bool, _ uint) int64 { return (a + b) >> 1 }},
		{"vmaxs", true, false, func(a, b int64, _ bool, _ uint) int64 { return max(a, b) }},
		{"vmaxu", false, false, func(a, b int64, _ bool, _ uint) int64 { return max(a, b) }},
		{"vmins", true, false, func(a, b int64, _ bool, _ uint) int64 { return min(a, b) }},
		{"vminu", false, false, func(a, b int64, _ bool, _ uint) int64 { return min(a, b) }},
	}
	rel := []struct {
		name   string
		signed bool
		f      func(a, b int64) bool
	}{
		{"eq", false, func(a, b int64) bool { return a == b }},
		{"ne", false, func(a, b int64) bool { return a != b }},
		{"ges", true, func(a, b int64) bool { return a >= b }},
		{"geu", false, func(a, b int64) bool { return a >= b }},
		{"gts", true, func(a, b int64) bool { return a > b }},
		{"gtu", false, func(a, b int64) bool { return a > b }},
		{"les", true, func(a, b int64) bool { return a <= b }},
		{"leu", false, func(a, b int64) bool { return a <= b }},
		{"lts", true, func(a, b int64) bool { return a < b }},
		{"ltu", false, func(a, b int64) bool { return a < b }},
	}
	for _, r := range rel {
		defs = append(defs, def{"vcmp" + r.name, r.signed, false, cmp(r.f, true)},
			def{"vset" + r.name, r.signed, false, cmp(r.f, false)})
	}
	for _, d := range defs {
		for _, lanes := range []struct {
			suffix string
			w      uint
		}{{"2", 16}, {"4", 8}} {
			d, w := d, lanes.w
			args := "ii"
			if d.unary {
				args = "i"
			}
			regBits("__nv_"+d.name+lanes.suffix, args, "i", func(a []uint64) uint64 {
				b := uint32(0)
				if !d.unary {
					b = uint32(a[1])
				}
				return uint64(simd(uint32(a[0]), b, w, d.signed, d.op))
			})
		}
	}
	// Sums of absolute differences: one number, not lanes.
	for _, sgn := range []struct {
		name   string
		signed bool
	}{{"vsads", true}, {"vsadu", false}} {
		for _, lanes := range []struct {
			suffix string
			w      uint
		}{{"2", 16}, {"4", 8}} {
			sgn, w := sgn, lanes.w
			regBits("__nv_"+sgn.name+lanes.suffix, "ii", "i", func(a []uint64) uint64 {
				var s int64
				for i := uint(0); i < 32/w; i++ {
					d := laneGet(uint32(a[0]), i, w, sgn.signed) - laneGet(uint32(a[1]), i, w, sgn.signed)
					s += abs(d)
				}
				return uint64(uint32(s))
			})
		}
	}
}
