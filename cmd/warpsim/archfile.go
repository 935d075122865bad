package main

import (
	"fmt"
	"io"
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

// replacedVars names the variables of env that the caller's environment
// (lookup) sets to another, non-empty value: a command that runs a program
// on its own --arch, --arch-file and --set replaces them, and says so, so
// that an override given in the environment is not lost without a word.
func replacedVars(env []string, lookup func(string) (string, bool)) []string {
	var names []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if old, ok := lookup(k); ok && old != "" && old != v {
			names = append(names, k)
		}
	}
	return names
}

// noteReplacedVars writes, for each variable replacedVars names, that the
// program runs on the command's flags instead.
func noteReplacedVars(w io.Writer, command string, env []string, lookup func(string) (string, bool)) {
	for _, k := range replacedVars(env, lookup) {
		fmt.Fprintf(w, "warpsim %s: %s from the environment is not used: the program runs on --arch, --arch-file and --set (give the override there)\n", command, k)
	}
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
