/* warpsim: device_atomic_functions.h — in warpsim's headers these declarations are in
 * cuda_runtime.h (device_functions.h, math_functions.h). */
#include "cuda_runtime.h"
