package main

import (
	"fmt"
	"os"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/ptx"
)

// ptxKernelResources is what the occupancy calculator needs of a kernel,
// read from its PTX.
type ptxKernelResources struct {
	name         string
	regs         int // registers per thread, as warpsim's launches take them (Kernel.RegsPerThread)
	declared     int // 32-bit-equivalent registers declared with .reg
	staticShared int // bytes of .shared variables the kernel declares or uses
}

// kernelResourcesFromPTX parses file and finds kernel (an .entry, by PTX
// name) for a GPU a. The register count is an estimate, the one warpsim's
// launches use (Kernel.RegsPerThread): the most 32-bit register values live
// at once, capped by .maxnreg, the GPU's limit and the kernel's bound on
// threads per block, as ptxas caps its allocation
// (TestOccupancyPTXRegistersNearPtxas holds it to ptxas's counts). The sum
// of the .reg declarations (a 64-bit register is two, predicates none) is
// kept for the note: nvcc's PTX numbers virtual registers freely, so it is
// several times what ptxas allocates. Static shared memory is the size of
// every .shared variable declared in the kernel or at module scope and named
// by one of its instructions, each placed at its alignment, as ptxas lays
// them out.
func kernelResourcesFromPTX(a *arch.Arch, file, kernel string) (ptxKernelResources, error) {
	var res ptxKernelResources
	// A PTX file, not an endless stream (/dev/zero was read forever).
	if err := cc.CheckSource(file); err != nil {
		return res, err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return res, err
	}
	m, err := ptx.Parse(file, src)
	if err != nil {
		return res, err
	}
	var fn *ptx.Func
	var entries []string
	for _, f := range m.Funcs {
		if !f.Entry || !f.HasBody {
			continue
		}
		entries = append(entries, f.Name)
		if f.Name == kernel {
			fn = f
		}
	}
	if fn == nil {
		for _, f := range m.Funcs {
			if f.Entry && f.HasBody && demangledBaseName(f.Name) == kernel {
				fn = f
			}
		}
	}
	if fn == nil {
		return res, fmt.Errorf("%s: no kernel %q; kernels: %v", file, kernel, entries)
	}
	res.name = fn.Name

	used := map[string]bool{}
	var shared []*ptx.Var
	var walk func(stmts []ptx.Stmt)
	walk = func(stmts []ptx.Stmt) {
		for _, s := range stmts {
			switch s.Kind {
			case ptx.StmtDecl:
				switch s.Decl.Space {
				case ptx.SpaceReg:
					res.declared += regWords(s.Decl)
				case ptx.SpaceShared:
					shared = append(shared, s.Decl)
				}
			case ptx.StmtBlock:
				walk(s.Block)
			case ptx.StmtInstr:
				for _, o := range s.Instr.Operands {
					markSymbols(o, used)
				}
			}
		}
	}
	walk(fn.Body)
	for _, v := range m.Vars {
		if v.Space == ptx.SpaceShared && used[v.Name] {
			shared = append(shared, v)
		}
	}
	for _, v := range shared {
		align := max(v.Align, typeBytes(v.Type))
		res.staticShared = alignUp(res.staticShared, align) + varBytes(v)
	}
	if res.regs, err = warpsim.RegsPerThreadOn(a, file, src, fn.Name); err != nil {
		return res, err
	}
	return res, nil
}

// markSymbols records every name an operand mentions.
func markSymbols(o ptx.Operand, used map[string]bool) {
	if o.Name != "" {
		used[o.Name] = true
	}
	for _, e := range o.Elems {
		markSymbols(e, used)
	}
}

// regWords is the number of 32-bit registers a .reg declaration takes.
func regWords(v *ptx.Var) int {
	n := max(v.RegRange, 1)
	words := 1
	switch b := typeBytes(v.Type); {
	case v.Type == ptx.Pred:
		return 0
	case b > 4:
		words = b / 4
	}
	return n * words * max(v.Vector, 1)
}

// varBytes is the size of a variable; an unsized array ("extern .shared
// .b8 buf[]", dynamic shared memory) has none.
func varBytes(v *ptx.Var) int {
	n := typeBytes(v.Type) * max(v.Vector, 1)
	for _, d := range v.Dims {
		n *= d
	}
	return n
}

func typeBytes(t ptx.Type) int {
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
	return 1
}

func alignUp(x, a int) int {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

// demangledBaseName returns the bare function name of an Itanium-mangled
// C++ name ("_Z6vecAddPfS_S_i" → "vecAdd"), or "" when name is not one.
func demangledBaseName(name string) string {
	if len(name) < 3 || name[:2] != "_Z" {
		return ""
	}
	i, n := 2, 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		n = n*10 + int(name[i]-'0')
		i++
	}
	if n == 0 || i+n > len(name) {
		return ""
	}
	return name[i : i+n]
}
