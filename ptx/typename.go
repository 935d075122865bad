package ptx

import "strings"

// TypeByName is the data type an instruction modifier names, without its
// dot ("f32", "b16", "pred"); the opaque types (.texref, .samplerref,
// .surfref) are not instruction types. It reads the parser's one table of
// type names.
func TypeByName(name string) (Type, bool) {
	t, ok := bareTypes[name]
	return t, ok
}

// bareTypes is the parser's types table without the dots and without the
// opaque types.
var bareTypes = func() map[string]Type {
	m := make(map[string]Type, len(types))
	for name, t := range types {
		if t == TexRef || t == SamplerRef || t == SurfRef {
			continue
		}
		m[strings.TrimPrefix(name, ".")] = t
	}
	return m
}()
