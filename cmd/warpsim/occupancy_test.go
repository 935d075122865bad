package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -update-occupancy (or a package-wide -update, if another test file
// defines one) rewrites the golden files of the occupancy, archs and demo
// tests.
var occUpdate = flag.Bool("update-occupancy", false, "rewrite the occupancy/archs golden files")

func occShouldUpdate() bool {
	if *occUpdate {
		return true
	}
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// occCheckGolden compares got with the golden file at path.
func occCheckGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if occShouldUpdate() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-occupancy to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// occRun runs the CLI in-process.
func occRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestOccupancyGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		// H100, 256 threads × 32 registers: 8 blocks, full; limited by warps and registers alike.
		{"h100_256_32", []string{"--arch", "h100", "--block", "256", "--regs", "32"}},
		// The seed lesson's G80 case: 16 registers → 2 blocks of 256 (512 threads, 67 %).
		{"g80_256_16", []string{"--arch", "g80", "--block", "256", "--regs", "16"}},
		// A100 with dynamic shared memory over 48 KiB and a carveout preference.
		{"a100_smem_carveout", []string{"--arch", "a100", "--block", "128", "--regs", "64", "--smem", "8192", "--dynamic-smem", "50000", "--carveout", "50"}},
		// No --block: cudaOccupancyMaxPotentialBlockSize's choice (heavy32 of the driver file: 640).
		{"h100_potential_48", []string{"--arch", "sm_90", "--regs", "48"}},
		// The PTX path: registers estimated, static shared memory read.
		{"ptx_stencil", []string{"--arch", "v100", "--ptx", "testdata/occupancy/stencil.ptx", "--kernel", "stencil", "--block", "128"}},
		{"ptx_stencil_regs", []string{"--arch", "h100", "--ptx", "testdata/occupancy/stencil.ptx", "--kernel", "_Z7stencilPfi", "--block", "1024", "--regs", "24", "--json"}},
		{"h100_json", []string{"--arch", "h100", "--block", "96", "--regs", "19", "--dynamic-smem", "12288", "--json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := occRun(append([]string{"occupancy"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			occCheckGolden(t, "testdata/occupancy/"+c.name+".golden", []byte(out))
		})
	}
}

