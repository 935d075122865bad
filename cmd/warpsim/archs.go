package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/arch"
)

func newArchsCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON, keys bool
	var diff bool
	cmd := &cobra.Command{
		Use:   "archs",
		Short: "List the GPU architecture presets and their figures",
		Long: `List the GPU architecture presets: compute capability, SMs, the limits per SM
and per block that decide occupancy, allocation units, clocks, memory and caches.
Any name in the first column (or sm_XX) can be given to --arch.

--diff A B shows the figures that differ between two GPUs, each a preset or
an arch file (--arch-file); --keys lists the keys arch files and --set take.`,
		Example: `  warpsim archs --diff h100 my.yaml
  warpsim archs --keys`,
		Args: func(cmd *cobra.Command, args []string) error {
			if diff {
				return cobra.ExactArgs(2)(cmd, args)
			}
			return cobra.NoArgs(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if diff {
				return writeArchDiff(stdout, args[0], args[1])
			}
			if keys {
				return writeArchKeys(stdout)
			}
			if asJSON {
				return writeArchsJSON(stdout, arch.All())
			}
			return writeArchsTable(stdout, arch.All())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the presets as JSON")
	cmd.Flags().BoolVar(&diff, "diff", false, "show what differs between two GPUs: warpsim archs --diff h100 my.yaml")
	cmd.Flags().BoolVar(&keys, "keys", false, "list the keys arch files and --set take, with the H100's values")
	return cmd
}

func writeArchsTable(w io.Writer, archs []*arch.Arch) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCC\tGPU\tSMs\tthreads/SM\twarps/SM\tblocks/SM\tregs/SM\treg unit\tsmem/SM\tsmem/block\tsmem unit\tL2\tclock MHz\tDRAM GB/s")
	for _, a := range archs {
		unit := fmt.Sprintf("%d/warp", a.RegAllocUnit)
		if a.RegAllocPerBlock {
			unit = fmt.Sprintf("%d/block", a.RegAllocUnit)
		}
		block := kibString(a.SharedPerBlock)
		if a.SharedPerBlockOptin != a.SharedPerBlock {
			block += " (" + kibString(a.SharedPerBlockOptin) + ")"
		}
		fmt.Fprintf(tw, "%s\t%d.%d\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%d B\t%s\t%d\t%.0f\n",
			a.Name, a.Major, a.Minor, a.FullName, a.SMs, a.MaxThreadsPerSM, a.MaxWarpsPerSM, a.MaxBlocksPerSM,
			a.RegsPerSM, unit, kibString(a.SharedPerSM), block, a.SharedAllocUnit, sizeString(a.L2Bytes),
			a.ClockKHz/1000, a.MemBandwidth()/1e9)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "smem/block: default (opt-in maximum). From 8.0 on the driver reserves 1 KiB more per block.")
	return err
}

// kibString prints a byte count in KiB ("48 KiB", "0.5 KiB").
func kibString(b int) string {
	if b%1024 == 0 {
		return fmt.Sprintf("%d KiB", b/1024)
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/1024)
}

// sizeString prints a cache size: "-" for none, KiB below 1 MiB, else MiB.
func sizeString(b int) string {
	switch {
	case b == 0:
		return "-"
	case b < 1<<20:
		return kibString(b)
	case b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

// archJSON is a preset as `warpsim archs --json` prints it.
type archJSON struct {
	Name                      string  `json:"name"`
	FullName                  string  `json:"full_name"`
	Family                    string  `json:"family"`
	ComputeCapability         string  `json:"compute_capability"`
	SMs                       int     `json:"sms"`
	WarpSize                  int     `json:"warp_size"`
	MaxThreadsPerBlock        int     `json:"max_threads_per_block"`
	MaxBlockDim               [3]int  `json:"max_block_dim"`
	MaxGridDim                [3]int  `json:"max_grid_dim"`
	MaxThreadsPerSM           int     `json:"max_threads_per_sm"`
	MaxWarpsPerSM             int     `json:"max_warps_per_sm"`
	MaxBlocksPerSM            int     `json:"max_blocks_per_sm"`
	RegsPerSM                 int     `json:"regs_per_sm"`
	RegsPerBlock              int     `json:"regs_per_block"`
	RegsPerThread             int     `json:"max_regs_per_thread"`
	RegAllocUnit              int     `json:"reg_alloc_unit"`
	RegAllocGranularity       string  `json:"reg_alloc_granularity"`
	WarpAllocGranularity      int     `json:"warp_alloc_granularity"`
	SubPartitions             int     `json:"sub_partitions"`
	SharedPerSM               int     `json:"shared_per_sm"`
	SharedPerBlock            int     `json:"shared_per_block"`
	SharedPerBlockOptin       int     `json:"shared_per_block_optin"`
	ReservedSharedPerBlock    int     `json:"reserved_shared_per_block"`
	SharedAllocUnit           int     `json:"shared_alloc_unit"`
	SharedCarveoutsKiB        []int   `json:"shared_carveouts_kib"`
	ClockKHz                  int     `json:"clock_khz"`
	MemClockKHz               int     `json:"mem_clock_khz"`
	MemBusWidth               int     `json:"mem_bus_width"`
	MemBandwidthGBs           float64 `json:"mem_bandwidth_gbs"`
	L1SharedBytes             int     `json:"l1_shared_bytes"`
	L2Bytes                   int     `json:"l2_bytes"`
	TotalGlobalMem            uint64  `json:"total_global_mem"`
	ConstMem                  int     `json:"const_mem"`
	DevRuntimeMaxDepth        int     `json:"dev_runtime_max_depth"`
	DevRuntimeSyncDepth       int     `json:"dev_runtime_sync_depth"`
	DevRuntimePendingLaunches int     `json:"dev_runtime_pending_launches"`
}

func toArchJSON(a *arch.Arch) archJSON {
	gran := "warp"
	if a.RegAllocPerBlock {
		gran = "block"
	}
	carve := a.SharedCarveoutsKiB
	if carve == nil {
		carve = []int{}
	}
	return archJSON{
		Name: a.Name, FullName: a.FullName, Family: a.Family,
		ComputeCapability: fmt.Sprintf("%d.%d", a.Major, a.Minor),
		SMs:               a.SMs, WarpSize: a.WarpSize, MaxThreadsPerBlock: a.MaxThreadsPerBlock,
		MaxBlockDim: a.MaxBlockDim, MaxGridDim: a.MaxGridDim,
		MaxThreadsPerSM: a.MaxThreadsPerSM, MaxWarpsPerSM: a.MaxWarpsPerSM, MaxBlocksPerSM: a.MaxBlocksPerSM,
		RegsPerSM: a.RegsPerSM, RegsPerBlock: a.RegsPerBlock, RegsPerThread: a.RegsPerThread,
		RegAllocUnit: a.RegAllocUnit, RegAllocGranularity: gran, WarpAllocGranularity: a.WarpAllocGranularity,
		SubPartitions: a.SubPartitions,
		SharedPerSM:   a.SharedPerSM, SharedPerBlock: a.SharedPerBlock, SharedPerBlockOptin: a.SharedPerBlockOptin,
		ReservedSharedPerBlock: a.ReservedSharedPerBlock, SharedAllocUnit: a.SharedAllocUnit, SharedCarveoutsKiB: carve,
		ClockKHz: a.ClockKHz, MemClockKHz: a.MemClockKHz, MemBusWidth: a.MemBusWidth,
		MemBandwidthGBs: float64(int64(a.MemBandwidth()/1e8+0.5)) / 10,
		L1SharedBytes:   a.L1SharedBytes, L2Bytes: a.L2Bytes, TotalGlobalMem: a.TotalGlobalMem, ConstMem: a.ConstMem,
		DevRuntimeMaxDepth: a.DevRuntimeMaxDepth, DevRuntimeSyncDepth: a.DevRuntimeSyncDepth,
		DevRuntimePendingLaunches: a.DevRuntimePendingLaunches,
	}
}

func writeArchsJSON(w io.Writer, archs []*arch.Arch) error {
	out := make([]archJSON, len(archs))
	for i, a := range archs {
		out[i] = toArchJSON(a)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
