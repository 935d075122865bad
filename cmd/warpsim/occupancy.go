package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/arch"
)

// occupancyFlags are the inputs of `warpsim occupancy`.
type occupancyFlags struct {
	arch        string
	custom      customArch
	block       int
	regs        int
	smem        int
	dynamicSmem int
	carveout    int
	asJSON      bool
	ptxFile     string
	kernel      string
	plotFile    string

	blockSet, regsSet, carveoutSet bool // the flag was given
}

func newOccupancyCmd(stdout, stderr io.Writer) *cobra.Command {
	var f occupancyFlags
	cmd := &cobra.Command{
		Use:   "occupancy --arch NAME --block N [--regs R] [--smem BYTES] [--dynamic-smem BYTES]",
		Short: "How many blocks and warps of a kernel an SM holds, and what limits it",
		Long: `Compute theoretical occupancy as cudaOccupancyMaxActiveBlocksPerMultiprocessor
does on the real device: active blocks and warps per SM, the occupancy, and the
resource that limits it (warps, registers, shared memory or blocks), with the
driver's allocation rules (registers per warp in units of 256, shared memory
rounded to its unit plus 1 KiB reserved per block from sm_80 on, the carveout).
Also prints cudaOccupancyMaxPotentialBlockSize's answer.

With --ptx FILE --kernel K the registers are estimated from the kernel's .reg
declarations (--regs overrides) and the static shared memory is read from the
PTX. --plot FILE.svg or FILE.png draws occupancy against block size, registers
per thread and shared memory per block, as NVIDIA's occupancy calculator does.`,
		Example: `  warpsim occupancy --arch h100 --block 256 --regs 32
  warpsim occupancy --arch g80 --block 256 --regs 16 --json
  warpsim occupancy --arch a100 --ptx reduce.ptx --kernel reduceNeighbored --block 512 --plot occ.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.carveoutSet = cmd.Flags().Changed("carveout")
			f.regsSet = cmd.Flags().Changed("regs")
			f.blockSet = cmd.Flags().Changed("block")
			return runOccupancy(stdout, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.arch, "arch", "h100", "GPU preset (see `warpsim archs`) or compute capability such as sm_80")
	addCustomArchFlags(fl, &f.custom)
	fl.IntVar(&f.block, "block", 0, "threads per block (default: cudaOccupancyMaxPotentialBlockSize's choice)")
	fl.IntVar(&f.regs, "regs", 0, "registers per thread, as ptxas allocates them")
	fl.IntVar(&f.smem, "smem", 0, "static shared memory per block in bytes")
	fl.IntVar(&f.dynamicSmem, "dynamic-smem", 0, "dynamic shared memory per block in bytes (the launch's third argument)")
	fl.IntVar(&f.carveout, "carveout", 0, "preferred shared memory carveout in percent (cudaFuncAttributePreferredSharedMemoryCarveout); sm_70 and later")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fl.StringVar(&f.ptxFile, "ptx", "", "read registers and static shared memory of --kernel from this PTX file")
	fl.StringVar(&f.kernel, "kernel", "", "kernel (.entry) in --ptx, by PTX or demangled name")
	fl.StringVar(&f.plotFile, "plot", "", "draw the occupancy charts to FILE.svg or FILE.png")
	return cmd
}

// occupancyQuery is a validated request.
type occupancyQuery struct {
	arch      *arch.Arch
	in        arch.OccupancyInput
	blockSet  bool   // the block size was given, not chosen
	regsFrom  string // where the register count came from: "--regs", "PTX estimate", "not given"
	kernel    string // PTX kernel name, when read from PTX
	ptxNotes  []string
	potential arch.PotentialBlockSize
	// noPotential is why cudaOccupancyMaxPotentialBlockSize finds no block
	// size ("" when it finds one).
	noPotential string
	result      arch.OccupancyResult
}

func runOccupancy(stdout io.Writer, f *occupancyFlags) error {
	q, err := buildOccupancyQuery(f)
	if err != nil {
		return err
	}
	if f.plotFile != "" {
		if err := writeOccupancyPlot(f.plotFile, q.arch, q.in); err != nil {
			return err
		}
	}
	if f.asJSON {
		return writeOccupancyJSON(stdout, q)
	}
	return writeOccupancyText(stdout, q)
}

// maxOccupancyInput bounds --block, --smem and --dynamic-smem.
const maxOccupancyInput = 1 << 30

func buildOccupancyQuery(f *occupancyFlags) (*occupancyQuery, error) {
	a, err := f.custom.resolve(f.arch)
	if err != nil {
		return nil, badInput(err)
	}
	q := &occupancyQuery{arch: a, blockSet: f.blockSet}
	switch {
	case f.regs < 0:
		return nil, badInputf("--regs %d: registers per thread cannot be negative", f.regs)
	case f.regs > a.RegsPerThread:
		return nil, badInputf("--regs %d: %s allows at most %d registers per thread", f.regs, a.SMName(), a.RegsPerThread)
	case f.smem < 0:
		return nil, badInputf("--smem %d: shared memory cannot be negative", f.smem)
	case f.dynamicSmem < 0:
		return nil, badInputf("--dynamic-smem %d: shared memory cannot be negative", f.dynamicSmem)
	case f.carveoutSet && (f.carveout < 0 || f.carveout > 100):
		return nil, badInputf("--carveout %d: a percentage from 0 to 100", f.carveout)
	case f.blockSet && f.block <= 0:
		return nil, badInputf("--block %d: a block needs at least one thread", f.block)
	// Sizes far beyond any GPU's (a block or shared memory over 2^30) are
	// refused: the text and JSON made of them were garbage.
	case f.block > maxOccupancyInput:
		return nil, badInputf("--block %d: far beyond any GPU's limit (at most %d accepted; an H100 allows 1024)", f.block, maxOccupancyInput)
	case f.smem > maxOccupancyInput:
		return nil, badInputf("--smem %d: far beyond any GPU's shared memory (at most %d accepted)", f.smem, maxOccupancyInput)
	case f.dynamicSmem > maxOccupancyInput:
		return nil, badInputf("--dynamic-smem %d: far beyond any GPU's shared memory (at most %d accepted)", f.dynamicSmem, maxOccupancyInput)
	case f.kernel != "" && f.ptxFile == "":
		return nil, badInputf("--kernel needs --ptx FILE")
	case f.ptxFile != "" && f.kernel == "":
		return nil, badInputf("--ptx needs --kernel NAME")
	}
	q.in = arch.OccupancyInput{BlockSize: f.block, RegsPerThread: f.regs, StaticShared: f.smem, DynamicShared: f.dynamicSmem}
	if f.carveoutSet {
		q.in.Carveout = arch.CarveoutPercent(f.carveout)
	}
	q.regsFrom = "--regs"
	if !f.regsSet {
		q.regsFrom = "not given"
	}
	if f.ptxFile != "" {
		k, err := kernelResourcesFromPTX(a, f.ptxFile, f.kernel)
		if err != nil {
			return nil, badInput(err)
		}
		q.kernel = k.name
		if !f.regsSet {
			q.in.RegsPerThread = k.regs
			q.regsFrom = "PTX estimate"
			q.ptxNotes = append(q.ptxNotes, fmt.Sprintf("registers estimated from the PTX as warpsim's launches take them: the most register values live at once, "+
				"capped as ptxas caps them (%d; the .reg declarations name %d); ptxas's real allocation may differ: give it with --regs",
				k.regs, k.declared))
		}
		if f.smem != 0 {
			q.ptxNotes = append(q.ptxNotes, fmt.Sprintf("--smem %d added to the PTX's %d bytes of static shared memory", f.smem, k.staticShared))
		}
		q.in.StaticShared += k.staticShared
	}
	// A block that cannot launch (too many threads, too much shared memory,
	// too many registers) gets 0 blocks per SM and the reason, as
	// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers 0 with
	// cudaSuccess (arch/testdata/limits); it is not an error.
	p, err := a.MaxPotentialBlockSize(q.in, nil, 0)
	if err != nil {
		q.noPotential = err.Error()
		if !f.blockSet {
			q.in.BlockSize = a.WarpSize
			q.ptxNotes = append(q.ptxNotes, fmt.Sprintf("no block size can launch; shown for a block of %d threads", a.WarpSize))
		}
	} else {
		q.potential = p
		if !f.blockSet {
			q.in.BlockSize = p.BlockSize
		}
	}
	q.result = a.Occupancy(q.in)
	return q, nil
}

// plural is "1 block", "2 blocks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func limitString(n int) string {
	if n == arch.Unlimited {
		return "-"
	}
	return fmt.Sprint(n)
}

func writeOccupancyText(w io.Writer, q *occupancyQuery) error {
	a, in, r := q.arch, q.in, q.result
	var b strings.Builder
	fmt.Fprintf(&b, "arch        %s: %s, %s, %d SMs\n", a.Name, a.FullName, a.SMName(), a.SMs)
	if q.kernel != "" {
		fmt.Fprintf(&b, "kernel      %s\n", q.kernel)
	}
	chosen := ""
	if !q.blockSet {
		chosen = " (cudaOccupancyMaxPotentialBlockSize's choice; give --block to set it)"
	}
	fmt.Fprintf(&b, "block       %d threads = %d warps%s\n", in.BlockSize, r.WarpsPerBlock, chosen)
	switch {
	case q.regsFrom == "not given":
		fmt.Fprintf(&b, "registers   not given (--regs): no register limit\n")
	case a.RegAllocPerBlock:
		fmt.Fprintf(&b, "registers   %d per thread → %d per block (allocated per block in units of %d)\n",
			in.RegsPerThread, r.RegsPerBlock, a.RegAllocUnit)
	default:
		fmt.Fprintf(&b, "registers   %d per thread → %d per warp (unit %d) → %d per block\n",
			in.RegsPerThread, r.RegsPerWarp, a.RegAllocUnit, r.RegsPerBlock)
	}
	fmt.Fprintf(&b, "shared      %d static + %d dynamic", in.StaticShared, in.DynamicShared)
	if a.ReservedSharedPerBlock > 0 {
		fmt.Fprintf(&b, " + %d reserved", a.ReservedSharedPerBlock)
	}
	fmt.Fprintf(&b, " → %d bytes per block (unit %d)\n", r.SharedPerBlock, a.SharedAllocUnit)

	fmt.Fprintf(&b, "\nblocks per SM allowed by\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  warps\t%s\t(%d warps per SM)\n", limitString(r.BlockLimitWarps), a.MaxWarpsPerSM)
	fmt.Fprintf(tw, "  registers\t%s\t(%d per SM)\n", limitString(r.BlockLimitRegs), a.RegsPerSM)
	fmt.Fprintf(tw, "  shared memory\t%s\t(%d bytes per SM)\n", limitString(r.BlockLimitShared), r.SharedAvailable)
	fmt.Fprintf(tw, "  blocks\t%s\t(%d per SM)\n", limitString(r.BlockLimitBlocks), a.MaxBlocksPerSM)
	tw.Flush()

	fmt.Fprintf(&b, "\nactive      %s = %d warps = %d threads per SM\n", plural(r.BlocksPerSM, "block"), r.WarpsPerSM, r.ThreadsPerSM)
	if r.Launchable() {
		fmt.Fprintf(&b, "occupancy   %.1f%% (%d of %d warps), limited by %s\n", 100*r.Occupancy, r.WarpsPerSM, a.MaxWarpsPerSM, r.LimitNames())
	} else {
		fmt.Fprintf(&b, "occupancy   0%%: the block cannot launch: %s\n", r.Reason)
	}
	if a.SharedCarveoutsKiB != nil {
		fmt.Fprintf(&b, "carveout    %s of shared memory configured per SM\n", kibString(r.SharedCapacity))
	}
	if q.noPotential != "" {
		fmt.Fprintf(&b, "\ncudaOccupancyMaxPotentialBlockSize: block 0, min grid 0 (%s)\n", q.noPotential)
	} else {
		fmt.Fprintf(&b, "\ncudaOccupancyMaxPotentialBlockSize: block %d, min grid %d (%s per SM × %d SMs, %.1f%%)\n",
			q.potential.BlockSize, q.potential.MinGridSize, plural(q.potential.BlocksPerSM, "block"), a.SMs, 100*q.potential.Occupancy)
	}
	for _, n := range append(append([]string(nil), q.ptxNotes...), r.Notes...) {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// occupancyJSON is `warpsim occupancy --json`'s document. Limits that do not
// bind are null.
type occupancyJSON struct {
	Arch            string      `json:"arch"`
	Kernel          string      `json:"kernel,omitempty"`
	BlockSize       int         `json:"block_size"`
	BlockSizeChosen bool        `json:"block_size_chosen"`
	RegsPerThread   int         `json:"regs_per_thread"`
	RegsSource      string      `json:"regs_source"`
	StaticShared    int         `json:"static_shared"`
	DynamicShared   int         `json:"dynamic_shared"`
	CarveoutPercent *int        `json:"carveout_percent"`
	WarpsPerBlock   int         `json:"warps_per_block"`
	RegsPerWarp     int         `json:"regs_per_warp"`
	RegsPerBlock    int         `json:"regs_per_block"`
	SharedPerBlock  int         `json:"shared_per_block"`
	BlockLimits     blockLimits `json:"block_limits"`
	BlocksPerSM     int         `json:"blocks_per_sm"`
	WarpsPerSM      int         `json:"warps_per_sm"`
	ThreadsPerSM    int         `json:"threads_per_sm"`
	Occupancy       float64     `json:"occupancy"`
	LimitedBy       []string    `json:"limited_by"`
	// CannotLaunch is why blocks_per_sm is 0 ("" when a block launches).
	CannotLaunch   string        `json:"cannot_launch,omitempty"`
	SharedCapacity int           `json:"shared_capacity"`
	Potential      potentialJSON `json:"potential"`
	Notes          []string      `json:"notes"`
}

type blockLimits struct {
	Warps        *int `json:"warps"`
	Registers    *int `json:"registers"`
	SharedMemory *int `json:"shared_memory"`
	Blocks       *int `json:"blocks"`
}

type potentialJSON struct {
	BlockSize   int     `json:"block_size"`
	MinGridSize int     `json:"min_grid_size"`
	BlocksPerSM int     `json:"blocks_per_sm"`
	Occupancy   float64 `json:"occupancy"`
}

func limitPtr(n int) *int {
	if n == arch.Unlimited {
		return nil
	}
	return &n
}

func writeOccupancyJSON(w io.Writer, q *occupancyQuery) error {
	r := q.result
	doc := occupancyJSON{
		Arch: q.arch.Name, Kernel: q.kernel, BlockSize: q.in.BlockSize, BlockSizeChosen: !q.blockSet,
		RegsPerThread: q.in.RegsPerThread, RegsSource: q.regsFrom,
		StaticShared: q.in.StaticShared, DynamicShared: q.in.DynamicShared,
		WarpsPerBlock: r.WarpsPerBlock, RegsPerWarp: r.RegsPerWarp, RegsPerBlock: r.RegsPerBlock,
		SharedPerBlock: r.SharedPerBlock,
		BlockLimits: blockLimits{
			Warps: limitPtr(r.BlockLimitWarps), Registers: limitPtr(r.BlockLimitRegs),
			SharedMemory: limitPtr(r.BlockLimitShared), Blocks: limitPtr(r.BlockLimitBlocks),
		},
		BlocksPerSM: r.BlocksPerSM, WarpsPerSM: r.WarpsPerSM, ThreadsPerSM: r.ThreadsPerSM,
		Occupancy:      roundTo(r.Occupancy, 4),
		SharedCapacity: r.SharedCapacity,
		Potential: potentialJSON{BlockSize: q.potential.BlockSize, MinGridSize: q.potential.MinGridSize,
			BlocksPerSM: q.potential.BlocksPerSM, Occupancy: roundTo(q.potential.Occupancy, 4)},
		Notes:        append(append([]string{}, q.ptxNotes...), r.Notes...),
		CannotLaunch: r.Reason,
	}
	if p, ok := q.in.Carveout.Percent(); ok {
		doc.CarveoutPercent = &p
	}
	for _, l := range r.Limits {
		doc.LimitedBy = append(doc.LimitedBy, l.String())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// roundTo rounds x to n decimal places, so JSON shows 0.6667, not 0.6666666666666666.
func roundTo(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	return float64(int64(x*p+0.5)) / p
}
