package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// texturesDir holds the texture and surface programs and what an H100
// printed for them (testdata/textures/record.sh made the recordings).
const texturesDir = "../../testdata/textures"

// texDeviation is a value where warpsim is known to differ from the H100:
// the value at index Index of the line labelled Label may be off by at
// most Tol.
type texDeviation struct {
	Label string
	Index int
	Tol   float64
}

// loadTexDeviations reads deviations.txt: lines "program|label|index|tolerance".
func loadTexDeviations(t *testing.T) map[string][]texDeviation {
	t.Helper()
	f, err := os.Open(filepath.Join(texturesDir, "deviations.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	devs := map[string][]texDeviation{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.Split(line, "|")
		if len(p) != 4 {
			t.Fatalf("deviations.txt: bad line %q", line)
		}
		idx, err1 := strconv.Atoi(p[2])
		tol, err2 := strconv.ParseFloat(p[3], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("deviations.txt: bad line %q", line)
		}
		devs[p[0]] = append(devs[p[0]], texDeviation{p[1], idx, tol})
	}
	return devs
}

// TestCCTextures builds each texture and surface program with warpsim cc
// and compares its output with the H100's: every value bit for bit, but for
// the few listed in deviations.txt, which must be within their tolerance.
// The programs run in parallel, under the functional driver.
func TestCCTextures(t *testing.T) {
	needClang(t)
	abs, err := filepath.Abs(texturesDir)
	if err != nil {
		t.Fatal(err)
	}
	devs := loadTexDeviations(t)
	for _, name := range []string{"tex_filter", "tex_formats", "tex_geom", "tex_linear", "surf", "arrays"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := buildCU(t, filepath.Join(abs, name+".cu"))
			rec, err := loadRecording(filepath.Join(abs, name))
			if err != nil || rec == nil {
				t.Fatalf("recording: %v", err)
			}
			// The values do not depend on the timing model.
			got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
			code, err := exitCode(err)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if code != rec.exit {
				t.Errorf("exit status %d, the GPU's %d\nstderr:\n%s", code, rec.exit, stderr)
			}
			compareTexOutput(t, got, rec.stdout, devs[name])
		})
	}
}

// compareTexOutput compares got with want line by line and value by value.
func compareTexOutput(t *testing.T, got, want string, devs []texDeviation) {
	t.Helper()
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		t.Errorf("%d lines, the GPU printed %d\ngot:\n%s", len(gl), len(wl), got)
		return
	}
	used := 0
	for i := range wl {
		if gl[i] == wl[i] {
			continue
		}
		label, wv, _ := strings.Cut(wl[i], ":")
		glabel, gv, _ := strings.Cut(gl[i], ":")
		gf, wf := strings.Fields(gv), strings.Fields(wv)
		if glabel != label || len(gf) != len(wf) {
			t.Errorf("line %d: got %.200q, the GPU printed %.200q", i+1, gl[i], wl[i])
			continue
		}
		for k := range wf {
			if gf[k] == wf[k] {
				continue
			}
			tol := -1.0
			for _, d := range devs {
				if d.Label == label && d.Index == k {
					tol = d.Tol
				}
			}
			g, err1 := strconv.ParseUint(gf[k], 16, 32)
			w, err2 := strconv.ParseUint(wf[k], 16, 32)
			if tol >= 0 && err1 == nil && err2 == nil {
				diff := math.Abs(float64(math.Float32frombits(uint32(g))) - float64(math.Float32frombits(uint32(w))))
				if diff <= tol {
					used++
					continue
				}
			}
			t.Errorf("%s value %d: got %s, the GPU's %s", label, k, gf[k], wf[k])
		}
	}
	if used > len(devs) {
		t.Errorf("%d values deviate, %d are listed", used, len(devs))
	}
}

// TestCCCubTextureIterator runs CUB's texture object iterator (Debian's
// CUB 1.17); the expected output is the input doubled, by hand.
func TestCCCubTextureIterator(t *testing.T) {
	needClang(t)
	if _, err := os.Stat("/usr/include/cub/iterator/tex_obj_input_iterator.cuh"); err != nil {
		t.Fatal("CUB is needed: apt-get install libcub-dev")
	}
	want, err := os.ReadFile(filepath.Join(texturesDir, "cub_tex_iterator.expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join(texturesDir, "cub_tex_iterator.cu"))
	if err != nil {
		t.Fatal(err)
	}
	got, stderr := runProgram(t, buildCU(t, abs))
	if got != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr)
	}
}
