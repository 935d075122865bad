// Package warpsim is the public Go API of the simulator: a Device holds
// bounds-checked global memory and runs kernels of loaded PTX modules on
// the CPU, faithfully to the SIMT model, returning results, printf output
// and profiler counters.
//
//	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
//	mod, err := dev.LoadModule("k.ptx", src)
//	k, err := mod.Kernel("vecAdd")
//	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 4, Y: 1, Z: 1}, Block: …}, params)
package warpsim
