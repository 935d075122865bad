package cudart

import "os"

// ProgramOptions are the options of `warpsim __runtime`, the simulator
// process a program built by `warpsim cc` starts on its first CUDA call:
// requests on fd 3, replies on fd 4, the shared device memory on fd 5, the
// host-callback pipes on fds 6 and 7. Settings come from the environment
// (ReadSettings); a bad one becomes SettingsErr, which the program hears of
// at its first CUDA call while it keeps running.
func ProgramOptions() Options {
	set, err := ReadSettings(os.Getenv)
	HoldReportLock(os.Getenv(EnvReportLock))
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
	}
	return opt
}
