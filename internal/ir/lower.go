// The lowering driver: Lower, the module's variables and initializers, and each kernel's static shared layout.

package ir

import (
	"fmt"
	"math"

	"github.com/warpsim/warpsim/ptx"
)

// ExternResolver reports whether an extern function (.extern .func with no
// body) can be called natively, such as libdevice's __nv_sinf.
type ExternResolver func(name string) bool

// Lower lowers a parsed module. The error, when not nil, is a ptx.ErrorList
// of every unsupported or invalid construct found (up to a limit).
func Lower(m *ptx.Module, externs ExternResolver) (*Program, error) {
	l := &lowerer{m: m, externs: externs, p: &Program{
		FuncByName: map[string]int{},
		VarByName:  map[string]int{},
	}}
	if m.File != nil {
		l.p.Filename = m.File.Name()
	}
	if errs := Check(m); len(errs) > 0 {
		return l.p, errs
	}
	l.lowerModuleVars()
	for _, f := range m.Funcs {
		if _, dup := l.p.FuncByName[f.Name]; dup {
			// A declaration followed by its definition: keep the definition.
			i := l.p.FuncByName[f.Name]
			if f.HasBody {
				l.srcFuncs[i] = f
			}
			continue
		}
		l.p.FuncByName[f.Name] = len(l.p.Funcs)
		l.p.Funcs = append(l.p.Funcs, &Func{Name: f.Name, Entry: f.Entry})
		l.srcFuncs = append(l.srcFuncs, f)
	}
	for _, mv := range l.p.Vars {
		for i := range mv.Relocs {
			if r := &mv.Relocs[i]; r.funcName != "" {
				r.Func = int32(l.p.FuncByName[r.funcName])
			}
		}
	}
	for i, f := range l.srcFuncs {
		if f.HasBody {
			l.lowerFunc(l.p.Funcs[i], f)
		}
		if len(l.errs)-len(l.p.Unsupported) >= 10 {
			break
		}
	}
	if len(l.errs) == len(l.p.Unsupported) {
		l.layoutShared()
	}
	l.errs.Sort()
	return l.p, l.errs.Err()
}

type lowerer struct {
	m        *ptx.Module
	p        *Program
	externs  ExternResolver
	errs     ptx.ErrorList
	srcFuncs []*ptx.Func
	// regScratch is regEstimate's scheduled copy of a function's code,
	// reused for every function lowered.
	regScratch []Inst
}

func (l *lowerer) pos(p ptx.Pos) ptx.Position {
	if l.m.File == nil {
		return ptx.Position{}
	}
	return l.m.File.Position(p)
}

func (l *lowerer) errorf(p ptx.Pos, format string, args ...any) {
	l.errs.Add(l.pos(p), fmt.Sprintf(format, args...))
}

func varSize(v *ptx.Var) int {
	n := TypeSize(v.Type)
	if v.Vector > 0 {
		n *= v.Vector
	}
	for _, d := range v.Dims {
		n *= d
	}
	return n
}

