/*
 * driver.c - runs the passes in order (QBE's main loop):
 *
 *   parse -> resolve -> elaborate -> units -> flatten -> simplify
 *         -> modes -> structure -> plan -> codegen
 *
 * Each pass reports through diag and never exits; the driver stops between
 * passes when errors were counted, or after the last pass the command
 * needs (the command table, driver.h), and frees each phase's arena when
 * its output is no longer needed.
 */
#include "driver.h"

#include "build.h"
#include "codegen.h"
#include "diag.h"
#include "bounds.h"
#include "flatten.h"
#include "inst.h"
#include "lint.h"
#include "outfile.h"
#include "paths.h"
#include "parse.h"
#include "plan.h"
#include "sema.h"
#include "simplify.h"
#include "modes.h"
#include "structure.h"
#include "units_check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *driver_stdlib_dir(void)
{
    return paths_stdlib_dir();
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

/* Zero-crossing modes: distinct relation and table-segment nodes that
   depend on the state, in the remaining equations. */
static bool count_relation(void *ctx, DaeExpr *e)
{
    if (dae_is_mode(e) && dae_depends_on_state(e))
        ++*(int *)ctx;
    return true;
}

static int count_relations(Dae *d)
{
    int n = 0;
    dae_each_eq_node(d, count_relation, &n);
    return n;
}

static void summary(FILE *out, const char *model, Dae *d)
{
    int structural = 0;
    for (int i = 0; i < d->params.n; i++)
        structural += ((DaeParam *)d->params.items[i])->structural;
    fprintf(out, "model %s\n", model);
    fprintf(out, "  components:               %d\n", d->ncomponents);
    fprintf(out, "  parameters:               %d (%d structural)\n", d->params.n, structural);
    fprintf(out, "  before simplification:    %d equations, %d variables\n", d->raw_eqs,
            d->raw_vars);
    fprintf(out, "  after simplification:     %d equations, %d variables\n", d->eqs.n,
            d->nvars_left);
    fprintf(out, "  assertions:               %d\n", d->asserts.n);
    fprintf(out, "  zero-crossing relations:  %d\n", count_relations(d));
}

/* The names of the top's nodes ("p, n"), or inputs, or NULL when it has
   none: a component with nodes is a library component, checked on its
   own (one with inputs too, by check; run gives its inputs their
   values). */
static const char *library_ports(Program *p, SemaDef *top, SemaMemberKind kind)
{
    char buf[256];
    size_t n = 0;
    int count = 0;
    buf[0] = 0;
    for (int i = 0; i < top->member_list.n; i++) {
        SemaMember *m = top->member_list.items[i];
        if (m->kind != kind)
            continue;
        if (count++ < 8 && n < sizeof buf)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", count > 1 ? ", " : "",
                                  m->name->name);
    }
    if (!count)
        return NULL;
    if (count > 8 && n < sizeof buf)
        snprintf(buf + n, sizeof buf - n, " and %d more", count - 8);
    return arena_strdup(p->arena, buf);
}

static bool has_component(const AstFile *f)
{
    for (int i = 0; i < f->defs.n; i++)
        if (((AstDef *)f->defs.items[i])->kind == DEF_COMPONENT)
            return true;
    return false;
}

/* check of a file of domains and functions: each, and what it has. */
static void definitions_summary(FILE *out, const AstFile *f)
{
    for (int i = 0; i < f->defs.n; i++) {
        const AstDef *d = f->defs.items[i];
        if (d->kind == DEF_FUNCTION) {
            fprintf(out, "function %s: %d argument%s, %d output%s\n", d->name->name,
                    d->inputs.n, d->inputs.n == 1 ? "" : "s", d->outputs.n,
                    d->outputs.n == 1 ? "" : "s");
            continue;
        }
        int count[SEC_KIND_COUNT] = {0};
        for (int j = 0; j < d->items.n; j++) {
            const AstItem *it = d->items.items[j];
            if (it->kind == ITEM_SECTION)
                count[it->u.section.kind] += it->u.section.entries.n;
        }
        fprintf(out, "domain %s: %d across variable%s, %d through variable%s, %d "
                "parameter%s, %d equation%s\n", d->name->name, count[SEC_ACROSS],
                count[SEC_ACROSS] == 1 ? "" : "s", count[SEC_THROUGH],
                count[SEC_THROUGH] == 1 ? "" : "s", count[SEC_PARAMETERS],
                count[SEC_PARAMETERS] == 1 ? "" : "s", count[SEC_EQUATIONS],
                count[SEC_EQUATIONS] == 1 ? "" : "s");
    }
}

