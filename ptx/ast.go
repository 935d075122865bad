// Package ptx parses PTX assembly, as nvcc (CUDA 11–13) and clang (16–22)
// emit it, into a syntax tree. It knows PTX's syntax, not its semantics:
// an instruction is an opcode, its dot-modifiers in order and its operands;
// which combinations are valid is decided when the tree is lowered
// (internal/ir), which reports its own positioned errors.
//
// Errors are positioned (file:line:col), collected in an ErrorList, and no
// input makes the parser panic.
package ptx

import "github.com/warpsim/warpsim/ptx/ptxtype"

// Pos is a byte offset into a File plus one; 0 means "no position".
// It is resolved to a line and column only when printed (File.Position).
type Pos int32

// NoPos is the zero Pos.
const NoPos Pos = 0

// Module is one parsed PTX file.
type Module struct {
	File        *File
	Version     string   // ".version 9.0" → "9.0"
	Target      []string // ".target sm_90, debug" → ["sm_90", "debug"]
	AddressSize int      // 32 or 64; 64 when absent

	// Positions of the .version, .target and .address_size directives;
	// NoPos when absent (a repeated directive keeps the first).
	VersionPos, TargetPos, AddressSizePos Pos

	// SourceFiles maps the index of a ".file N "path"" directive to its path.
	SourceFiles map[int]string
	// Inlines are the inlining records of .loc directives (Loc.Inlined
	// indexes them); InlineNames maps a label of ".section .debug_str" to
	// the string there (a function's mangled name), as nvcc writes them.
	Inlines     []Inline
	InlineNames map[string]string

	Vars  []*Var  // module-scope variables (.global, .const, .shared, .local), in order
	Funcs []*Func // .entry and .func definitions and declarations, in order
}

// Space and Type are PTX's state spaces and fundamental types, defined in
// package ptxtype so that the back end names them without the parser.
type (
	Space = ptxtype.Space
	Type  = ptxtype.Type
)

const (
	SpaceNone    = ptxtype.SpaceNone
	SpaceReg     = ptxtype.SpaceReg
	SpaceSReg    = ptxtype.SpaceSReg
	SpaceConst   = ptxtype.SpaceConst
	SpaceGlobal  = ptxtype.SpaceGlobal
	SpaceLocal   = ptxtype.SpaceLocal
	SpaceParam   = ptxtype.SpaceParam
	SpaceShared  = ptxtype.SpaceShared
	SpaceTex     = ptxtype.SpaceTex
	SpaceGeneric = ptxtype.SpaceGeneric
)

const (
	TypeNone   = ptxtype.TypeNone
	B8         = ptxtype.B8
	B16        = ptxtype.B16
	B32        = ptxtype.B32
	B64        = ptxtype.B64
	B128       = ptxtype.B128
	U8         = ptxtype.U8
	U16        = ptxtype.U16
	U32        = ptxtype.U32
	U64        = ptxtype.U64
	S8         = ptxtype.S8
	S16        = ptxtype.S16
	S32        = ptxtype.S32
	S64        = ptxtype.S64
	F16        = ptxtype.F16
	F16x2      = ptxtype.F16x2
	BF16       = ptxtype.BF16
	BF16x2     = ptxtype.BF16x2
	F32        = ptxtype.F32
	F64        = ptxtype.F64
	TF32       = ptxtype.TF32
	Pred       = ptxtype.Pred
	TexRef     = ptxtype.TexRef
	SamplerRef = ptxtype.SamplerRef
	SurfRef    = ptxtype.SurfRef
)

// Linkage is a variable's or function's linking directive.
type Linkage uint8

const (
	LinkNone Linkage = iota
	LinkVisible
	LinkExtern
	LinkWeak
	LinkCommon
)

// Var is a variable, parameter or register declaration.
//
// "%r<16>" declares 16 registers %r0..%r15: Name "%r", RegRange 16.
// A plain ".reg .b32 %x;" has RegRange 0.
type Var struct {
	Pos      Pos
	Name     string
	Space    Space
	Type     Type
	Vector   int // 0 (scalar), 2, 4 or 8 (".v4")
	Align    int // ".align N"; 0 when absent
	Linkage  Linkage
	RegRange int
	// Dims are array dimensions; 0 for an unsized dimension ("[]").
	Dims []int
	// Ptr is set for kernel parameters marked ".ptr" (clang); PtrSpace and
	// PtrAlign are the ".ptr .global .align 4" details when present.
	Ptr      bool
	PtrSpace Space
	PtrAlign int
	// Init is the initializer list ("= {1, 2}" or "= 5"); nil when absent.
	Init []Init
}

// InitKind says what an initializer element is.
type InitKind uint8

const (
	InitInt     InitKind = iota // integer literal; Bits holds it (two's complement)
	InitFloat                   // float literal; Bits holds the IEEE bits, of the variable's type
	InitSymbol                  // address of Sym plus Offset
	InitGeneric                 // generic(Sym)+Offset: the generic address of Sym
)

// Init is one element of a variable initializer.
type Init struct {
	Pos    Pos
	Kind   InitKind
	Bits   uint64
	Sym    string
	Offset int64
	// Mask is set for LLVM's byte-wise address form "0xFF00(generic(x)+4)"
	// (a pointer stored at an unaligned offset of a .b8/.u8 array): the
	// element is (address(Sym)+Offset) & Mask, shifted right by the number
	// of trailing zero bits of Mask. 0 for ordinary elements.
	Mask uint64
}

