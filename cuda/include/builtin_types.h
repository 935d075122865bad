/* warpsim: builtin_types.h — the vector types and the runtime's types. */
#include "vector_types.h"
#include "driver_types.h"
#include "texture_types.h"
