package ptx

import "github.com/warpsim/warpsim/ptx/ptxtype"

// TypeByName is the data type an instruction modifier names, without its
// dot ("f32", "b16", "pred"); the opaque types (.texref, .samplerref,
// .surfref) are not instruction types. It reads ptxtype's one table of
// type names.
func TypeByName(name string) (Type, bool) { return ptxtype.ByName(name) }
