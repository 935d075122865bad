package runtime

import (
	"fmt"
	"os"
)

// ServeProgram is `warpsim __runtime`, the simulator process a program
// built by `warpsim cc` starts on its first CUDA call: requests on fd 3,
// replies on fd 4, the shared device memory on fd 5, the host-callback
// pipes on fds 6 and 7. Settings come from the environment (ReadSettings,
// and WARPSIM_SANITIZE: SanitizingFromEnv); a bad one is told to the
// program, which keeps running and gets the error from its CUDA calls.
// watch, when not nil, is started with the server before it serves (the
// command's Ctrl-C handling and progress line: Server.Interrupt and
// Server.Progress) and returns the function that stops it. The error is
// ErrInterrupted when an interrupt stopped a kernel.
func ServeProgram(watch func(*Server) (stop func())) error {
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	if in == nil || out == nil {
		return fmt.Errorf("__runtime is started by programs built with warpsim cc")
	}
	set, err := ReadSettings(os.Getenv)
	opt := Options{
		NewDevice:      NewSimDevice(set),
		Arch:           set.Arch,
		ProfilePath:    set.ProfilePath,
		ProfileBlocks:  set.ProfileBlocks,
		LaunchBlocking: set.LaunchBlocking,
		Window:         os.NewFile(5, "device-memory"),
		Callbacks:      os.NewFile(6, "callbacks"),
		CallbacksDone:  os.NewFile(7, "callbacks-done"),
	}
	if se, ok := err.(*SettingsError); ok {
		opt.SettingsErr = se
	} else if z, err := SanitizingFromEnv(set.Arch); err != nil {
		opt.SettingsErr = &SettingsError{Code: ErrorInvalidValue, Msg: "warpsim: not a valid setting: " + err.Error()}
	} else {
		opt.Sanitize = z
	}
	srv := NewServer(opt)
	if watch != nil {
		stop := watch(srv)
		defer stop()
	}
	return srv.Serve(in, out)
}
