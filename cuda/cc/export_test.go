package cc

// For the external tests (package cc_test, which may import
// internal/testenv).

// PCHOnSecondRun is pchOnSecondRun.
var PCHOnSecondRun = &pchOnSecondRun

// PCHDir is pchDir.
func (d *Driver) PCHDir() string { return d.pchDir() }
