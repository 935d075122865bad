package cc

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	cases := []struct {
		args []string
		want Options
	}{
		{[]string{"a.cu"}, Options{Inputs: []string{"a.cu"}, OptLevel: "-O3", Arch: "sm_90"}},
		{[]string{"-O2", "-arch=sm_80", "-o", "prog", "a.cu", "b.cpp"},
			Options{Inputs: []string{"a.cu", "b.cpp"}, Output: "prog", OptLevel: "-O2", Arch: "sm_80"}},
		{[]string{"-arch", "compute_70", "-Iinc", "-I", "inc2", "-DX=1", "-D", "Y", "-std=c++17", "k.cu"},
			Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_70", Includes: []string{"inc", "inc2"},
				Defines: []string{"-DX=1", "-DY"}, Std: "-std=c++17"}},
		{[]string{"-rdc=true", "-lcudadevrt", "-lineinfo", "-G", "n.cu"},
			Options{Inputs: []string{"n.cu"}, OptLevel: "-O3", Arch: "sm_90", RDC: true, LineInfo: true, Debug: true,
				Warnings: []string{"-lcudadevrt"}}},
		{[]string{"-gencode", "arch=compute_90,code=sm_90", "-x", "cu", "main.cpp", "-lm", "-Xcompiler", "-fopenmp,-Wall"},
			Options{Inputs: []string{"main.cpp"}, OptLevel: "-O3", Arch: "sm_90", ForceCU: true,
				LinkFlags: []string{"-lm"}, HostFlags: []string{"-fopenmp", "-Wall"}}},
		{[]string{"-c", "a.cu", "-o", "a.o"}, Options{Inputs: []string{"a.cu"}, Output: "a.o", OptLevel: "-O3", Arch: "sm_90", CompileOnly: true}},
		{[]string{"-fatbin", "k.cu", "-o", "k.fatbin"}, Options{Inputs: []string{"k.cu"}, Output: "k.fatbin", OptLevel: "-O3", Arch: "sm_90", DeviceOnly: "fatbin"}},
		{[]string{"--ptx", "k.cu"}, Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_90", DeviceOnly: "ptx"}},
		// nvcc's -arch=native (the installed GPU) is the simulated H100's sm_90.
		{[]string{"-arch=native", "-Xptxas", "-v", "k.cu"}, Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_90", Warnings: []string{"-Xptxas"}}},
		{[]string{"-arch", "sm_80", "-arch=all-major", "k.cu"}, Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_90"}},
		{[]string{"-maxrregcount=64", "--fmad=false", "--ftz=true", "--std", "c++17", "-diag-suppress", "20054", "-Xcudafe", "--diag_suppress=177", "-restrict", "k.cu"},
			Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_90", MaxRegCount: 64, NoFMAD: true, FTZ: true, Std: "-std=c++17",
				Warnings: []string{"-diag-suppress", "-Xcudafe", "-restrict"}}},
		{[]string{"--maxrregcount", "40", "k.cu"}, Options{Inputs: []string{"k.cu"}, OptLevel: "-O3", Arch: "sm_90", MaxRegCount: 40}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			got, err := ParseArgs(c.args)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, c.want) {
				t.Errorf("got %+v\nwant %+v", *got, c.want)
			}
		})
	}
}

func TestParseArgsErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--prec-div=false", "a.cu"}, "unknown flag --prec-div=false"},
		{[]string{"-maxrregcount=lots", "a.cu"}, "-maxrregcount lots: expected a register count"},
		{[]string{"-arch=kepler", "a.cu"}, "-arch kepler: expected sm_XX"},
		{[]string{"-o"}, "-o needs a value"},
		{[]string{"-O3"}, "no input files"},
		{[]string{"-x", "c", "a.c"}, "-x c: warpsim cc knows only -x cu"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := ParseArgs(c.args)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestTakesValue: the flags whose value is the next argument, which the cc
// command must not read as its own -v (`-Xptxas -v`).
func TestTakesValue(t *testing.T) {
	for _, c := range []struct {
		flag string
		want bool
	}{{"-Xptxas", true}, {"-maxrregcount", true}, {"-diag-suppress", true}, {"-Xcompiler", true}, {"-o", true}, {"-ccbin", true}, {"-arch", true}, {"-v", false}, {"-O3", false}, {"-arch=sm_90", false}, {"a.cu", false}} {
		if got := TakesValue(c.flag); got != c.want {
			t.Errorf("TakesValue(%q) = %v, want %v", c.flag, got, c.want)
		}
	}
}
