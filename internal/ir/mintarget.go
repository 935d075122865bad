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

// minTarget refuses an instruction the module's .target is too old for.
func (c *checker) minTarget(in *ptx.Instr) {
	min, ok := instrMinSM[in.Op]
	if !ok {
		return
	}
	if sm := targetSM(c.m); sm > 0 && sm < min {
		c.errorf(in.Pos, "%s needs .target sm_%d or later; the module's is sm_%d "+
			"(ptxas: Instruction '%s' requires .target sm_%d or higher)", opText(in), min, sm, in.Op, min)
	}
}
