package ir

import "github.com/warpsim/warpsim/ptx"

// Texture and surface instructions (OpTex, OpSuld, OpSust): the geometry
// is Inst.Mode, the operands are in Func.TexOps[Inst.Imm] because a
// texture instruction has more than Inst's slots hold. For the liveness
// analysis and the timing scoreboard, A[0] is also the handle and A[1..4]
// the coordinates; D holds the destinations of tex and suld.

// Texture geometries (Inst.Mode of OpTex, OpSuld, OpSust).
const (
	Tex1D uint8 = iota
	Tex2D
	Tex3D
	TexA1D
	TexA2D
	TexCube
	TexACube
)

var texGeoms = map[string]uint8{"1d": Tex1D, "2d": Tex2D, "3d": Tex3D, "a1d": TexA1D, "a2d": TexA2D, "cube": TexCube, "acube": TexACube}

// TexCoords is how many coordinate elements each geometry uses (3d,
// a2d and cube list four, the last unused).
var TexCoords = [...]int{Tex1D: 1, Tex2D: 2, Tex3D: 3, TexA1D: 2, TexA2D: 3, TexCube: 3, TexACube: 4}

// Texture fetch kinds (TexOperands.Kind).
const (
	TexFetch  uint8 = iota // tex
	TexLevel               // tex.level: explicit level of detail
	TexGrad                // tex.grad: explicit gradients
	TexGather              // tld4: one component of the four texels of a bilinear footprint
)

// Surface boundary modes (TexOperands.Boundary), as CUDA numbers them.
const (
	SurfZero uint8 = iota
	SurfClamp
	SurfTrap
)

// TexOperands are one texture or surface instruction's operands.
type TexOperands struct {
	Handle   int32    // the texture or surface object (a .u64 register)
	Coords   [4]int32 // coordinates in PTX order (layer first for arrays); -1 past the geometry's count
	Vals     [4]int32 // sust: the values stored
	Lod      int32    // tex.level: the level; -1
	Kind     uint8    // TexFetch …
	Comp     uint8    // tld4: 0 r, 1 g, 2 b, 3 a
	Boundary uint8    // suld/sust
}

