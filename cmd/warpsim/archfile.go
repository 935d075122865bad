package main

import (
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/settings"
)

// customArch is a command's --arch-file FILE and --set KEY=VALUE flags,
// which every command that takes --arch takes beside it.
type customArch struct {
	file string
	sets []string
	fl   *pflag.FlagSet
}

// addCustomArchFlags adds --arch-file and --set to a command with --arch.
func addCustomArchFlags(fl *pflag.FlagSet, c *customArch) {
	c.fl = fl
	fl.StringVar(&c.file, "arch-file", "", "a custom GPU: a YAML or JSON arch file that starts from a preset (base: h100) and changes its figures (docs/sweep.md)")
	fl.StringArrayVar(&c.sets, "set", nil, "override one figure of the GPU, KEY=VALUE (l2.size=100MiB, sms=66, latency.shared=30); repeatable; warpsim archs --keys lists the keys")
}

// resolve returns the GPU --arch (name, or its default), --arch-file and
// --set name. A default --arch gives way to --arch-file.
func (c *customArch) resolve(name string) (*arch.Arch, error) {
	if c.file != "" && (c.fl == nil || !c.fl.Changed("arch")) {
		name = ""
	}
	return arch.Resolve(name, c.file, c.sets)
}

// env is the environment that hands the GPU to a program's runtime
// co-process: WARPSIM_ARCH (the preset, or the custom arch's base),
// WARPSIM_ARCH_FILE and WARPSIM_ARCH_SET, the last two empty (unset) when
// not given so that the caller's environment does not leak in.
func (c *customArch) env(a *arch.Arch) []string {
	file := c.file
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	name := a.Name
	if a.Base != "" {
		name = a.Base
	}
	return []string{settings.VarArch + "=" + name, settings.VarArchFile + "=" + file, settings.VarArchSet + "=" + strings.Join(c.sets, ";")}
}

// lookupWith is os.LookupEnv with env's entries in front.
func lookupWith(env []string, lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if kk, v, _ := strings.Cut(env[i], "="); kk == k {
				return v, true
			}
		}
		return lookup(k)
	}
}
