package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim/cuda/cc"
)

// compileSource is launch files' "source": a .cu file's device code as PTX,
// compiled as `warpsim compile` does; clang's messages go to stderr.
func compileSource(path string) ([]byte, error) {
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		return nil, err
	}
	ptx, err := d.PTX(&cc.Options{Inputs: []string{path}, OptLevel: "-O3", Arch: "sm_90"}, path)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", path, err)
	}
	return ptx, nil
}

func newCompileCmd(stdout, stderr io.Writer) *cobra.Command {
	var out, archName, std string
	var includes, defines []string
	var rdc bool
	cmd := &cobra.Command{
		Use:   "compile FILE.cu [-o FILE.ptx]",
		Short: "Compile a .cu file's device code to PTX (for warpsim run, or to read)",
		Long: `Compiles the device code of one .cu file to PTX with clang and warpsim's
CUDA headers; with -o - the PTX goes to stdout. The PTX has .loc line
information, so fault reports name .cu lines.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src := args[0]
			sm, err := smOrDefault(archName)
			if err != nil {
				return badInput(err)
			}
			opt := &cc.Options{Inputs: []string{src}, OptLevel: "-O3", Arch: sm, Includes: includes, RDC: rdc}
			for _, d := range defines {
				opt.Defines = append(opt.Defines, "-D"+d)
			}
			if std != "" {
				opt.Std = "-std=" + std
			}
			d, err := cc.NewDriver(stderr)
			if err != nil {
				return badInput(err)
			}
			if out == "" {
				out = strings.TrimSuffix(filepath.Base(src), filepath.Ext(src)) + ".ptx"
			}
			if out == "-" {
				ptx, err := d.PTX(opt, src)
				if err != nil {
					return compileErr(err)
				}
				_, err = stdout.Write(ptx)
				return err
			}
			if _, err := os.Stat(src); err != nil {
				return badInput(err)
			}
			return compileErr(d.CompilePTX(opt, src, out))
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "PTX file (default: FILE.ptx in the current directory; - for stdout)")
	cmd.Flags().StringVar(&archName, "arch", "sm_90", "target, as sm_XX")
	cmd.Flags().StringArrayVarP(&includes, "include", "I", nil, "include directory")
	cmd.Flags().StringArrayVarP(&defines, "define", "D", nil, "macro definition NAME[=VALUE]")
	cmd.Flags().StringVar(&std, "std", "", "C++ standard (c++17 …)")
	cmd.Flags().BoolVar(&rdc, "rdc", false, "relocatable device code (needed for device-side launches)")
	return cmd
}

func smOrDefault(s string) (string, error) {
	o, err := cc.ParseArgs([]string{"-arch=" + s, "x.cu"})
	if err != nil {
		return "", err
	}
	return o.Arch, nil
}
