package warpsim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The documents whose links TestDocsLinks checks: the root's and docs/.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(more) == 0 {
		t.Fatalf("no docs/*.md under %s", root)
	}
	for _, m := range more {
		rel, err := filepath.Rel(root, m)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	slices.Sort(files)
	return files
}

// climbingPath is a relative path that starts by climbing directories.
var climbingPath = regexp.MustCompile(`(?:\.\./)+[\w.-]+(?:/[\w.-]+)*`)

var (
	// [text](target "title") and ![alt](target); the text may hold code
	// spans but no brackets.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// [label]: target
	refLink = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	// <img src="…">, <a href="…">
	htmlLink = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`)
	// <https://…> autolinks and bare URLs, which GitHub links too.
	urlText = regexp.MustCompile(`(?i)\b(?:https?|ftp)://|\bmailto:|\bwww\.[a-z0-9-]+\.[a-z]`)
	scheme  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// docLinkProblems returns, for the Markdown file rel under root, one line
// per link whose target does not exist in the repository, leaves it (an
// absolute path, a path through ../ above root, a URL), and per URL or path
// outside the repository written in the text (code included: a reader
// copies those too).
func docLinkProblems(root, rel string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	var problems []string
	bad := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: ", rel, line)+fmt.Sprintf(format, args...))
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fence := ""
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		if m := urlText.FindString(line); m != "" {
			bad(n, "URL %q: no link may leave the repository", m)
		}
		// A path written in the text (in code font or not) that climbs
		// above the repository root names something a clone does not have.
		for _, m := range climbingPath.FindAllString(line, -1) {
			if p := filepath.Join(absRoot, filepath.Dir(rel), m); p != absRoot && !strings.HasPrefix(p, absRoot+string(filepath.Separator)) {
				bad(n, "path %s leaves the repository", m)
			}
		}
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, m := range htmlLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			if scheme.MatchString(target) || strings.HasPrefix(target, "//") {
				bad(n, "link %q leaves the repository", target)
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			if path == "" {
				if frag != "" && !hasAnchor(filepath.Join(absRoot, rel), frag) {
					bad(n, "link %q: no heading %q in %s", target, frag, rel)
				}
				continue
			}
			if strings.HasPrefix(path, "/") {
				bad(n, "link %q is absolute; write it relative to %s", target, rel)
				continue
			}
			full := filepath.Join(absRoot, filepath.Dir(rel), filepath.FromSlash(path))
			if r, err := filepath.Rel(absRoot, full); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				bad(n, "link %q leaves the repository", target)
				continue
			}
			if _, err := os.Stat(full); err != nil {
				bad(n, "link %q: no such file in the repository", target)
			} else if frag != "" && strings.HasSuffix(path, ".md") && !hasAnchor(full, frag) {
				bad(n, "link %q: no heading %q in %s", target, frag, path)
			}
		}
	}
	return problems, nil
}

// hasAnchor reports whether the Markdown file has a heading whose anchor,
// as GitHub makes it, is frag: lower case, punctuation dropped, spaces
// turned into hyphens, and -1, -2 … after repeats.
func hasAnchor(file, frag string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	seen := map[string]int{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if k := seen[slug]; k > 0 {
			seen[slug]++
			slug += "-" + strconv.Itoa(k)
		} else {
			seen[slug] = 1
		}
		if slug == frag {
			return true
		}
	}
	return false
}

// TestDocsLinks: every link in the documentation resolves to a file of the
// repository, and nothing in it points outside the repository.
func TestDocsLinks(t *testing.T) {
	for _, f := range docFiles(t, ".") {
		problems, err := docLinkProblems(".", f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
	}
}

// TestDocsLinksCatchesBadLinks: the checker itself finds each kind of bad
// link, and accepts good ones, in a small tree written here.
func TestDocsLinksCatchesBadLinks(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/there.md", "# There\n")
	write("docs/img/a.svg", "<svg/>")
	write("docs/page.md", strings.Join([]string{
		"[good](there.md) and [good with anchor](there.md#there) and [anchor](#the-page-a-heading)", // 1
		"![picture](img/a.svg) [up](../README.md)",                                                  // 2
		"[missing](nowhere.md)",                         // 3
		"[web](https://example.com/x)",                  // 4
		"see http://example.org in the text",            // 5
		"[out](../../outside.md)",                       // 6
		"[abs](/etc/passwd)",                            // 7
		"the ground truth in `../../groundtruth/x.txt`", // 8
		"```",                                // 9
		"[not a link](in-a-code-block.md)",   // 10
		"```",                                // 11
		"[ref]: gone.md",                     // 12
		`<img src="img/missing.png">`,        // 13
		"[mail](mailto:someone@example.com)", // 14
		"[bad anchor](there.md#nowhere) and [bad local](#nowhere)",  // 15
		"## The `page`: a heading",                                  // 16
		"[local](#the-page-a-heading) and [theirs](there.md#there)", // 17
	}, "\n"))
	write("README.md", "[page](docs/page.md)\n")
	got, err := docLinkProblems(root, "docs/page.md")
	if err != nil {
		t.Fatal(err)
	}
	// Each bad line, by its number; the good lines 1, 2, 16 and 17 and
	// the code block's 10 must not appear.
	want := map[string]bool{"3": true, "4": true, "5": true, "6": true, "7": true, "8": true, "12": true, "13": true, "14": true, "15": true}
	seen := map[string]bool{}
	for _, p := range got {
		line := strings.SplitN(strings.TrimPrefix(p, "docs/page.md:"), ":", 2)[0]
		if !want[line] {
			t.Errorf("reported a good line: %s", p)
		}
		seen[line] = true
	}
	for line := range want {
		if !seen[line] {
			t.Errorf("line %s of the bad links was not reported (got %q)", line, got)
		}
	}
	if got, err := docLinkProblems(root, "README.md"); err != nil || len(got) != 0 {
		t.Errorf("README.md with a good link: %q, %v", got, err)
	}
}
