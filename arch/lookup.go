package arch

import (
	"fmt"
	"strconv"
	"strings"
)

// aliases maps other names of a preset to its key: the family, the chip
// and the PTX target. Compute capabilities ("sm_90", "compute_90", "9.0",
// "90") are resolved without the table.
var aliases = map[string]string{
	"tesla": "g80", "8800gtx": "g80", "geforce8800gtx": "g80",
	"gtx280": "gt200", "geforcegtx280": "gt200",
	"fermi": "c2050", "gf100": "c2050", "teslac2050": "c2050",
	"kepler": "k40", "gk110": "k40", "gk110b": "k40", "teslak40": "k40", "k40c": "k40",
	"maxwell": "gtx980", "gm204": "gtx980", "geforcegtx980": "gtx980",
	"pascal": "p100", "gp100": "p100", "teslap100": "p100",
	"volta": "v100", "gv100": "v100", "teslav100": "v100",
	"turing": "t4", "tu104": "t4", "teslat4": "t4",
	"ampere": "a100", "ga100": "a100",
	"ga102": "rtx3090", "3090": "rtx3090", "geforcertx3090": "rtx3090",
	"ada": "rtx4090", "ad102": "rtx4090", "4090": "rtx4090", "geforcertx4090": "rtx4090",
	"hopper": "h100", "gh100": "h100",
}

// Lookup finds a preset by key ("h100"), alias ("hopper", "gh100"),
// marketing name ("GeForce GTX 980") or compute capability ("sm_90",
// "compute_90", "9.0", "90"), case-insensitively. The error lists the keys.
func Lookup(name string) (*Arch, error) {
	key := normalize(name)
	if a := byKey(key); a != nil {
		return a, nil
	}
	if k, ok := aliases[key]; ok {
		return byKey(k), nil
	}
	for _, a := range presets {
		if normalize(a.FullName) == key {
			return a, nil
		}
	}
	if cc, ok := parseCC(key); ok {
		for _, a := range presets {
			if a.ComputeCapability() == cc {
				return a, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown arch %q; known: %s (or a compute capability such as sm_90)", name, strings.Join(Names(), ", "))
}

// MustLookup is Lookup for names known to exist; it panics otherwise.
func MustLookup(name string) *Arch {
	a, err := Lookup(name)
	if err != nil {
		panic("warpsim internal error: " + err.Error())
	}
	return a
}

// All returns every preset in ascending compute capability. The presets are
// shared: callers must not modify them.
func All() []*Arch { return append([]*Arch(nil), presets...) }

// Names returns the preset keys in ascending compute capability.
func Names() []string {
	names := make([]string, len(presets))
	for i, a := range presets {
		names[i] = a.Name
	}
	return names
}

func byKey(key string) *Arch {
	for _, a := range presets {
		if a.Name == key {
			return a
		}
	}
	return nil
}

// normalize lower-cases name and drops spaces, dashes and the "nvidia"
// prefix, so "NVIDIA GeForce RTX 3090" and "rtx-3090" both become
// "geforcertx3090" / "rtx3090".
func normalize(name string) string {
	s := strings.ToLower(strings.TrimSpace(name))
	s = strings.NewReplacer(" ", "", "-", "", "_", "_").Replace(s)
	s = strings.TrimPrefix(s, "nvidia")
	return s
}

// parseCC reads "sm_90", "sm90", "compute_90", "9.0" or "90" as 90.
func parseCC(s string) (int, bool) {
	for _, p := range []string{"sm_", "sm", "compute_", "compute"} {
		if strings.HasPrefix(s, p) {
			s = s[len(p):]
			break
		}
	}
	s = strings.TrimRight(s, "a") // sm_90a is sm_90 with arch-specific features
	if maj, min, ok := strings.Cut(s, "."); ok {
		m, err1 := strconv.Atoi(maj)
		n, err2 := strconv.Atoi(min)
		if err1 != nil || err2 != nil || n < 0 || n > 9 || m < 1 {
			return 0, false
		}
		return m*10 + n, true
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 10 {
		return 0, false
	}
	return v, true
}
