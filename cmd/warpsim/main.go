// Command warpsim runs CUDA kernels and programs on the CPU and reports what
// a GPU would do with them. See README.md for the commands.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
