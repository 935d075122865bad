package cc

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/cuda/ptxlink"
)

// Relocatable device code travels as nvcc's does: each -rdc object carries
// its file's PTX in an ELF section (rdcSection), and the device link —
// at the final `warpsim cc` link, or `warpsim cc -dlink` — gathers the PTX of
// every input object and static library, links it into one module
// (ptxlink) and registers that module from a constructor. An object made by
// -dlink is marked (linkedSection) so the final link does not link again.
const (
	rdcSection    = ".warpsim_rdc_ptx"
	linkedSection = ".warpsim_rdc_linked"
)

// rdcPTXObject compiles an object whose only content is the PTX at ptx, in
// rdcSection, NUL-terminated.
func (d *Driver) rdcPTXObject(ptx, out string) error {
	if strings.ContainsAny(ptx, "\"\\\n") {
		return fmt.Errorf("temporary path %q has characters an assembler string cannot hold", ptx)
	}
	src := fmt.Sprintf("__asm__(\".section %s,\\\"\\\",@progbits\\n.incbin \\\"%s\\\"\\n.byte 0\\n.text\\n\");\n", rdcSection, ptx)
	cfile := strings.TrimSuffix(out, ".o") + ".c"
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		return err
	}
	defer os.Remove(cfile)
	return d.run([]string{"-x", "c", "-c", "-o", out, cfile})
}

// rdcInputs is what the device link finds in the link's inputs: the PTX
// modules in link order, and whether an input was already device-linked.
type rdcInputs struct {
	modules []ptxlink.Module
	linked  bool
}

// gatherRDC reads the device code of objects (.o) and static libraries (.a,
// and -lNAME found in the -L directories).
func gatherRDC(objects []string, linkFlags []string) (*rdcInputs, error) {
	in := &rdcInputs{}
	paths := append([]string(nil), objects...)
	var dirs []string
	for _, f := range linkFlags {
		if d, ok := strings.CutPrefix(f, "-L"); ok {
			dirs = append(dirs, d)
		}
	}
	for _, f := range linkFlags {
		name, ok := strings.CutPrefix(f, "-l")
		if !ok {
			continue
		}
		for _, d := range dirs {
			p := filepath.Join(d, "lib"+name+".a")
			if _, err := os.Stat(p); err == nil {
				paths = append(paths, p)
				break
			}
		}
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		switch {
		case bytes.HasPrefix(b, []byte("!<arch>\n")):
			members, err := archiveMembers(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", p, err)
			}
			for _, m := range members {
				if err := in.addObject(p+"("+m.name+")", m.data); err != nil {
					return nil, err
				}
			}
		case bytes.HasPrefix(b, []byte("\x7fELF")):
			if err := in.addObject(p, b); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

func (in *rdcInputs) addObject(name string, b []byte) error {
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	defer f.Close()
	if f.Section(linkedSection) != nil {
		in.linked = true
	}
	s := f.Section(rdcSection)
	if s == nil {
		return nil
	}
	data, err := s.Data()
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	// `ld -r` of several -rdc objects concatenates their sections.
	for n, ptx := range bytes.Split(data, []byte{0}) {
		if len(bytes.TrimSpace(ptx)) == 0 {
			continue
		}
		label := name
		if n > 0 {
			label += "#" + strconv.Itoa(n)
		}
		in.modules = append(in.modules, ptxlink.Module{Name: label, PTX: ptx})
	}
	return nil
}

type arMember struct {
	name string
	data []byte
}

// archiveMembers reads a System V / GNU ar archive.
func archiveMembers(b []byte) ([]arMember, error) {
	var out []arMember
	var longNames []byte
	i := 8
	for i+60 <= len(b) {
		h := b[i : i+60]
		name := strings.TrimSpace(string(h[:16]))
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || size < 0 || i+60+size > len(b) {
			return nil, errors.New("malformed archive")
		}
		data := b[i+60 : i+60+size]
		i += 60 + size + size%2
		switch {
		case name == "/" || name == "/SYM64/":
			continue
		case name == "//":
			longNames = data
			continue
		case strings.HasPrefix(name, "/") && longNames != nil:
			off, err := strconv.Atoi(name[1:])
			if err == nil && off < len(longNames) {
				end := bytes.IndexByte(longNames[off:], '\n')
				if end < 0 {
					end = len(longNames) - off
				}
				name = string(longNames[off : off+end])
			}
		}
		out = append(out, arMember{strings.TrimSuffix(name, "/"), data})
	}
	return out, nil
}

// deviceLink links the device code of objects (and the libraries in
// linkFlags) into one module and compiles the object that registers it at
// out. It returns false when there is nothing to link (no -rdc input, or an
// input made by -dlink already holds the linked module).
func (d *Driver) deviceLink(objects, linkFlags []string, tmp, out string) (bool, error) {
	in, err := gatherRDC(objects, linkFlags)
	if err != nil {
		return false, err
	}
	if in.linked || len(in.modules) == 0 {
		return false, nil
	}
	linked, err := ptxlink.Link(in.modules)
	if err != nil {
		return false, fmt.Errorf("device link: %v", err)
	}
	ptx := filepath.Join(tmp, "dlink.ptx")
	if err := os.WriteFile(ptx, linked, 0o644); err != nil {
		return false, err
	}
	return true, d.rdcRegistration(ptx, out, 0)
}

// copyFile copies src to dst (an object that leaves the temporary
// directory).
func copyFile(dst, src string) error {
	r, err := os.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
