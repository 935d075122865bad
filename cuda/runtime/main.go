package runtime

import (
	"fmt"
	"io"
	"os"
)

// ServeProgram is `warpsim __runtime`, the simulator process a program
// built by `warpsim cc` starts on its first CUDA call: requests on fd 3,
// replies on fd 4, the shared device memory on fd 5, the host-callback
// pipes on fds 6 and 7. Settings come from the environment (ReadSettings);
// a bad one is told to the program, which keeps running and gets the error
// from its CUDA calls. progress, when not nil, draws long kernels' progress
// (it is used only when WARPSIM_PROGRESS allows).
func ServeProgram(stderr io.Writer, progress func(kernel string, done, total int)) error {
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	if in == nil || out == nil {
		return fmt.Errorf("__runtime is started by programs built with warpsim cc")
	}
	set, err := ReadSettings(os.Getenv)
	opt := Options{
		NewDevice:      NewSimDevice(set),
		Arch:           set.Arch,
		ProfilePath:    set.ProfilePath,
		LaunchBlocking: set.LaunchBlocking,
		Window:         os.NewFile(5, "device-memory"),
		Callbacks:      os.NewFile(6, "callbacks"),
		CallbacksDone:  os.NewFile(7, "callbacks-done"),
	}
	if set.Progress {
		opt.Progress = progress
	}
	if se, ok := err.(*SettingsError); ok {
		opt.SettingsErr = se
	}
	return NewServer(opt).Serve(in, out)
}
