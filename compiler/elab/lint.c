/*
 * lint.c - warnings about a model that compiles: a node nothing is
 * connected to.
 *
 * A port of a child instance that appears in no connect() written outside
 * that instance (in its parent, or higher up through the parent's own
 * ports) is "not connected": a lever whose fulcrum T2 is left free
 * compiles, but its T2 end is a free point with zero force, which is
 * rarely what was meant (and then fails at run time, far from the
 * cause).  A free end can be meant (a spring's loose end), so this is a
 * warning, not an error as in Simscape; the notes point at the user's
 * instantiation.  The top model's own nodes are its interface and are
 * never warned about.
 */
#include "lint.h"

#include "diag.h"
#include "paths.h"

#include <stdlib.h>

bool lint_user_file(const Model *m, int file)
{
    SrcFile *f = src_get(file);
    return f && !paths_below(f->path, m->prog->opts.stdlib_dir);
}

void lint_unconnected_nodes(Model *m)
{
    bool *joined = mem_calloc((size_t)m->nnodes + 1, sizeof *joined);
    for (int i = 0; i < m->connects.n; i++) {
        ElabConnect *c = m->connects.items[i];
        for (int k = 0; k < c->n; k++)
            if (!c->own[k])
                joined[c->node[k]] = true;
    }
    for (int i = 0; i < m->insts.n; i++) {
        ElabInst *in = m->insts.items[i];
        if (!in->parent)
            continue;
        for (int j = 0; j < in->def->member_list.n; j++) {
            ElabSlot *s = &in->slots[j];
            if (!s->active || s->m->kind != MEM_NODE || s->node < 0 || joined[s->node])
                continue;
            diag_warning(s->m->decl ? s->m->decl->name_span : in->ast->span,
                         "node '%s.%s' is not connected to anything", in->path,
                         s->m->name->name);
            /* the nearest instantiation the user wrote */
            ElabInst *up = in;
            while (up->parent && !(up->ast && lint_user_file(m, up->ast->span.file)))
                up = up->parent;
            if (up->parent)
                diag_note(up->ast->span, "'%s' is declared here", up->path);
        }
    }
    free(joined);
}
