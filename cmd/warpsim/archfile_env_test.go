package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestReplacedVarsNamed: prof and sanitize run a program on their own
// --arch, --arch-file and --set; a different, non-empty WARPSIM_ARCH,
// WARPSIM_ARCH_FILE or WARPSIM_ARCH_SET in the caller's environment is named
// on stderr instead of being dropped without a word (issue: a bogus
// WARPSIM_ARCH_SET passed silently under warpsim prof).
func TestReplacedVarsNamed(t *testing.T) {
	env := []string{"WARPSIM_ARCH=h100", "WARPSIM_ARCH_FILE=", "WARPSIM_ARCH_SET=sms=66"}
	for _, tc := range []struct {
		name   string
		caller map[string]string
		want   []string
	}{
		{"unset", map[string]string{}, nil},
		{"empty", map[string]string{"WARPSIM_ARCH": "", "WARPSIM_ARCH_SET": ""}, nil},
		{"same values", map[string]string{"WARPSIM_ARCH": "h100", "WARPSIM_ARCH_SET": "sms=66"}, nil},
		{"another preset", map[string]string{"WARPSIM_ARCH": "a100"}, []string{"WARPSIM_ARCH"}},
		{"a file the flags do not give", map[string]string{"WARPSIM_ARCH_FILE": "gpu.yaml"}, []string{"WARPSIM_ARCH_FILE"}},
		{"a bogus set", map[string]string{"WARPSIM_ARCH_SET": "bogus.key=1"}, []string{"WARPSIM_ARCH_SET"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tc.caller[k]; return v, ok }
			if got := replacedVars(env, lookup); !slices.Equal(got, tc.want) {
				t.Errorf("replacedVars = %q, want %q", got, tc.want)
			}
			var b bytes.Buffer
			noteReplacedVars(&b, "prof", env, lookup)
			if n := strings.Count(b.String(), "is not used"); n != len(tc.want) {
				t.Errorf("notes %q: %d lines, want %d", b.String(), n, len(tc.want))
			}
			for _, k := range tc.want {
				if !strings.Contains(b.String(), "warpsim prof: "+k+" from the environment is not used") {
					t.Errorf("notes %q do not name %s", b.String(), k)
				}
			}
		})
	}
}