/* check of a library component: what was checked, and its size. */
static void library_summary(FILE *out, Model *m, const char *model, const char *nodes)
{
    int params = 0, vars = 0, inputs = 0, outputs = 0, children = 0;
    ElabInst *top = m->top;
    for (int i = 0; i < top->def->member_list.n; i++) {
        ElabSlot *s = &top->slots[i];
        if (!s->active)
            continue;
        switch (s->m->kind) {
        case MEM_PARAMETER: params++; break;
        case MEM_VARIABLE: vars++; break;
        case MEM_INPUT: inputs++; break;
        case MEM_OUTPUT: outputs++; break;
        case MEM_INSTANCE: children++; break;
        default: break;
        }
    }
    fprintf(out, "component %s (a library component)\n", model);
    if (nodes)
        fprintf(out, "  nodes:                    %s\n", nodes);
    fprintf(out, "  parameters:               %d\n", params);
    fprintf(out, "  variables:                %d\n", vars);
    if (inputs || outputs)
        fprintf(out, "  inputs, outputs:          %d, %d\n", inputs, outputs);
    if (children)
        fprintf(out, "  components:               %d\n", children);
    if (m->top->def->hidden)
        fprintf(out, "  checked:                  names, units (Hidden = true: a base for "
                "others to extend, its balance is theirs)\n");
    else
        fprintf(out, "  checked:                  names, units, balance (one equation per "
                "variable); to simulate it, connect it in a closed model\n");
}

#define X_CMDINFO(c, name, stage, out, opts, tool) {name, stage, out, opts},
const DriverCommandInfo driver_commands[CMD_COUNT] = {DRIVER_COMMANDS(X_CMDINFO)};

int driver_find_command(const char *name)
{
    for (int i = 0; i < CMD_COUNT; i++)
        if (strcmp(driver_commands[i].name, name) == 0)
            return i;
    return -1;
}

/* What the command does with the generated C. */
/* Writes, builds or runs the C as the command says.  Returns true when
   the output is refused because it names one of the inputs (exit 1). */
static bool deliver_c(const DriverOptions *o, const char *c, const char *model, double *t0)
{
    DriverOutput out = driver_commands[o->command].output;
    if ((out == OUT_C_FILE || out == OUT_SIMULATOR) && outfile_is_input(o->output))
        return true;
    switch (out) {
    case OUT_C_FILE:
        if (outfile_write(o->output, c, strlen(c)) != 0)
            diag_error(src_none, "cannot write '%s': %s", o->output, strerror(errno));
        break;
    case OUT_SIMULATOR:
        build_executable(c, o->output);
        pass_done(o, "cc", t0);
        break;
    case OUT_RUN:
        build_run(c, model, o->sim_argc, o->sim_argv);
        break;
    default:
        break;
    }
    return false;
}

