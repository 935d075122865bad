/* warpsim: see texture_fetch_functions.h. */
#include "texture_fetch_functions.h"
