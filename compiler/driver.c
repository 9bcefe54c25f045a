/*
 * driver.c - runs the passes in order (QBE's main loop):
 *
 *   parse -> resolve -> elaborate -> units -> flatten -> simplify
 *         -> structure -> codegen
 *
 * Each pass reports through diag and never exits; the driver stops between
 * passes when errors were counted, and frees each phase's arena when its
 * output is no longer needed.  Passes that are not built yet are marked
 * where they will be called.
 */
#include "driver.h"

#include "diag.h"
#include "doc.h"
#include "parse.h"
#include "sema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *driver_stdlib_dir(void)
{
    const char *env = getenv("LMDL_STDLIB");
    return env && *env ? env : LMDL_STDLIB_DIR;
}

static int exit_status(void)
{
    return diag_error_count() ? 2 : 0;
}

/* Counts the instances below d (unconditional and conditional arms alike),
   for the check summary. */
static int count_instances(PtrVec *items)
{
    int n = 0;
    for (int i = 0; i < items->n; i++) {
        AstItem *it = items->items[i];
        if (it->kind == ITEM_SECTION) {
            if (it->u.section.kind == SEC_COMPONENTS)
                n += it->u.section.entries.n;
        } else {
            for (int j = 0; j < it->u.if_.clauses.n; j++)
                n += count_instances(&((AstClause *)it->u.if_.clauses.items[j])->body);
        }
    }
    return n;
}

static void summary(FILE *out, Program *p, SemaDef *top)
{
    int nfiles = p->files.n, ndefs = p->all_defs.n;
    fprintf(out, "model %s: %d definition%s from %d file%s, %d component "
            "instance%s in the top model\n", top->ast->name->name, ndefs,
            ndefs == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s",
            count_instances(&top->ast->items),
            count_instances(&top->ast->items) == 1 ? "" : "s");
}

static int run_doc(const DriverOptions *o, Arena *ast_arena)
{
    SemaOptions so = {o->include_dirs, o->ninclude, driver_stdlib_dir()};
    Program *p = sema_program_new(ast_arena, &so);
    /* A name, not a file: the current directory plays the model file's. */
    p->main_file = src_add("./(doc)", "", 0);
    SemaDef *d = sema_lookup(p, sym_cstr(o->file), p->main_file);
    if (!d) {
        if (!diag_error_count()) {
            const char *s = sema_suggest_def(p, o->file);
            diag_error(src_none, "unknown component '%s'%s%s%s", o->file,
                       s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
        }
        sema_program_free(p);
        return 2;
    }
    sema_resolve_def(p, d);
    if (!diag_error_count())
        doc_print(o->out, p, d);
    sema_program_free(p);
    return exit_status();
}

int driver_run(const DriverOptions *o)
{
    Arena ast_arena = {0};
    int status;
    if (o->command == CMD_DOC) {
        status = run_doc(o, &ast_arena);
        arena_free(&ast_arena);
        return status;
    }

    /* parse */
    int file = src_load(o->file);
    if (file < 0) {
        diag_error(src_none, "cannot read '%s': %s", o->file, strerror(errno));
        return 2;
    }
    SemaOptions so = {o->include_dirs, o->ninclude, driver_stdlib_dir()};
    Program *p = sema_program_new(&ast_arena, &so);
    AstFile *ast = sema_add_main(p, file);
    if (o->dump_ast)
        ast_dump_file(o->out, ast);
    if (diag_error_count())
        goto done;

    /* resolve */
    SemaDef *top = sema_resolve(p, o->top);
    if (diag_error_count() || !top)
        goto done;

    /* elaborate, units, flatten, simplify, structure, codegen: issues 3-4 */

    if (o->command == CMD_CHECK && !o->dump_ast)
        summary(o->out, p, top);
done:
    status = exit_status();
    sema_program_free(p);
    arena_free(&ast_arena);
    return status;
}
