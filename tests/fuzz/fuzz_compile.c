/*
 * fuzz_compile.c - libFuzzer target for the whole compiler after parsing.
 *
 * Each input is one model file.  When it parses and resolves, it goes the
 * way `lmdlc emit-c` takes it: elaborate, units, flatten, simplify,
 * structure, codegen (without the C compiler).  Every pass must either
 * report an error or hand the next a well-formed result; a crash, a hang
 * or a leak anywhere is a bug.  Seeded with valid models (examples,
 * tests), whose mutations reach the passes that the front-end fuzzer
 * (fuzz_parse.c) cannot.
 *
 * Memory is handled as in fuzz_parse.c: everything freed per input, the
 * intern table dropped every few thousand inputs.
 */
#include "codegen.h"
#include "diag.h"
#include "flatten.h"
#include "inst.h"
#include "simplify.h"
#include "units_check.h"
#include "sema.h"
#include "source.h"
#include "structure.h"
#include "sym.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { INPUTS_PER_SYM_RESET = 4096 };

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned long runs;
    if (!devnull) {
        devnull = fopen("/dev/null", "w");
        if (!devnull)
            abort();
        diag_set_stream(devnull);
    }
    diag_reset();
    Arena ast_arena = {0}, elab_arena = {0};
    SemaOptions opts = {NULL, 0, LMDL_STDLIB_DIR};
    Program *p = sema_program_new(&ast_arena, &opts);
    int file = src_add("/nonexistent/fuzz.lmdl", (const char *)data, size);
    sema_add_main(p, file);
    SemaDef *top = diag_error_count() ? NULL : sema_resolve(p, NULL);
    if (top && !diag_error_count()) {
        Model *m = elab_model(p, top, &elab_arena);
        if (!diag_error_count())
            units_check(m);
        if (!diag_error_count())
            flatten_model(m);
        if (!diag_error_count())
            simplify_dae(m->dae);
        Structure *st = NULL;
        if (!diag_error_count())
            st = struct_analyze(m->dae);
        if (st && !diag_error_count())
            free(cg_generate(m->dae, st, top->ast->name->name));
        struct_free(st);
        elab_free(m);
    }
    sema_program_free(p);
    arena_free(&elab_arena);
    arena_free(&ast_arena);
    src_free_all();
    if (++runs % INPUTS_PER_SYM_RESET == 0)
        sym_free_all();
    return 0;
}