// Func is a kernel (.entry) or device function (.func), defined or declared.
type Func struct {
	Pos      Pos
	Name     string
	Entry    bool
	Linkage  Linkage
	NoReturn bool
	Returns  []*Var // .func return parameters
	Params   []*Var
	// Performance directives; zero when absent.
	MaxNTID, ReqNTID      [3]int
	MinNCTAPerSM, MaxNReg int
	// Cluster directives (sm_90): .reqnctapercluster (the cluster shape
	// __cluster_dims__ asks for), .explicitcluster, .maxclusterrank.
	ReqNCTAPerCluster [3]int
	ExplicitCluster   bool
	MaxClusterRank    int
	// Body is nil for a declaration (".extern .func f(...);").
	Body    []Stmt
	HasBody bool
}

// StmtKind says which fields of a Stmt are used.
type StmtKind uint8

const (
	StmtInstr         StmtKind = iota // Instr
	StmtLabel                         // Label
	StmtDecl                          // Decl
	StmtBlock                         // Block: a nested "{ ... }" with its own scope
	StmtPragma                        // Text: the pragma string
	StmtProto                         // Label: a ".callprototype" named Label; Proto holds it
	StmtBranchTargets                 // Label: ".branchtargets" list named Label; Targets holds the labels
	StmtCallTargets                   // Label: ".calltargets" list named Label; Targets holds the functions
)

// Stmt is one statement of a function body. An instruction is only Kind,
// Pos and Instr (32 bytes: a big module has millions); every other kind
// carries its fields in StmtData, promoted, so st.Label reads as a field
// of a label statement. Instructions share one empty StmtData, so reading
// st.Block or st.Decl of any statement is safe; never write through it.
type Stmt struct {
	Kind  StmtKind
	Pos   Pos
	Instr *Instr
	*StmtData
}

// noStmtData is the StmtData of every instruction statement.
var noStmtData StmtData

// StmtData holds the fields of the statements that are not instructions.
type StmtData struct {
	Label string
	Text  string
	Decl  *Var
	Block []Stmt
	Proto *Func
	// Targets are the names listed by ".branchtargets" or ".calltargets".
	Targets []string
}

// Loc is the source position of the most recent ".loc" directive.
type Loc struct {
	File, Line, Col int // File indexes Module.SourceFiles; 0 when unknown
	// Inlined is 1 + the index in Module.Inlines of the function this
	// position lies in when a compiler inlined it (".loc 2 449 9,
	// function_name $L__info_string0, inlined_at 1 16 3"); 0 when it is the
	// enclosing function's own.
	Inlined int32
}

// Pos is the position without its inlining record.
func (l Loc) Pos() Loc { return Loc{File: l.File, Line: l.Line, Col: l.Col} }

// Inline is one inlining record of .loc: the inlined function, named by a
// label of ".section .debug_str" (Module.InlineNames), the position of the
// call it replaced, and the record of the inlined function that call lies
// in when inlining nested (1 + its index in Module.Inlines; 0 when the call
// is the enclosing function's own). nvcc writes a nested chain as one .loc
// per level, the outermost first, each inlined_at the position of the .loc
// before it:
//
//	.loc 1 41 3, function_name $L__info_string0, inlined_at 1 44 41
//	.loc 1 33 3, function_name $L__info_string1, inlined_at 1 41 3
//
// and a later ".loc 1 36 3, function_name $L__info_string1, inlined_at 1
// 41 3" alone continues the same chain: the parser finds the level whose
// position is the call's (parseLoc).
type Inline struct {
	Func   string // the label, "$L__info_string0"
	At     Loc
	Parent int32
}

// Instr is one instruction. "@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd4+8];"
// has Guard "%p1", GuardNeg true, Op "ld", Mods ["global" "nc" "v2" "f32"].
// Fields are ordered so the struct packs tightly: a big module has
// millions of them.
type Instr struct {
	Pos      Pos
	GuardNeg bool
	Guard    string // predicate register name, "" when unguarded
	Op       string
	Mods     []string // dot-modifiers in source order, without the dots
	Operands []Operand
	Loc      Loc
}

// OperandKind says which fields of an Operand are used.
type OperandKind uint8

const (
	OpdReg    OperandKind = iota // Name ("%r1", "%tid.x", "%p2"); Neg for "!%p2"
	OpdInt                       // integer literal; Bits
	OpdFloat                     // float literal "0f3F800000" (FloatBits 32) or "0d…" (64), or decimal; Bits
	OpdSym                       // Name: a label, variable, function; Offset for "sym+4"
	OpdAddr                      // "[base+offset]": Name is the base (register or symbol) or "" for "[imm]"; Offset; Elems for "[tex, {x, y}]" forms
	OpdVector                    // "{a, b, c, d}": Elems
	OpdList                      // "(a, b)": call argument or return lists; Elems
	OpdSink                      // "_"
	OpdPair                      // "%p|%q": setp's two outputs; Elems
)

// Operand is one instruction operand. Fields are ordered so the struct
// packs into 64 bytes.
type Operand struct {
	Pos       Pos
	Kind      OperandKind
	Neg       bool  // "!%p": a predicate's complement
	Minus     bool  // "-%r": a negated register (vmad's operands)
	FloatBits uint8 // 32 or 64 for OpdFloat
	Name      string
	Bits      uint64
	Offset    int64
	Elems     []Operand
}
