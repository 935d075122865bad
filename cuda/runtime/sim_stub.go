//go:build !warpsim_engine

package runtime

import (
	"errors"
	"io"

	"github.com/warpsim/warpsim/arch"
)

// NewSimDevice is the simulator device. This build has no engine adapter
// yet (build with -tags warpsim_engine once package warpsim's Device API is
// in place); every module load fails with a clear message.
func NewSimDevice(a *arch.Arch, printf io.Writer) Device { return noEngine{a: a} }

type noEngine struct{ a *arch.Arch }

var errNoEngine = errors.New("this warpsim was built without the simulator engine")

func (n noEngine) Arch() *arch.Arch                                     { return n.a }
func (noEngine) Malloc(uint64) (uint64, error)                          { return 0, errNoEngine }
func (noEngine) Free(uint64) error                                      { return errNoEngine }
func (noEngine) Write(uint64, []byte) error                             { return errNoEngine }
func (noEngine) Read(uint64, []byte) error                              { return errNoEngine }
func (noEngine) Memset(uint64, byte, uint64) error                      { return errNoEngine }
func (noEngine) LoadModule(string, []byte) (Module, error)              { return nil, errNoEngine }
func (noEngine) Launch(Kernel, LaunchConfig, []byte) (*Launched, error) { return nil, errNoEngine }
