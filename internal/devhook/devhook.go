// Package devhook is the route by which warpsim's own packages reach what a
// public warpsim.Device keeps from its callers: the engine's check hook
// (engine.Checker, whose methods see the engine's memory and the lowered
// program). A program outside the module cannot import this package, so the
// public API never names an internal type; public callers put a device under
// a sanitizer with Device.Sanitize instead.
//
// Package warpsim installs the setter when it makes its first device
// (NewDevice): holding a *warpsim.Device means one was made, so the setter is
// always in place by the time anyone calls SetChecker.
package devhook

import (
	"fmt"

	"github.com/warpsim/warpsim/internal/engine"
)

// setChecker is package warpsim's: it sets a *warpsim.Device's checker and
// reports false for any other value.
var setChecker func(dev any, c engine.Checker) bool

// Install is called once, by package warpsim, with the function that sets a
// device's checker.
func Install(f func(dev any, c engine.Checker) bool) {
	if setChecker != nil {
		panic("devhook: Install called twice")
	}
	setChecker = f
}

// SetChecker puts dev, a *warpsim.Device, under c: every launch's accesses
// and synchronizations go through c, with blocks run one at a time so that
// its reports are the same every run. A nil c removes it. Any other dev is
// a programming error and panics.
func SetChecker(dev any, c engine.Checker) {
	if setChecker == nil {
		panic("devhook: no warpsim.Device has been made")
	}
	if !setChecker(dev, c) {
		panic(fmt.Sprintf("devhook: SetChecker on %T, not a *warpsim.Device", dev))
	}
}
