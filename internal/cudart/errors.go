package cudart

// Error is a cudaError_t, numbered as CUDA numbers it.
type Error uint32

// The cudaError_t values the runtime returns.
const (
	Success                     Error = 0
	ErrorInvalidValue           Error = 1
	ErrorMemoryAllocation       Error = 2
	ErrorInitializationError    Error = 3
	ErrorInvalidConfiguration   Error = 9
	ErrorInsufficientDriver     Error = 35
	ErrorInvalidSymbol          Error = 13
	ErrorUnsupportedLimit       Error = 215
	ErrorInvalidDevicePointer   Error = 17
	ErrorInvalidDeviceFunction  Error = 98
	ErrorNoDevice               Error = 100
	ErrorInvalidPtx             Error = 218
	ErrorUnsupportedDevSideSync Error = 225
	ErrorMapBufferObjectFailed  Error = 205
	ErrorInvalidResourceHandle  Error = 400
	ErrorSymbolNotFound         Error = 500
	ErrorNotReady               Error = 600
	ErrorIllegalAddress         Error = 700
	ErrorLaunchOutOfResources   Error = 701
	ErrorLaunchTimeout          Error = 702
	ErrorAssert                 Error = 710
	ErrorIllegalInstruction     Error = 715
	ErrorMisalignedAddress      Error = 716
	ErrorLaunchFailure          Error = 719
	ErrorNotSupported           Error = 801
	ErrorUnknown                Error = 999
)
