/*
 * zipdl.c - libzip found at run time (zipdl.h).
 */
#define ZIPDL_NO_MACROS
#include "zipdl.h"

#include <dlfcn.h>
#include <stdio.h>

ZipDl zipdl;

int zipdl_load(char *why, size_t n)
{
    static int loaded;
    if (loaded)
        return 0;
    /* the soname of Debian's libzip4, then the development link */
    static const char *const names[] = {"libzip.so.4", "libzip.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, n, "cannot load libzip (libzip.so.4: install libzip4): %s", dlerror());
        return -1;
    }
#define X_ZIPDL_LOAD(f)                                                      \
    *(void **)&zipdl.p_##f = dlsym(h, #f);                                   \
    if (!zipdl.p_##f) {                                                      \
        snprintf(why, n, "libzip has no %s: %s", #f, dlerror());             \
        return -1;                                                           \
    }
    ZIPDL_FUNCS(X_ZIPDL_LOAD)
    loaded = 1;
    return 0;
}
