package ir

import "github.com/warpsim/warpsim/ptx"

// TypeSize is the size in bytes of a PTX fundamental type (1 for .pred).
func TypeSize(t ptx.Type) int { return int(typeInfo[t&31].size) }

// IsSigned reports whether t is a signed integer type.
func IsSigned(t ptx.Type) bool { return typeInfo[t&31].signed }

// IsFloat reports whether t is a floating-point type (packed ones included).
func IsFloat(t ptx.Type) bool { return typeInfo[t&31].float }

type typeProps struct {
	size          uint8
	signed, float bool
}

// typeInfo is indexed by ptx.Type (masked to 5 bits so lookups need no bounds check).
var typeInfo = [32]typeProps{
	ptx.B8: {size: 1}, ptx.U8: {size: 1}, ptx.S8: {size: 1, signed: true}, ptx.Pred: {size: 1},
	ptx.B16: {size: 2}, ptx.U16: {size: 2}, ptx.S16: {size: 2, signed: true},
	ptx.F16: {size: 2, float: true}, ptx.BF16: {size: 2, float: true},
	ptx.B32: {size: 4}, ptx.U32: {size: 4}, ptx.S32: {size: 4, signed: true},
	ptx.F32: {size: 4, float: true}, ptx.F16x2: {size: 4, float: true}, ptx.BF16x2: {size: 4, float: true}, ptx.TF32: {size: 4, float: true},
	ptx.B64: {size: 8}, ptx.U64: {size: 8}, ptx.S64: {size: 8, signed: true}, ptx.F64: {size: 8, float: true},
	ptx.B128: {size: 16},
}

// spaceNames are the state-space modifiers a memory instruction takes
// (ld.global, st.shared), as parseMods reads them: not a table of the
// spaces' spellings, which is ptxtype's (Space.String).
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

var sregNames = withClusterSregs(withEnvregs(map[string]Sreg{
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
}))

// withEnvregs adds %envreg0 to %envreg31 to the special registers.
func withEnvregs(m map[string]Sreg) map[string]Sreg {
	for i := 0; i < 32; i++ {
		m["%envreg"+itoa(i)] = SregEnvreg
	}
	m["%envreg1"], m["%envreg2"] = SregEnvreg1, SregEnvreg2
	return m
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}

// LookupSreg resolves a special register name ("%tid.x").
func LookupSreg(name string) (Sreg, bool) {
	s, ok := sregNames[name]
	return s, ok
}
