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
#include "flatten.h"
#include "inst.h"
#include "simplify.h"
#include "units_check.h"
#include "build.h"
#include "codegen.h"
#include "structure.h"

#include <time.h>
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

/* --time-passes: wall time of each pass, on stderr. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void pass_done(const DriverOptions *o, const char *name, double *t0)
{
    double t = now();
    if (o->time_passes)
        fprintf(stderr, "lmdlc: %-10s %9.3f ms\n", name, 1e3 * (t - *t0));
    *t0 = t;
}

static int exit_status(void)
{
    return diag_error_count() ? 2 : 0;
}

/* Zero-crossing relations: distinct relation nodes that depend on the
   state, in the remaining equations. */
static int count_relations(Dae *d)
{
    PtrMap seen = {0};
    PtrVec stack = {0};
    int n = 0;
    for (int i = 0; i < d->eqs.n; i++) {
        DaeEq *q = d->eqs.items[i];
        ptrvec_push(&d->arena, &stack, q->lhs);
        ptrvec_push(&d->arena, &stack, q->rhs);
    }
    while (stack.n) {
        DaeExpr *e = stack.items[--stack.n];
        if (ptrmap_get(&seen, e))
            continue;
        ptrmap_put(&seen, e, e);
        if (dae_is_relation(e) && dae_depends_on_state(e))
            n++;
        DaeExpr *kids[3];
        for (int i = 0, nk = dae_children(e, kids); i < nk; i++)
            ptrvec_push(&d->arena, &stack, kids[i]);
    }
    ptrmap_free(&seen);
    return n;
}

static void summary(FILE *out, SemaDef *top, Dae *d)
{
    int structural = 0;
    for (int i = 0; i < d->params.n; i++)
        structural += ((DaeParam *)d->params.items[i])->structural;
    fprintf(out, "model %s\n", top->ast->name->name);
    fprintf(out, "  components:               %d\n", d->ncomponents);
    fprintf(out, "  parameters:               %d (%d structural)\n", d->params.n, structural);
    fprintf(out, "  before simplification:    %d equations, %d variables\n", d->raw_eqs,
            d->raw_vars);
    fprintf(out, "  after simplification:     %d equations, %d variables\n", d->eqs.n,
            d->nvars_left);
    fprintf(out, "  assertions:               %d\n", d->asserts.n);
    fprintf(out, "  zero-crossing relations:  %d\n", count_relations(d));
}

int driver_run(const DriverOptions *o)
{
    Arena ast_arena = {0};
    int status;

    double t0 = now();
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
    pass_done(o, "parse", &t0);
    if (diag_error_count() || o->dump_ast)
        goto done;

    /* resolve */
    SemaDef *top = sema_resolve(p, o->top);
    pass_done(o, "resolve", &t0);
    if (diag_error_count() || !top)
        goto done;

    /* elaborate: the instance tree, parameters, arms, connections */
    Arena elab_arena = {0};
    Model *m = elab_model(p, top, &elab_arena);
    pass_done(o, "elaborate", &t0);
    /* units: dimensions of every active equation */
    if (!diag_error_count())
        units_check(m);
    pass_done(o, "units", &t0);
    /* flatten: one system of equations */
    if (!diag_error_count())
        flatten_model(m);
    pass_done(o, "flatten", &t0);
    if (!diag_error_count() && o->command == CMD_FLATTEN && o->raw)
        dae_print(o->out, m->dae, top->ast->name->name, false);
    /* simplify: constants, aliases */
    if (!diag_error_count() && !(o->command == CMD_FLATTEN && o->raw)) {
        simplify_dae(m->dae);
        pass_done(o, "simplify", &t0);
        if (!diag_error_count() && o->command == CMD_FLATTEN)
            dae_print(o->out, m->dae, top->ast->name->name, true);
    }
    /* structure: matching, index reduction, BLT */
    Structure *st = NULL;
    if (!diag_error_count() && (o->command != CMD_FLATTEN || m->dae->redundant.n)) {
        st = struct_analyze(m->dae);
        pass_done(o, "structure", &t0);
        if (st && o->command == CMD_CHECK) {
            summary(o->out, top, m->dae);
            struct_report(o->out, st, m->dae);
            if (o->dump_blocks)
                struct_dump(o->out, st, m->dae);
        }
    }
    /* codegen */
    if (st && !diag_error_count() && o->command != CMD_CHECK) {
        char *c = cg_generate(m->dae, st, top->ast->name->name);
        pass_done(o, "codegen", &t0);
        if (o->command == CMD_EMIT_C) {
            if (cg_write_file(o->output, c) != 0)
                diag_error(src_none, "cannot write '%s': %s", o->output, strerror(errno));
        } else if (o->command == CMD_BUILD) {
            size_t n = strlen(o->output) + 8;
            char *cpath = malloc(n);
            snprintf(cpath, n, "%s.c", o->output);
            if (cg_write_file(cpath, c) != 0)
                diag_error(src_none, "cannot write '%s': %s", cpath, strerror(errno));
            else if (build_compile(cpath, o->output) == 0)
                remove(cpath);
            pass_done(o, "cc", &t0);
            free(cpath);
        } else if (o->command == CMD_RUN) {
            build_run(c, top->ast->name->name, o->sim_argc, o->sim_argv);
        }
        free(c);
    }
    struct_free(st);
    elab_free(m);
    arena_free(&elab_arena);

done:
    status = exit_status();
    sema_program_free(p);
    arena_free(&ast_arena);
    return status;
}
