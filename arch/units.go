package arch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Units of arch-file values. Every parser takes a plain number in the
// key's base unit as well as a number with a unit suffix, case-insensitive
// and with optional space: "50MiB", "1.98 GHz", "2.2us", "2.1TB/s".

// sizeUnits are byte multipliers: binary (KiB) and decimal (KB) units.
var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
	{"b", 1}, {"", 1},
}

// splitNumber separates "50MiB" into 50 and "mib".
func splitNumber(s string) (float64, string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+' || s[i] == 'e' && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+')) {
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, "", false
	}
	return n, strings.TrimSpace(s[i:]), true
}

// ParseSize reads a byte count: 1024, "48KiB", "50 MiB", "1.5GiB", "40MB".
// It must come to a whole number of bytes, not negative.
func ParseSize(s string) (int64, error) {
	n, unit, ok := splitNumber(s)
	if ok {
		for _, u := range sizeUnits {
			if unit == u.suffix {
				v := n * u.mult
				if v < 0 || v > 1<<50 || v != math.Trunc(v) {
					break
				}
				return int64(v), nil
			}
		}
	}
	return 0, fmt.Errorf("must be a positive size like 50MiB")
}

// ParseFreq reads a clock in kHz: "1980MHz", "1.98GHz", "745000kHz", or a
// plain number of MHz.
func ParseFreq(s string) (int64, error) {
	n, unit, ok := splitNumber(s)
	mult := map[string]float64{"": 1000, "mhz": 1000, "ghz": 1e6, "khz": 1, "hz": 1e-3}
	if m, known := mult[unit]; ok && known {
		v := math.Round(n * m)
		if v >= 1 && v < 1e9 {
			return int64(v), nil
		}
	}
	return 0, fmt.Errorf("must be a positive clock like 1980MHz or 1.98GHz")
}

// ParseNanos reads a duration in ns: "2200ns", "2.2us", "14.7µs", "1ms", or
// a plain number of ns.
func ParseNanos(s string) (float64, error) {
	n, unit, ok := splitNumber(s)
	mult := map[string]float64{"": 1, "ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}
	if m, known := mult[unit]; ok && known && n >= 0 && n*m < 1e15 {
		return n * m, nil
	}
	return 0, fmt.Errorf("must be a duration like 2.2us or 2200ns, not negative")
}

// ParseBandwidth reads a bandwidth in bytes per ns (GB/s): "2.1TB/s",
// "900GB/s", or a plain number of GB/s.
func ParseBandwidth(s string) (float64, error) {
	n, unit, ok := splitNumber(s)
	mult := map[string]float64{"": 1, "gb/s": 1, "tb/s": 1e3, "mb/s": 1e-3, "gib/s": 1.073741824, "tib/s": 1099.511627776}
	if m, known := mult[unit]; ok && known && n > 0 && n*m < 1e12 {
		return n * m, nil
	}
	return 0, fmt.Errorf("must be a positive bandwidth like 2.1TB/s or 900GB/s")
}

// formatSize prints a byte count with the largest binary unit that divides
// it: "50MiB", "48KiB", "1000".
func formatSize(b int64) string {
	switch {
	case b != 0 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b != 0 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b != 0 && b%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", b>>10)
	}
	return strconv.FormatInt(b, 10)
}

// formatFloat prints a figure without trailing zeros.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
