package testenv

import (
	"flag"
	"os"
	"regexp"
	"strings"
)

// WillRun reports whether this test binary's run includes the top-level test
// name, as far as its -test.run and -test.skip flags and, for a TestLong*
// test, WARPSIM_LONG say: a test that could share work with another (one
// simulation that both check) asks it, to leave that work to the other when
// it is not going to run. It errs towards true where a pattern's later
// elements (subtests) decide, so use it to save work only, never to decide
// what a test checks.
func WillRun(name string) bool {
	if strings.HasPrefix(name, "TestLong") && os.Getenv("WARPSIM_LONG") == "" {
		return false
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		if re, err := regexp.Compile(topLevelElem(f.Value.String())); err != nil || !re.MatchString(name) {
			return false
		}
	}
	if f := flag.Lookup("test.skip"); f != nil && f.Value.String() != "" {
		// A pattern of one element skips the matching top-level tests; one
		// with subtest elements skips only some of their subtests.
		if p := f.Value.String(); topLevelElem(p) == p {
			if re, err := regexp.Compile(p); err == nil && re.MatchString(name) {
				return false
			}
		}
	}
	return true
}

// topLevelElem is the first slash-separated element of a -test.run
// pattern, the one go test matches against top-level test names (a slash
// inside brackets or parentheses does not separate).
func topLevelElem(p string) string {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				return p[:i]
			}
		}
	}
	return p
}
