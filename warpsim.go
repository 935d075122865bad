// Package warpsim is the public Go API of the simulator: a Device holds
// bounds-checked global memory and runs kernels of loaded PTX modules on
// the CPU, faithfully to the SIMT model, returning results, printf output
// and profiler counters.
//
// The API, in the order a program uses it:
//
//   - NewDevice makes a simulated GPU from an arch preset (arch.Lookup);
//     Options choose the functional or the timing driver, the workers, the
//     watchdog and where printf goes.
//   - Device.LoadModule parses and lowers PTX into a Module; its errors
//     read "file:line:col: message". Module.Kernel finds a Kernel by its
//     PTX or C++ name; Kernel.Params says how to pack the parameter buffer.
//   - Device.Malloc, Write, Read and Memset are the device's global memory
//     (buffers are device addresses, checked against their allocations).
//   - Device.Launch runs a Kernel with a LaunchConfig (grid, block, dynamic
//     shared memory) and the packed parameters, and returns a LaunchResult:
//     counters per grid (metrics.Counters), and with ModeTiming cycles and
//     time. A launch the GPU would refuse is a *ConfigError carrying the
//     CUDA error code (arch.CheckLaunch); a kernel that faults returns a
//     *Fault saying where, which FaultKind.CUDAError maps to the code a
//     CUDA program would see.
//
// The package examples show each step with its output.
package warpsim
