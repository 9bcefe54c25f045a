/*
 * match.c - augmenting-path bipartite matching (match.h).
 *
 * Each search is a depth-first walk from one equation over alternating
 * paths (a variable, then the equation it is matched to), with a cheap
 * lookahead first: an adjacent free variable ends the search at once.
 * The walk keeps its own stack, so its depth is not limited by the C
 * stack.  Visit stamps make a repeated search cost only what it visits.
 */
#include "match.h"

#include <stdlib.h>

void match_init(Matcher *m, int neq, int nvar)
{
    m->neq = neq;
    m->nvar = nvar;
    m->assign = mem_calloc((size_t)nvar, sizeof(int));
    m->eq_mate = mem_calloc((size_t)neq, sizeof(int));
    for (int i = 0; i < nvar; i++)
        m->assign[i] = -1;
    for (int i = 0; i < neq; i++)
        m->eq_mate[i] = -1;
    m->ecol = mem_calloc((size_t)neq, sizeof(uint32_t));
    m->vcol = mem_calloc((size_t)nvar, sizeof(uint32_t));
    m->stack_eq = mem_calloc((size_t)neq + 1, sizeof(int));
    m->stack_pos = mem_calloc((size_t)neq + 1, sizeof(int));
    m->stack_via = mem_calloc((size_t)neq + 1, sizeof(int));
    m->stamp = 0;
    m->colored_eqs = m->colored_vars = NULL;
}

void match_grow(Matcher *m, int neq, int nvar)
{
    if (nvar > m->nvar) {
        m->assign = realloc(m->assign, sizeof(int) * (size_t)nvar);
        m->vcol = realloc(m->vcol, sizeof(uint32_t) * (size_t)nvar);
        for (int i = m->nvar; i < nvar; i++) {
            m->assign[i] = -1;
            m->vcol[i] = 0;
        }
        m->nvar = nvar;
    }
    if (neq > m->neq) {
        m->eq_mate = realloc(m->eq_mate, sizeof(int) * (size_t)neq);
        m->ecol = realloc(m->ecol, sizeof(uint32_t) * (size_t)neq);
        m->stack_eq = realloc(m->stack_eq, sizeof(int) * (size_t)(neq + 1));
        m->stack_pos = realloc(m->stack_pos, sizeof(int) * (size_t)(neq + 1));
        m->stack_via = realloc(m->stack_via, sizeof(int) * (size_t)(neq + 1));
        for (int i = m->neq; i < neq; i++) {
            m->eq_mate[i] = -1;
            m->ecol[i] = 0;
        }
        m->neq = neq;
    }
    if (!m->assign || !m->vcol || !m->eq_mate || !m->ecol || !m->stack_eq
        || !m->stack_pos || !m->stack_via)
        abort();
}

void match_free(Matcher *m)
{
    free(m->assign);
    free(m->eq_mate);
    free(m->ecol);
    free(m->vcol);
    free(m->stack_eq);
    free(m->stack_pos);
    free(m->stack_via);
}

static void color_eq(Matcher *m, const MatchGraph *g, int e)
{
    m->ecol[e] = m->stamp;
    if (m->colored_eqs)
        ptrvec_push(g->arena, m->colored_eqs, (void *)(intptr_t)e);
}

bool match_augment(Matcher *m, const MatchGraph *g, int root)
{
    m->stamp++;
    int top = 0;
    m->stack_eq[0] = root;
    m->stack_pos[0] = -1; /* -1: lookahead not done yet */
    m->stack_via[0] = -1;
    color_eq(m, g, root);
    while (top >= 0) {
        int e = m->stack_eq[top];
        int n = g->nadj(g->ctx, e);
        if (m->stack_pos[top] < 0) {
            /* cheap assignment first: an adjacent free variable */
            for (int k = 0; k < n; k++) {
                int v = g->adj(g->ctx, e, k);
                if (!g->ok(g->ctx, v) || m->assign[v] >= 0)
                    continue;
                /* flip the path */
                m->assign[v] = e;
                m->eq_mate[e] = v;
                for (int l = top; l > 0; l--) {
                    int via = m->stack_via[l];
                    int prev = m->stack_eq[l - 1];
                    m->assign[via] = prev;
                    m->eq_mate[prev] = via;
                }
                if (m->colored_vars)
                    ptrvec_push(g->arena, m->colored_vars, (void *)(intptr_t)v);
                return true;
            }
            m->stack_pos[top] = 0;
        }
        bool pushed = false;
        while (m->stack_pos[top] < n) {
            int v = g->adj(g->ctx, e, m->stack_pos[top]++);
            if (!g->ok(g->ctx, v) || m->vcol[v] == m->stamp)
                continue;
            m->vcol[v] = m->stamp;
            if (m->colored_vars)
                ptrvec_push(g->arena, m->colored_vars, (void *)(intptr_t)v);
            int e2 = m->assign[v];
            if (e2 < 0 || m->ecol[e2] == m->stamp)
                continue;
            color_eq(m, g, e2);
            top++;
            m->stack_eq[top] = e2;
            m->stack_pos[top] = -1;
            m->stack_via[top] = v;
            pushed = true;
            break;
        }
        if (!pushed && m->stack_pos[top] >= n)
            top--;
    }
    return false;
}
