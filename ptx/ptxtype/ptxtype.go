// Package ptxtype holds PTX's fundamental types and state spaces: the
// vocabulary the parser (package ptx), the lowering and the engine share, so
// that the back end names a type without importing the parser.
package ptxtype

import (
	"strconv"
	"strings"
)

// Space is a PTX state space.
type Space uint8

const (
	SpaceNone Space = iota
	SpaceReg
	SpaceSReg
	SpaceConst
	SpaceGlobal
	SpaceLocal
	SpaceParam
	SpaceShared
	SpaceTex
	SpaceGeneric
)

// Type is a PTX fundamental type.
type Type uint8

const (
	TypeNone Type = iota
	B8
	B16
	B32
	B64
	B128
	U8
	U16
	U32
	U64
	S8
	S16
	S32
	S64
	F16
	F16x2
	BF16
	BF16x2
	F32
	F64
	TF32
	Pred
	// Opaque handle types of texture, sampler and surface variables.
	TexRef
	SamplerRef
	SurfRef
)

// Types are the type directives by their PTX spelling (".f32"): the one
// table of type names.
var Types = map[string]Type{
	".b8": B8, ".b16": B16, ".b32": B32, ".b64": B64, ".b128": B128,
	".u8": U8, ".u16": U16, ".u32": U32, ".u64": U64,
	".s8": S8, ".s16": S16, ".s32": S32, ".s64": S64,
	".f16": F16, ".f16x2": F16x2, ".bf16": BF16, ".bf16x2": BF16x2,
	".f32": F32, ".f64": F64, ".tf32": TF32, ".pred": Pred,
	".texref": TexRef, ".samplerref": SamplerRef, ".surfref": SurfRef,
}

// ByName is the data type an instruction modifier names, without its dot
// ("f32", "b16", "pred"); the opaque types (.texref, .samplerref, .surfref)
// are not instruction types.
func ByName(name string) (Type, bool) {
	t, ok := bareTypes[name]
	return t, ok
}

var bareTypes = func() map[string]Type {
	m := make(map[string]Type, len(Types))
	for name, t := range Types {
		if t == TexRef || t == SamplerRef || t == SurfRef {
			continue
		}
		m[strings.TrimPrefix(name, ".")] = t
	}
	return m
}()

var typeNames = func() []string {
	names := make([]string, SurfRef+1)
	for name, t := range Types {
		names[t] = name
	}
	return names
}()

var spaceNames = [...]string{
	SpaceReg: ".reg", SpaceSReg: ".sreg", SpaceConst: ".const", SpaceGlobal: ".global", SpaceLocal: ".local",
	SpaceParam: ".param", SpaceShared: ".shared", SpaceTex: ".tex", SpaceGeneric: ".generic",
}

// Spaces are the state-space directives a declaration takes, by their PTX
// spelling (".shared"): every space but the generic one, which names
// addressing, not storage.
var Spaces = func() map[string]Space {
	m := make(map[string]Space, len(spaceNames))
	for s, name := range spaceNames {
		if name != "" && Space(s) != SpaceGeneric {
			m[name] = Space(s)
		}
	}
	return m
}()

// String is the PTX spelling of the type (".f32").
func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return ".type(" + strconv.Itoa(int(t)) + ")"
}

// String is the PTX spelling of the state space (".global").
func (s Space) String() string {
	if int(s) < len(spaceNames) && spaceNames[s] != "" {
		return spaceNames[s]
	}
	return ".space(" + strconv.Itoa(int(s)) + ")"
}
