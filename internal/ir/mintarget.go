package ir

import (
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// instrMinSM is the first sm_XX target ptxas accepts each instruction for,
// where warpsim has ptxas's verdict on record (testdata/triton3/ptxas:
// Triton's sm_80 PTX with griddepcontrol, "Instruction 'griddepcontrol'
// requires .target sm_90 or higher"). Other instructions are not checked
// against the target.
var instrMinSM = map[string]int{
	"griddepcontrol": 90,
}

// targetSM is the module's sm_XX target as a number (sm_90a is 90); 0 when
// it names none.
func targetSM(m *ptx.Module) int {
	for _, t := range m.Target {
		if s, ok := strings.CutPrefix(t, "sm_"); ok {
			s = strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyz")
			if n, err := strconv.Atoi(s); err == nil {
				return n
			}
		}
	}
	return 0
}

// modMinSM is, per instruction, the first sm_XX target ptxas accepts a
// type modifier of it for, with the feature's name in ptxas's message
// (testdata/triton4/ptxas: Triton's sm_80 PTX for an fp8 e5m2 store,
// "Feature 'cvt with .e4m3x2/.e5m2x2' requires .target sm_89 or higher";
// the PTX ISA's cvt lists both packed fp8 types as sm_89's).
var modMinSM = map[string]map[string]struct {
	sm      int
	feature string
}{
	"cvt": {
		"e4m3x2": {89, "cvt with .e4m3x2/.e5m2x2"},
		"e5m2x2": {89, "cvt with .e4m3x2/.e5m2x2"},
	},
}

// minTarget refuses an instruction the module's .target is too old for.
func (c *checker) minTarget(in *ptx.Instr) {
	sm := targetSM(c.m)
	if sm == 0 {
		return
	}
	if min, ok := instrMinSM[in.Op]; ok && sm < min {
		c.errorf(in.Pos, "%s needs .target sm_%d or later; the module's is sm_%d "+
			"(ptxas: Instruction '%s' requires .target sm_%d or higher)", opText(in), min, sm, in.Op, min)
		return
	}
	for _, mod := range in.Mods {
		if f, ok := modMinSM[in.Op][mod]; ok && sm < f.sm {
			c.errorf(in.Pos, "%s needs .target sm_%d or later; the module's is sm_%d "+
				"(ptxas: Feature '%s' requires .target sm_%d or higher)", opText(in), f.sm, sm, f.feature, f.sm)
			return
		}
	}
}
