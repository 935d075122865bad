package ir

import "github.com/warpsim/warpsim/ptx"

// TypeSize is the size in bytes of a PTX fundamental type (1 for .pred).
func TypeSize(t ptx.Type) int {
	switch t {
	case ptx.B8, ptx.U8, ptx.S8, ptx.Pred:
		return 1
	case ptx.B16, ptx.U16, ptx.S16, ptx.F16, ptx.BF16:
		return 2
	case ptx.B32, ptx.U32, ptx.S32, ptx.F32, ptx.F16x2, ptx.BF16x2, ptx.TF32:
		return 4
	case ptx.B64, ptx.U64, ptx.S64, ptx.F64:
		return 8
	case ptx.B128:
		return 16
	}
	return 0
}

// IsSigned reports whether t is a signed integer type.
func IsSigned(t ptx.Type) bool { return t == ptx.S8 || t == ptx.S16 || t == ptx.S32 || t == ptx.S64 }

// IsFloat reports whether t is a floating-point type (packed ones included).
func IsFloat(t ptx.Type) bool {
	switch t {
	case ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2, ptx.F32, ptx.F64, ptx.TF32:
		return true
	}
	return false
}

var typeNames = map[string]ptx.Type{
	"b8": ptx.B8, "b16": ptx.B16, "b32": ptx.B32, "b64": ptx.B64, "b128": ptx.B128,
	"u8": ptx.U8, "u16": ptx.U16, "u32": ptx.U32, "u64": ptx.U64,
	"s8": ptx.S8, "s16": ptx.S16, "s32": ptx.S32, "s64": ptx.S64,
	"f16": ptx.F16, "f16x2": ptx.F16x2, "bf16": ptx.BF16, "bf16x2": ptx.BF16x2,
	"f32": ptx.F32, "f64": ptx.F64, "tf32": ptx.TF32, "pred": ptx.Pred,
}

var spaceNames = map[string]ptx.Space{
	"global": ptx.SpaceGlobal, "shared": ptx.SpaceShared, "local": ptx.SpaceLocal,
	"const": ptx.SpaceConst, "param": ptx.SpaceParam,
}

var cmpNames = map[string]uint8{
	"eq": CmpEq, "ne": CmpNe, "lt": CmpLt, "le": CmpLe, "gt": CmpGt, "ge": CmpGe,
	"lo": CmpLo, "ls": CmpLs, "hi": CmpHi, "hs": CmpHs,
	"equ": CmpEqu, "neu": CmpNeu, "ltu": CmpLtu, "leu": CmpLeu, "gtu": CmpGtu, "geu": CmpGeu,
	"num": CmpNum, "nan": CmpNan,
}

var rndNames = map[string]uint8{
	"rn": RndRN, "rz": RndRZ, "rm": RndRM, "rp": RndRP, "rna": RndRNA,
	"rni": RndRN, "rzi": RndRZ, "rmi": RndRM, "rpi": RndRP,
}

var atomNames = map[string]uint8{
	"add": AtomAdd, "min": AtomMin, "max": AtomMax, "and": AtomAnd, "or": AtomOr, "xor": AtomXor,
	"exch": AtomExch, "cas": AtomCas, "inc": AtomInc, "dec": AtomDec,
}

var sregNames = map[string]Sreg{
	"%tid.x": SregTidX, "%tid.y": SregTidY, "%tid.z": SregTidZ,
	"%ntid.x": SregNtidX, "%ntid.y": SregNtidY, "%ntid.z": SregNtidZ,
	"%ctaid.x": SregCtaidX, "%ctaid.y": SregCtaidY, "%ctaid.z": SregCtaidZ,
	"%nctaid.x": SregNctaidX, "%nctaid.y": SregNctaidY, "%nctaid.z": SregNctaidZ,
	"%laneid": SregLaneid, "%warpid": SregWarpid, "%nwarpid": SregNwarpid,
	"%smid": SregSmid, "%nsmid": SregNsmid, "%gridid": SregGridid,
	"%lanemask_eq": SregLanemaskEq, "%lanemask_lt": SregLanemaskLt, "%lanemask_le": SregLanemaskLe,
	"%lanemask_gt": SregLanemaskGt, "%lanemask_ge": SregLanemaskGe,
	"%clock": SregClock, "%clock64": SregClock64, "%globaltimer": SregGlobaltimer,
	"%globaltimer_lo": SregGlobaltimerLo, "%globaltimer_hi": SregGlobaltimerHi,
	"%dynamic_smem_size": SregDynamicSmemSize, "%total_smem_size": SregTotalSmemSize,
	"%pm0": SregPm, "%pm1": SregPm, "%pm2": SregPm, "%pm3": SregPm,
	"%pm4": SregPm, "%pm5": SregPm, "%pm6": SregPm, "%pm7": SregPm,
}

// LookupSreg resolves a special register name ("%tid.x").
func LookupSreg(name string) (Sreg, bool) {
	s, ok := sregNames[name]
	return s, ok
}