// TestOccupancyJSONMatchesDriver: the driver file's heavy4 kernel (19
// registers) at 96 threads with 12288 bytes of dynamic shared memory ran 17
// blocks per SM on the H100.
func TestOccupancyJSONMatchesDriver(t *testing.T) {
	code, out, errOut := occRun("occupancy", "--arch", "h100", "--block", "96", "--regs", "19", "--dynamic-smem", "12288", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		BlocksPerSM int      `json:"blocks_per_sm"`
		LimitedBy   []string `json:"limited_by"`
		Potential   struct {
			BlockSize   int `json:"block_size"`
			MinGridSize int `json:"min_grid_size"`
		} `json:"potential"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.BlocksPerSM != 17 || strings.Join(doc.LimitedBy, ",") != "shared memory" {
		t.Errorf("blocks %d limited by %v; driver: 17, shared memory", doc.BlocksPerSM, doc.LimitedBy)
	}
	// 12288 bytes for every block size: 1024 threads run 2 blocks (2048 threads).
	if doc.Potential.BlockSize != 1024 || doc.Potential.MinGridSize != 264 {
		t.Errorf("potential %+v; want 1024, 264", doc.Potential)
	}
}

func TestOccupancyBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"block0", []string{"--block", "0", "--regs", "32"}, "--block 0: a block needs at least one thread"},
		{"block-negative", []string{"--block", "-32"}, "--block -32"},
		{"regs-negative", []string{"--block", "128", "--regs", "-1"}, "--regs -1: registers per thread cannot be negative"},
		{"regs-too-many", []string{"--block", "128", "--regs", "300"}, "at most 255 registers per thread"},
		{"smem-negative", []string{"--block", "128", "--smem", "-4"}, "--smem -4"},
		{"dyn-negative", []string{"--block", "128", "--dynamic-smem", "-4"}, "--dynamic-smem -4"},
		{"unknown-arch", []string{"--arch", "h300", "--block", "128"}, `unknown arch "h300"; known: g80, gt200`},
		{"carveout", []string{"--block", "128", "--carveout", "101"}, "--carveout 101"},
		{"kernel-without-ptx", []string{"--kernel", "k"}, "--kernel needs --ptx"},
		{"ptx-without-kernel", []string{"--ptx", "testdata/occupancy/stencil.ptx"}, "--ptx needs --kernel"},
		{"unknown-kernel", []string{"--ptx", "testdata/occupancy/stencil.ptx", "--kernel", "nope", "--block", "32"}, `no kernel "nope"`},
		{"missing-ptx", []string{"--ptx", "testdata/occupancy/missing.ptx", "--kernel", "k"}, "missing.ptx"},
		{"bad-plot-ext", []string{"--block", "128", "--plot", "out.jpg"}, "must end in .svg or .png"},
		{"bad-flag", []string{"--blocks", "128"}, "unknown flag"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := occRun(append([]string{"occupancy"}, c.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stdout %q)", code, out)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q lacks %q", errOut, c.want)
			}
		})
	}
}

// TestOccupancyCannotLaunch: a block that cannot launch gets 0 blocks per
// SM and the reason, exit status 0, as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers 0 with cudaSuccess
// on an H100 for 1025 threads or 300000 bytes of shared memory
// (arch/testdata/limits/h100_occupancy_limits.txt); it used to be an error.
func TestOccupancyCannotLaunch(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"block-too-large", []string{"--arch", "h100", "--block", "1025"}, "block of 1025 threads exceeds the maximum of 1024 threads per block on sm_90"},
		{"g80-block-too-large", []string{"--arch", "g80", "--block", "768"}, "block of 768 threads exceeds the maximum of 512 threads per block on sm_10"},
		{"too-much-smem", []string{"--arch", "h100", "--block", "128", "--dynamic-smem", "300000"}, "too much shared memory per block: 300000 bytes"},
		{"too-much-smem-no-block", []string{"--arch", "h100", "--smem", "240000"}, "too much shared memory per block: 240000 bytes"},
		{"too-many-regs-for-block", []string{"--arch", "g80", "--block", "512", "--regs", "32"}, "too many registers for one block"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := occRun(append([]string{"occupancy"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, want 0\nstderr: %s", code, errOut)
			}
			for _, want := range []string{"active      0 blocks = 0 warps = 0 threads per SM", "occupancy   0%: the block cannot launch: " + c.want} {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			code, out, errOut = occRun(append([]string{"occupancy", "--json"}, c.args...)...)
			var doc occupancyJSON
			if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
				t.Fatalf("--json: exit %d, %v\n%s%s", code, err, out, errOut)
			}
			if doc.BlocksPerSM != 0 || !strings.Contains(doc.CannotLaunch, c.want) {
				t.Errorf("--json: blocks_per_sm %d, cannot_launch %q", doc.BlocksPerSM, doc.CannotLaunch)
			}
		})
	}
}

// TestOccupancyPlot draws both formats and checks they are what the
// extension promises and that the charts are there.
func TestOccupancyPlot(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "occ.png")
	svg := filepath.Join(dir, "occ.svg")
	for _, f := range []string{png, svg} {
		if code, _, errOut := occRun("occupancy", "--arch", "g80", "--block", "256", "--regs", "16", "--plot", f); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	b, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 10000 {
		t.Errorf("%s is not a PNG of the charts (%d bytes, %v)", png, len(b), err)
	}
	s, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "Varying block size", "Varying register count", "Varying shared memory", "this kernel: 256"} {
		if !bytes.Contains(s, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestArchs(t *testing.T) {
	code, out, errOut := occRun("archs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	occCheckGolden(t, "testdata/occupancy/archs.golden", []byte(out))
	code, out, errOut = occRun("archs", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	occCheckGolden(t, "testdata/occupancy/archs_json.golden", []byte(out))
	var doc []map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc) != 13 {
		t.Fatalf("archs --json: %d presets, %v", len(doc), err)
	}
	if doc[11]["name"] != "h100" || doc[11]["shared_per_sm"] != float64(233472) || doc[0]["regs_per_sm"] != float64(8192) {
		t.Errorf("archs --json figures wrong: %v / %v", doc[11], doc[0])
	}
	if doc[12]["name"] != "h200" || doc[12]["l2_bytes"] != float64(62914560) || doc[12]["mem_bus_width"] != float64(6016) {
		t.Errorf("archs --json h200 figures wrong: %v", doc[12])
	}
	if code, _, errOut := occRun("archs", "extra"); code != 2 || !strings.Contains(errOut, "unknown command") && !strings.Contains(errOut, "accepts 0 arg") {
		t.Errorf("archs extra: exit %d, %q", code, errOut)
	}
}

// TestOccupancyPTXRegistersNearPtxas: `warpsim occupancy --ptx` estimates a
// kernel's registers as warpsim's launches take them, and the estimate is
// held to what ptxas allocated for the same PTX on the H100
// (testdata/occupancy/ptxas: `ptxas -v` of shortocc_nvcc.ptx,
// 18 to 34 registers): each within 25%, their mean |error| within 10%
// (measured 0-20%, mean 7.9%; the liveness of the PTX's own order was
// 4-40% off, mean 17%). The .reg declarations, which the command used to
// sum, name 115 to 177. TestRegEstimateAgainstPtxas holds the estimate to
// every recorded kernel.
func TestOccupancyPTXRegistersNearPtxas(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "occupancy", "ptxas")
	env, err := os.ReadFile(filepath.Join(dir, "ptxas_v.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ptxas := map[string]int{}
	var kernel string
	for _, line := range strings.Split(string(env), "\n") {
		if _, k, ok := strings.Cut(line, "Compiling entry function '"); ok {
			kernel, _, _ = strings.Cut(k, "'")
		}
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(line, "ptxas info    : "), "Used %d registers", &n); err == nil && kernel != "" {
			ptxas[kernel] = n
		}
	}
	if len(ptxas) != 8 {
		t.Fatalf("ptxas_v.txt: ptxas counts for %d kernels, want 8: %v", len(ptxas), ptxas)
	}
	var sum float64
	for k, want := range ptxas {
		var out, errb bytes.Buffer
		if code := run([]string{"occupancy", "--arch", "h100", "--ptx", filepath.Join(dir, "shortocc_nvcc.ptx"), "--kernel", k, "--block", "128", "--json"}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", k, code, errb.String())
		}
		var got struct {
			Regs   int    `json:"regs_per_thread"`
			Source string `json:"regs_source"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		e := float64(got.Regs-want) / float64(want)
		sum += math.Abs(e)
		t.Logf("%-8s warpsim %2d, ptxas %2d (%+.0f%%)", k, got.Regs, want, 100*e)
		if got.Source != "PTX estimate" || math.Abs(e) > 0.25 {
			t.Errorf("%s: %d registers (%s), ptxas %d: more than 25%% off", k, got.Regs, got.Source, want)
		}
	}
	if mean := sum / float64(len(ptxas)); mean > 0.10 {
		t.Errorf("mean |error| %.1f%% against ptxas, want at most 10%%", 100*mean)
	}
}
