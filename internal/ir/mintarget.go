package ir

import (
	"slices"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// targetRule is one thing ptxas refuses under a .target too old for it:
// an instruction, a form of one, a modifier or a special register, in
// ptxas's own words. match says whether instruction in uses it. With
// arch, it is one of sm_90a's architecture-specific features, which no
// other target has (ptxas: "Instruction 'wgmma.fence' not supported on
// .target 'sm_90'"); otherwise it needs .target sm_<sm> or later (ptxas:
// "<kind> '<name>' requires .target sm_90 or higher").
type targetRule struct {
	sm    int
	arch  bool
	kind  string // "Feature", "Modifier" or "Instruction"
	name  string
	match func(in *ptx.Instr) bool
}

// targetRules are the rules, each as ptxas gave it on the H100's CUDA 13
// (testdata/ptxas/sm90only: one PTX per sm_90 form under .target sm_80,
// sm_90 and sm_90a; testdata/triton3/ptxas and triton4/ptxas: Triton's
// PTX). An instruction gets every rule it matches, in this order, as
// ptxas gives every message of a line (cp.async.bulk.tensor …
// .tile.mbarrier::complete_tx::bytes: 'cp.async.bulk.tensor', '.tile',
// '.mbarrier::complete_tx::bytes'). Names of forms ptxas was not shown
// (mbarrier.try_wait without .parity, mbarrier.complete_tx, im2col
// tensor copies, integer wgmma) follow the recorded ones.
var targetRules = []targetRule{
	{90, false, "Modifier", ".wait", opMod("griddepcontrol", "wait")},
	{90, false, "Modifier", ".launch_dependents", opMod("griddepcontrol", "launch_dependents")},
	{90, false, "Instruction", "griddepcontrol", opMod("griddepcontrol", "")},
	{89, false, "Feature", "cvt with .e4m3x2/.e5m2x2", func(in *ptx.Instr) bool {
		return in.Op == "cvt" && (slices.Contains(in.Mods, "e4m3x2") || slices.Contains(in.Mods, "e5m2x2"))
	}},
	{90, false, "Feature", ".m16n8k4 with double types", mmaF64("m16n8k4")},
	{90, false, "Feature", ".m16n8k8 with double types", mmaF64("m16n8k8")},
	{90, false, "Feature", ".m16n8k16 with double types", mmaF64("m16n8k16")},
	{90, false, "Feature", "barrier.cluster.arrive", opMods("barrier", "cluster", "arrive")},
	{90, false, "Feature", "barrier.cluster.wait", opMods("barrier", "cluster", "wait")},
	{90, false, "Feature", "cp.async.bulk.commit_group", opMods("cp", "async", "bulk", "commit_group")},
	{90, false, "Feature", "cp.async.bulk.wait_group", opMods("cp", "async", "bulk", "wait_group")},
	{90, false, "Feature", "cp.async.bulk.tensor", func(in *ptx.Instr) bool {
		return in.Op == "cp" && hasMods(in, "async", "bulk", "tensor") && !slices.Contains(in.Mods, "reduce")
	}},
	{90, false, "Feature", "cp.async.bulk", func(in *ptx.Instr) bool {
		return in.Op == "cp" && hasMods(in, "async", "bulk") && !slices.Contains(in.Mods, "reduce") &&
			!hasAny(in, "tensor", "commit_group", "wait_group")
	}},
	{90, false, "Feature", "cp.reduce.async.bulk.tensor", opMods("cp", "reduce", "async", "bulk", "tensor")},
	{90, false, "Feature", "cp.reduce.async.bulk", func(in *ptx.Instr) bool {
		return in.Op == "cp" && hasMods(in, "reduce", "async", "bulk") && !slices.Contains(in.Mods, "tensor")
	}},
	{90, false, "Feature", ".tile", opMods("cp", "bulk", "tensor", "tile")},
	{90, false, "Feature", ".im2col", opMods("cp", "bulk", "tensor", "im2col")},
	{90, false, "Feature", "elect", opMod("elect", "")},
	{90, false, "Feature", "mapa", opMod("mapa", "")},
	{90, false, "Feature", "mbarrier.arrive.expect_tx", opMods("mbarrier", "arrive", "expect_tx")},
	{90, false, "Feature", "mbarrier.expect_tx", func(in *ptx.Instr) bool {
		return in.Op == "mbarrier" && len(in.Mods) > 0 && in.Mods[0] == "expect_tx"
	}},
	{90, false, "Feature", "mbarrier.complete_tx", opMods("mbarrier", "complete_tx")},
	{90, false, "Feature", "mbarrier.try_wait.parity", opMods("mbarrier", "try_wait", "parity")},
	{90, false, "Feature", "mbarrier.try_wait", func(in *ptx.Instr) bool {
		return in.Op == "mbarrier" && slices.Contains(in.Mods, "try_wait") && !slices.Contains(in.Mods, "parity")
	}},
	{90, false, "Feature", "multimem.ld_reduce", opMod("multimem", "ld_reduce")},
	{90, false, "Feature", "multimem.st", opMod("multimem", "st")},
	{90, false, "Feature", "multimem.red", opMod("multimem", "red")},
	{90, false, "Feature", "red.async", opMod("red", "async")},
	{90, false, "Feature", "st.async", opMod("st", "async")},
	{90, false, "Feature", "stmatrix", opMod("stmatrix", "")},
	// a memory access to another block of the cluster (the bulk copies
	// name their own feature instead)
	{90, false, "Feature", "::cluster", func(in *ptx.Instr) bool {
		return (in.Op == "ld" || in.Op == "st" || in.Op == "red" || in.Op == "atom" || in.Op == "mapa") &&
			slices.Contains(in.Mods, "shared::cluster")
	}},
	{90, false, "Feature", ".op_restrict", opMod("fence", "mbarrier_init")},
	{90, false, "Modifier", ".mbarrier_init", opMod("fence", "mbarrier_init")},
	{90, false, "Modifier", ".async", opMods("fence", "proxy", "async")},
	{90, false, "Feature", ".mbarrier::complete_tx::bytes", func(in *ptx.Instr) bool {
		return slices.Contains(in.Mods, "mbarrier::complete_tx::bytes")
	}},
	{90, false, "Feature", ".bulk_group", func(in *ptx.Instr) bool { return slices.Contains(in.Mods, "bulk_group") }},
	// .cluster as the scope of a memory operation or fence
	{90, false, "Feature", ".cluster scope", func(in *ptx.Instr) bool {
		return (in.Op == "red" || in.Op == "atom" || in.Op == "ld" || in.Op == "st" || in.Op == "fence") &&
			slices.Contains(in.Mods, "cluster")
	}},
	{90, true, "Instruction", "wgmma.fence", opMod("wgmma", "fence")},
	{90, true, "Instruction", "wgmma.commit_group", opMod("wgmma", "commit_group")},
	{90, true, "Instruction", "wgmma.wait_group", opMod("wgmma", "wait_group")},
	{90, true, "Instruction", "wgmma.mma_async with floating point types", func(in *ptx.Instr) bool {
		return in.Op == "wgmma" && len(in.Mods) > 0 && strings.HasPrefix(in.Mods[0], "mma_async") && !wgmmaInteger(in)
	}},
	{90, true, "Instruction", "wgmma.mma_async with integer types", func(in *ptx.Instr) bool {
		return in.Op == "wgmma" && len(in.Mods) > 0 && strings.HasPrefix(in.Mods[0], "mma_async") && wgmmaInteger(in)
	}},
	{90, true, "Instruction", "setmaxnreg.inc", opMod("setmaxnreg", "inc")},
	{90, true, "Instruction", "setmaxnreg.dec", opMod("setmaxnreg", "dec")},
}

// clusterSregs are the special registers ptxas refuses below sm_90
// ("Feature '%clusterid' requires .target sm_90 or higher").
var clusterSregs = []string{"%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
	"%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster"}

// opMod matches op whose first modifier is mod ("" for any).
func opMod(op, mod string) func(*ptx.Instr) bool {
	return func(in *ptx.Instr) bool {
		return in.Op == op && (mod == "" || len(in.Mods) > 0 && in.Mods[0] == mod)
	}
}

// opMods matches op with every one of mods.
func opMods(op string, mods ...string) func(*ptx.Instr) bool {
	return func(in *ptx.Instr) bool { return in.Op == op && hasMods(in, mods...) }
}

func hasMods(in *ptx.Instr, mods ...string) bool {
	for _, m := range mods {
		if !slices.Contains(in.Mods, m) {
			return false
		}
	}
	return true
}

func hasAny(in *ptx.Instr, mods ...string) bool {
	for _, m := range mods {
		if slices.Contains(in.Mods, m) {
			return true
		}
	}
	return false
}

// mmaF64 matches mma.sync of shape with f64 operands.
func mmaF64(shape string) func(*ptx.Instr) bool {
	return func(in *ptx.Instr) bool {
		return in.Op == "mma" && slices.Contains(in.Mods, shape) && slices.Contains(in.Mods, "f64")
	}
}

// wgmmaInteger: wgmma.mma_async on s8/u8 or b1.
func wgmmaInteger(in *ptx.Instr) bool {
	return hasAny(in, "s8", "u8", "b1", "s32")
}

// targetName is the module's sm_XX target ("sm_90a"), "" when it names none.
func targetName(m *ptx.Module) string {
	for _, t := range m.Target {
		if strings.HasPrefix(t, "sm_") {
			return t
		}
	}
	return ""
}

// targetSM is the module's sm_XX target as a number (sm_90a is 90); 0 when
// it names none.
func targetSM(m *ptx.Module) int {
	s, ok := strings.CutPrefix(targetName(m), "sm_")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyz"))
	if err != nil {
		return 0
	}
	return n
}

// minTarget refuses what in uses that the module's .target is too old
// for, with every message ptxas gives for it.
func (c *checker) minTarget(in *ptx.Instr) {
	name := targetName(c.m)
	sm := targetSM(c.m)
	if sm == 0 {
		return
	}
	for _, r := range targetRules {
		if !r.match(in) {
			continue
		}
		switch {
		case r.arch && sm < 90:
			c.errorf(in.Pos, "%s needs .target sm_90a, whose architecture-specific features it is; the module's is %s "+
				"(ptxas: %s '%s' not supported on .target '%s')", opText(in), name, r.kind, r.name, name)
		case !r.arch && sm < r.sm:
			c.errorf(in.Pos, "%s needs .target sm_%d or later; the module's is %s "+
				"(ptxas: %s '%s' requires .target sm_%d or higher)", opText(in), r.sm, name, r.kind, r.name, r.sm)
		}
	}
	if sm >= 90 {
		return
	}
	for _, o := range in.Operands {
		if o.Kind != ptx.OpdReg {
			continue
		}
		reg, _, _ := strings.Cut(o.Name, ".")
		if slices.Contains(clusterSregs, reg) {
			c.errorf(o.Pos, "%s needs .target sm_90 or later; the module's is %s "+
				"(ptxas: Feature '%s' requires .target sm_90 or higher)", o.Name, name, reg)
		}
	}
}
