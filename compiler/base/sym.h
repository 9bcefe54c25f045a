/*
 * sym.h - interned identifiers.
 *
 * Every identifier in every file is interned once, so two names are equal
 * exactly when their Sym pointers are equal.  The table lives for the whole
 * run (its own arena) because names flow from the AST into every later IR.
 */
#ifndef LMDL_SYM_H
#define LMDL_SYM_H

#include <stddef.h>
#include <stdint.h>

typedef struct Sym {
    const char *name;   /* NUL-terminated text */
    size_t len;         /* strlen(name) */
    uint32_t hash;      /* FNV-1a of the text */
    struct Sym *next;   /* hash-bucket chain */
} Sym;

Sym *sym_intern(const char *s, size_t len);
Sym *sym_cstr(const char *s);
uint32_t sym_hash_bytes(const char *s, size_t len);
void sym_free_all(void);



/* A hash map from interned names to pointers: interned names are unique,
   so the pointer map serves (arena.h). */
#include "arena.h"

typedef PtrMap SymMap;

static inline void *symmap_get(const SymMap *m, const Sym *key)
{
    return ptrmap_get(m, key);
}

static inline void symmap_put(SymMap *m, Sym *key, void *val)
{
    ptrmap_put(m, key, val);
}

static inline void symmap_free(SymMap *m)
{
    ptrmap_free(m);
}

#endif
