/* warpsim: see surface_functions.h. */
#include "surface_functions.h"