// lowerTex lowers tex, tld4, suld and sust.
func (fl *fnLowerer) lowerTex(src *ptx.Instr, m *mods) {
	ops := src.Operands
	op := OpTex
	switch src.Op {
	case "suld":
		op = OpSuld
	case "sust":
		op = OpSust
	}
	in := fl.newInst(op, src)
	to := TexOperands{Lod: -1, Coords: noSlots4, Vals: noSlots4, Boundary: SurfTrap}
	geom, haveGeom := uint8(0), false
	for _, r := range m.rest {
		if g, ok := texGeoms[r]; ok {
			geom, haveGeom = g, true
			continue
		}
		switch r {
		case "level":
			to.Kind = TexLevel
		case "grad":
			to.Kind = TexGrad
		case "base":
		case "r", "g", "b", "a":
			if src.Op == "tld4" {
				to.Comp = map[string]uint8{"r": 0, "g": 1, "b": 2, "a": 3}[r]
				to.Kind = TexGather
			} else if r != "b" {
				fl.unsupported(src)
				return
			}
		case "trap":
			to.Boundary = SurfTrap
		case "clamp":
			to.Boundary = SurfClamp
		case "zero":
			to.Boundary = SurfZero
		default:
			fl.unsupportedf(src.Pos, "%s is not supported: modifier .%s (warpsim simulates tex, tld4, suld.b and sust.b on 1d, 2d, 3d, a1d, a2d, cube and acube)", opText(src), r)
			return
		}
	}
	if !haveGeom {
		fl.unsupportedf(src.Pos, "%s is not supported: no geometry, or one warpsim does not simulate (1d, 2d, 3d, a1d, a2d, cube, acube)", opText(src))
		return
	}
	if src.Op == "tld4" && geom != Tex2D {
		fl.unsupportedf(src.Pos, "%s is not supported: warpsim gathers from 2d textures only", opText(src))
		return
	}
	if (op == OpSuld || op == OpSust) && (geom == TexCube || geom == TexACube) {
		fl.unsupportedf(src.Pos, "%s is not supported: cubemap surfaces", opText(src))
		return
	}
	if (op == OpSuld || op == OpSust) && !hasMod(src.Mods, "b") {
		fl.unsupportedf(src.Pos, "%s is not supported: only unformatted (.b) surface accesses are simulated", opText(src))
		return
	}
	in.Mode = geom
	in.Vec = 1
	if m.vec > 0 {
		in.Vec = uint8(m.vec)
	}
	in.Type = m.typ(0)
	in.Type2 = m.typ(1)
	var dst, addr *ptx.Operand
	rest := ops
	switch op {
	case OpSust:
		if len(ops) != 2 {
			fl.bad(src, "expected [surface, {coordinates}], value")
			return
		}
		addr = &ops[0]
		vals := ops[1:2]
		if ops[1].Kind == ptx.OpdVector {
			vals = ops[1].Elems
		}
		if len(vals) != int(in.Vec) || in.Vec > 4 {
			fl.bad(src, "expected %d values", in.Vec)
			return
		}
		for i := range vals {
			to.Vals[i] = fl.value(src, &vals[i], in.Type)
		}
		rest = nil
	default:
		if len(ops) < 2 {
			fl.bad(src, "expected destination, [object, {coordinates}]")
			return
		}
		dst, addr, rest = &ops[0], &ops[1], ops[2:]
	}
	if addr.Kind != ptx.OpdAddr || len(addr.Elems) != 1 {
		fl.bad(src, "expected [object, {coordinates}]")
		return
	}
	if addr.Name == "" || addr.Offset != 0 {
		fl.unsupportedf(src.Pos, "%s is not supported: the object must be a register (unified texture mode)", opText(src))
		return
	}
	if s, ok := fl.lookup(addr.Name); !ok || s.kind != symReg {
		fl.unsupportedf(src.Pos, "%s is not supported: texture and surface references (.texref, .surfref) are not simulated; use texture objects", opText(src))
		return
	}
	to.Handle = fl.value(src, &ptx.Operand{Kind: ptx.OpdReg, Name: addr.Name, Pos: addr.Pos}, ptx.U64)
	coords := addr.Elems[0:1]
	if addr.Elems[0].Kind == ptx.OpdVector {
		coords = addr.Elems[0].Elems
	}
	n := TexCoords[geom]
	if len(coords) < n || len(coords) > 4 {
		fl.bad(src, "expected %d coordinates", n)
		return
	}
	for i := 0; i < n; i++ {
		t := in.Type2
		if op != OpTex || (i == 0 && (geom == TexA1D || geom == TexA2D || geom == TexACube)) {
			t = ptx.S32
		}
		to.Coords[i] = fl.value(src, &coords[i], t)
	}
	if dst != nil {
		ds := []ptx.Operand{*dst}
		if dst.Kind == ptx.OpdVector {
			ds = dst.Elems
		}
		if dst.Kind == ptx.OpdPair {
			fl.unsupportedf(src.Pos, "%s is not supported: the predicate destination", opText(src))
			return
		}
		if len(ds) != int(in.Vec) || len(ds) > 4 {
			fl.bad(src, "expected %d destination registers", in.Vec)
			return
		}
		for i := range ds {
			in.D[i] = fl.reg(src, &ds[i])
		}
	}
	switch to.Kind {
	case TexLevel:
		if len(rest) != 1 {
			fl.bad(src, "expected the level of detail")
			return
		}
		to.Lod = fl.value(src, &rest[0], ptx.F32)
	case TexGrad:
		// The gradients only choose a mipmap level; warpsim's textures
		// have one level, so they are read and ignored.
		if len(rest) != 2 {
			fl.bad(src, "expected two gradient vectors")
			return
		}
	default:
		if len(rest) != 0 {
			fl.unsupportedf(src.Pos, "%s is not supported: extra operands (offsets, depth compare)", opText(src))
			return
		}
	}
	in.A[0] = to.Handle
	copy(in.A[1:], to.Coords[:])
	in.Imm = int64(len(fl.f.TexOps))
	fl.f.TexOps = append(fl.f.TexOps, to)
	fl.emit(in, src)
}

func hasMod(ms []string, s string) bool {
	for _, m := range ms {
		if m == s {
			return true
		}
	}
	return false
}
