/* warpsim: see texture_types.h. */
#include "texture_types.h"
