package testenv

import "testing"

// TestTopLevelElem checks that WillRun matches a -test.run pattern's first
// element against top-level names as go test splits it.
func TestTopLevelElem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"TestA", "TestA"},
		{"TestA/sub", "TestA"},
		{"^TestLong(A|B/C)$/x", "^TestLong(A|B/C)$"},
		{"Test[/]A/b", "Test[/]A"},
		{`Test\/A/b`, `Test\/A`},
		{"/sub", ""},
	} {
		if got := topLevelElem(c.in); got != c.want {
			t.Errorf("topLevelElem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