int driver_run(const DriverOptions *o)
{
    const DriverCommandInfo *cmd = &driver_commands[o->command];
    /* flatten --raw stops before simplification; --dump-ast after parsing */
    DriverStage stop = o->dump_ast ? STAGE_PARSE : o->raw ? STAGE_FLATTEN : cmd->stop;
    Arena ast_arena = {0}, elab_arena = {0};
    Program *p = NULL;
    Model *m = NULL;
    Dae *dae = NULL;
    Structure *st = NULL;
    Plan *plan = NULL;
    const char *model = NULL;       /* the top's name (interned: lives on) */
    SrcSpan top_span = src_none;    /* its name in its definition */

    double t0 = now();
    bool refused = false;   /* -o names one of the inputs */
    int tool_status = 0;    /* what an OUT_PLAN_TOOL command returned */
    /* parse */
    int file = o->loaded ? o->source : src_load(o->file);
    if (file < 0) {
        diag_error(src_none, "cannot read '%s': %s", o->file, strerror(errno));
        return 2;
    }
    SemaOptions so = {o->include_dirs, o->ninclude, driver_stdlib_dir()};
    p = sema_program_new(&ast_arena, &so);
    AstFile *ast = sema_add_main(p, file);
    if (o->dump_ast)
        ast_dump_file(o->out, ast);
    pass_done(o, "parse", &t0);
    if (diag_error_count() || stop == STAGE_PARSE)
        goto done;

    /* a file of domains or functions only: check checks them on their own */
    if (cmd->output == OUT_SUMMARY && !o->top && !o->dump_blocks && ast->defs.n
        && !has_component(ast)) {
        sema_resolve_all(p);
        pass_done(o, "resolve", &t0);
        if (!diag_error_count())
            definitions_summary(o->out, ast);
        goto done;
    }
    /* resolve */
    SemaDef *top = sema_resolve(p, o->top);
    pass_done(o, "resolve", &t0);
    if (diag_error_count() || !top)
        goto done;
    model = top->ast->name->name;
    top_span = top->ast->name_span;   /* the syntax trees go after flatten */
    /* a component with nodes is a library component: check checks it as
       Simscape's ssc_build does (names, units, its own balance); the
       commands that simulate need a closed model */
    const char *nodes = library_ports(p, top, MEM_NODE);
    const char *inputs = library_ports(p, top, MEM_INPUT);

    /* elaborate: the instance tree, parameters, arms, connections */
    m = elab_model(p, top, &elab_arena);
    pass_done(o, "elaborate", &t0);
    if (diag_error_count())
        goto done;
    /* units: the dimensions of the tree, and of every active equation */
    units_check(m);
    pass_done(o, "units", &t0);
    if (diag_error_count())
        goto done;
    if ((nodes || inputs) && cmd->output == OUT_SUMMARY && !o->top && !o->dump_blocks) {
        elab_check_sizes(m);
        if (diag_error_count())
            goto done;
        library_summary(o->out, m, model, nodes);
        goto done;
    }
    if (nodes && cmd->output != OUT_SUMMARY && cmd->output != OUT_DAE) {
        diag_error(top_span, "'%s' has nodes (%s): it is a library component, not a closed "
                   "model; %s needs a closed model, a component without nodes that "
                   "connects it to others (lmdlc check checks '%s' on its own)", model,
                   nodes, cmd->name, model);
        goto done;
    }
    /* check also says what is probably not meant (warnings only) */
    if (cmd->output == OUT_SUMMARY)
        lint_unconnected_nodes(m);
    /* flatten: one system of equations; the DAE owns all it needs, so
       the instance tree and the syntax trees go now */
    dae = flatten_model(m);
    pass_done(o, "flatten", &t0);
    if (dae->eqs.n > LIMIT_EQUATIONS)
        diag_error(top_span, "model '%s' has %d equations, more than %d, the limit of "
                   "the flat system (docs/language.md, \"Limits\")", model, dae->eqs.n,
                   LIMIT_EQUATIONS);
    elab_free(m);
    m = NULL;
    arena_free(&elab_arena);
    sema_program_free(p);
    p = NULL;
    arena_free(&ast_arena);
    if (diag_error_count())
        goto done;
    if (stop == STAGE_FLATTEN) {
        dae_print(o->out, dae, model, false);
        goto done;
    }
    /* simplify: constants, aliases */
    simplify_dae(dae);
    pass_done(o, "simplify", &t0);
    if (diag_error_count())
        goto done;
    /* modes: a mode's constraints on states differentiated, kept as resets */
    modes_analyze(dae);
    pass_done(o, "modes", &t0);
    if (diag_error_count())
        goto done;
    if (cmd->output == OUT_DAE)
        dae_print(o->out, dae, model, true);
    /* a redundant equation is reported by the structural analysis, which
       names what it leaves undetermined */
    if (stop == STAGE_SIMPLIFY && !dae->redundant.n)
        goto done;

    /* structure: matching, index reduction, BLT */
    st = struct_analyze(dae);
    pass_done(o, "structure", &t0);
    if (!st || diag_error_count() || stop == STAGE_SIMPLIFY)
        goto done;

    /* plan: how each block is solved, what is computed where */
    plan = plan_make(dae, st);
    if (plan && o->command == CMD_LINEARIZE)
        plan_linear(plan);  /* the symbolic Jacobians A, B, C, D come from */
    pass_done(o, "plan", &t0);
    if (!plan || diag_error_count())
        goto done;
    if (cmd->output == OUT_SUMMARY) {
        summary(o->out, model, dae);
        struct_report(o->out, st, dae);
        plan_report(o->out, plan);
        if (o->dump_blocks)
            plan_dump(o->out, plan);
    }
    if (stop == STAGE_PLAN)
        goto done;

    /* codegen */
    char *c = cg_generate(plan, model);
    pass_done(o, "codegen", &t0);
    if (!c) {
        diag_error(top_span, "the C of model '%s' would be more than %zu bytes, "
                   "the limit of code generation (docs/language.md, \"Limits\"); are its "
                   "vectors or loops larger than meant?", model, cg_c_limit());
        goto done;
    }
    if (o->c_text) {
        *o->c_text = c;
        goto done;
    }
    if (cmd->output == OUT_PLAN_TOOL && o->plan_tool)
        tool_status = o->plan_tool(plan, c, model, o);
    else
        refused = deliver_c(o, c, model, &t0);
    free(c);

done:
    plan_free(plan);
    struct_free(st);
    dae_free(dae);
    elab_free(m);
    arena_free(&elab_arena);
    int status = refused ? 1 : tool_status ? tool_status : exit_status();
    if (p)
        sema_program_free(p);
    arena_free(&ast_arena);
    return status;
}
