//go:build ignore

// gen_kernels.go writes the engine's AVX2 kernels and the Go that runs
// them from internal/kernelgen's tables: go generate ./internal/engine.
package main

import (
	"log"
	"os"

	"github.com/warpsim/warpsim/internal/engine/internal/kernelgen"
)

func main() {
	files, err := kernelgen.Files()
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(f.Name, f.Data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