func varAlign(v *ptx.Var) int {
	if v.Align > 0 {
		return v.Align
	}
	n := TypeSize(v.Type)
	if v.Vector > 0 {
		n *= v.Vector
	}
	if n == 0 {
		n = 1
	}
	return n
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

func (l *lowerer) addVar(v *ptx.Var, name string) int {
	mv := &Var{Name: name, Space: v.Space, Size: varSize(v), Align: varAlign(v), Extern: v.Linkage == ptx.LinkExtern}
	if v.Space == ptx.SpaceShared && len(v.Dims) > 0 && v.Dims[0] == 0 {
		mv.Size = 0 // dynamic shared: sized at launch
	}
	if len(v.Init) > 0 && (v.Space == ptx.SpaceGlobal || v.Space == ptx.SpaceConst) {
		mv.Init = make([]byte, mv.Size)
		es := TypeSize(v.Type)
		for i, in := range v.Init {
			off := i * es
			if off+es > len(mv.Init) {
				l.errorf(in.Pos, "too many initializers for %s", v.Name)
				break
			}
			switch in.Kind {
			case ptx.InitInt, ptx.InitFloat:
				bits := in.Bits
				if in.Kind == ptx.InitInt && IsFloat(v.Type) {
					bits = floatBitsOfInt(int64(in.Bits), v.Type)
				}
				putLE(mv.Init[off:off+es], bits)
			case ptx.InitSymbol, ptx.InitGeneric:
				mv.Relocs = append(mv.Relocs, Reloc{Offset: off, Size: es, Var: -1, Func: -1, Addend: in.Offset,
					Generic: in.Kind == ptx.InitGeneric, Mask: in.Mask, name: in.Sym, pos: in.Pos})
			}
		}
	}
	idx := len(l.p.Vars)
	l.p.Vars = append(l.p.Vars, mv)
	l.p.VarByName[name] = idx
	return idx
}

func floatBitsOfInt(v int64, t ptx.Type) uint64 {
	switch t {
	case ptx.F32:
		return uint64(math.Float32bits(float32(v)))
	case ptx.F64:
		return math.Float64bits(float64(v))
	}
	return uint64(v)
}

func putLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

func (l *lowerer) lowerModuleVars() {
	for _, v := range l.m.Vars {
		switch v.Space {
		case ptx.SpaceGlobal, ptx.SpaceConst, ptx.SpaceShared:
			if _, dup := l.p.VarByName[v.Name]; dup {
				l.errorf(v.Pos, "%s redeclared", v.Name)
				continue
			}
			l.addVar(v, v.Name)
		default:
			l.errorf(v.Pos, "module-scope %s variable %s is not supported yet", v.Space, v.Name)
		}
	}
	for _, mv := range l.p.Vars {
		for i := range mv.Relocs {
			r := &mv.Relocs[i]
			t, ok := l.p.VarByName[r.name]
			if !ok {
				if _, isFunc := l.funcDeclared(r.name); isFunc {
					r.funcName = r.name
				} else {
					l.errs.Add(l.pos(r.pos), fmt.Sprintf("undefined symbol %s", r.name))
				}
				continue
			}
			r.Var = int32(t)
		}
	}
}

func (l *lowerer) funcDeclared(name string) (*ptx.Func, bool) {
	for _, f := range l.m.Funcs {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// layoutShared gives each kernel its static shared layout: the shared
// variables it and its callees use, in declaration order.
func (l *lowerer) layoutShared() {
	n := len(l.p.Funcs)
	l.p.SharedOffsets = make([][]int32, n)
	l.p.StaticShared = make([]int, n)
	l.p.DynSharedAlign = make([]int, n)
	for k, f := range l.p.Funcs {
		if !f.Entry {
			continue
		}
		used := map[int32]bool{}
		dyn := false
		seen := map[int32]bool{}
		var visit func(i int32)
		visit = func(i int32) {
			if seen[i] {
				return
			}
			seen[i] = true
			g := l.p.Funcs[i]
			for _, s := range g.sharedUsed {
				used[s] = true
			}
			dyn = dyn || g.UsesDynShared
			for _, c := range g.calls {
				visit(c)
			}
		}
		visit(int32(k))
		offs := make([]int32, len(l.p.Vars))
		size := 0
		dynAlign := 16
		for i, v := range l.p.Vars {
			offs[i] = -1
			if v.Space != ptx.SpaceShared || !used[int32(i)] {
				continue
			}
			if v.Size == 0 {
				if v.Align > dynAlign {
					dynAlign = v.Align
				}
				continue
			}
			size = alignUp(size, v.Align)
			offs[i] = int32(size)
			size += v.Size
		}
		// Dynamic shared arrays all alias the area after the static ones.
		for i, v := range l.p.Vars {
			if v.Space == ptx.SpaceShared && v.Size == 0 && used[int32(i)] {
				offs[i] = int32(alignUp(size, dynAlign))
			}
		}
		_ = dyn
		l.p.SharedOffsets[k] = offs
		l.p.StaticShared[k] = size
		l.p.DynSharedAlign[k] = dynAlign
		f.UsesDynShared = dyn
	}
}
