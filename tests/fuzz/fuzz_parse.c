/*
 * fuzz_parse.c - libFuzzer target for the front end.
 *
 * Each input is taken as the text of one model file and goes the way
 * `lmdlc check --dump-ast` takes it: parse, dump the tree, resolve every
 * definition and the top model, and describe each definition as
 * `lmdlc doc` would (plain and --markdown) when nothing went wrong.
 * Resolution runs even after syntax errors (the driver stops there): a
 * partial tree must never crash a later pass either, and fuzzing it costs
 * nothing.
 *
 * Names the input uses are looked up on the real search path, so the
 * standard library is loaded and resolved too; the model file's own
 * directory does not exist, so nothing else on disk is read.
 *
 * Everything an input allocates is freed before the next: the program and
 * its tree (one arena), the source table, the diagnostic counters.  The
 * intern table is global and only grows; it is dropped every few thousand
 * inputs, between two inputs, when no name from an earlier input is
 * referenced any more, so that a long run's memory stays bounded.
 * Diagnostics go to /dev/null, opened once.
 */
#include "ast.h"
#include "diag.h"
#include "doc.h"
#include "sema.h"
#include "source.h"
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

    Arena arena = {0};
    SemaOptions opts = {NULL, 0, LMDL_STDLIB_DIR};
    Program *p = sema_program_new(&arena, &opts);
    int file = src_add("/nonexistent/fuzz.lmdl", (const char *)data, size);
    AstFile *ast = sema_add_main(p, file);
    ast_dump_file(devnull, ast);
    sema_resolve_all(p);
    sema_resolve(p, NULL);
    if (!diag_error_count()) {
        for (int i = 0; i < p->all_defs.n; i++) {
            SemaDef *d = p->all_defs.items[i];
            if (d->file == file) {
                doc_print(devnull, p, d, false, LMDL_STDLIB_DIR);
                doc_print(devnull, p, d, true, LMDL_STDLIB_DIR);
            }
        }
    }

    sema_program_free(p);
    arena_free(&arena);
    src_free_all();
    if (++runs % INPUTS_PER_SYM_RESET == 0)
        sym_free_all();
    return 0;
}
