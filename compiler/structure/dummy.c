/*
 * dummy.c - index reduction: Pantelides (1988) and dummy derivatives
 * (Mattsson and Soderlind 1993).
 *
 * Pantelides matches each equation to a highest derivative by augmenting
 * paths (match.h); when no path exists, every equation and variable the
 * failed search visited is differentiated (symbolic differentiation of
 * the residual) and the search repeats on the derivative equation.  Then,
 * from the most differentiated equations down, as many highest
 * derivatives as there are equations at that level become algebraic
 * "dummies", chosen by Gaussian elimination with pivoting on the Jacobian
 * evaluated at the start values, preferring to keep as states the
 * variables with targets and those of masses and inertias.
 */
#include "st.h"

#include "diag.h"
#include "prefer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numeric evaluation at the start point -------------------------------- */

typedef struct Point {
    const double *p;        /* parameter defaults */
    const double *v;        /* per DaeVar: start value (order 0) */
} Point;

static double eval_at(const DaeExpr *e, const Point *pt)
{
    return dae_eval(e, pt->p, pt->v, 0);
}

/* ---- Pantelides ------------------------------------------------------------ */

bool dummy_pantelides(St *t, Matcher *m)
{
    MatchGraph g = {st_base_nadj, st_node_adj, st_highest, t, &t->s->arena};
    PtrVec ceqs = {0}, cvars = {0};
    m->colored_eqs = &ceqs;
    m->colored_vars = &cvars;
    int norig = t->s->eqs.n;
    int limit = 20 * norig + 1000;
    for (int k = 0; k < norig; k++) {
        int i = k;
        for (;;) {
            ceqs.n = cvars.n = 0;
            match_grow(m, t->s->eqs.n, t->s->vars.n);
            if (match_augment(m, &g, i))
                break;
            if (t->s->eqs.n > limit) {
                DaeEq *q = t->d->eqs.items[st_eq_at(t, i)->base];
                diag_error(q->span, "index reduction does not terminate: this equation "
                           "has been differentiated %d times", st_eq_at(t, i)->level);
                dae_note_eq_places(t->d, q, NULL);
                return false;
            }
            /* differentiate every colored variable ... */
            int nv = cvars.n;
            for (int j = 0; j < nv; j++) {
                int v = (int)(intptr_t)cvars.items[j];
                StVar *x = st_var_at(t, v);
                if (x->deriv < 0)
                    st_node_of(t, x->var, x->order + 1);
            }
            /* ... and every colored equation */
            for (int j = 0; j < ceqs.n; j++) {
                int e = (int)(intptr_t)ceqs.items[j];
                StEq *q = st_eq_at(t, e);
                if (q->deriv >= 0)
                    continue;
                DaeExpr *dr = dae_diff_time(&t->d->t, q->res, NULL);
                int ne = st_add_eq(t, dr, q->base, q->level + 1);
                st_eq_at(t, e)->deriv = ne;
                st_eq_at(t, ne)->anti = e;
                t->s->ndiff++;
            }
            match_grow(m, t->s->eqs.n, t->s->vars.n);
            /* the derivative of each colored variable is assigned to the
               derivative of its equation */
            for (int j = 0; j < nv; j++) {
                int v = (int)(intptr_t)cvars.items[j];
                int e = m->assign[v];
                StVar *x = st_var_at(t, v);
                if (e >= 0 && x->deriv >= 0) {
                    int de = st_eq_at(t, e)->deriv;
                    m->assign[x->deriv] = de;
                    if (de >= 0)
                        m->eq_mate[de] = x->deriv;
                }
            }
            for (int j = 0; j < nv; j++)
                m->assign[(int)(intptr_t)cvars.items[j]] = -1;
            i = st_eq_at(t, i)->deriv;
        }
    }
    m->colored_eqs = m->colored_vars = NULL;
    return true;
}

/* ---- dummy derivatives ---------------------------------------------------- */

typedef struct Cand {
    int node;       /* StVar */
    int score;      /* prefer_rank's strong part: low is chosen as dummy first */
} Cand;

static int cmp_cand(const void *x, const void *y)
{
    const Cand *a = x, *b = y;
    if (a->score != b->score)
        return a->score - b->score;
    return b->node - a->node;
}

/* Chooses nr dummies among the nc columns `cols` (sorted: preferred
   dummies first) for the equations `rows`: Gaussian elimination with
   column preference on the Jacobian at the start point.  colpos maps a
   StVar to its position in cols, or -1.  chosen[] receives positions. */
static bool choose_dummies(St *t, int *rows, int nr, Cand *cols, int nc, const int *colpos,
                           const Point *pt, int *chosen)
{
    double *A = mem_calloc((size_t)nr * (size_t)nc, sizeof(double));
    char *varying = mem_calloc((size_t)nc + 1, 1);
    double amax = 0;
    for (int i = 0; i < nr; i++) {
        StEq *q = st_eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j < 0)
                continue;
            StVar *x = st_var_at(t, cols[j].node);
            DaeExpr *dj = dae_diff_var(&t->d->t, q->res, x->var, x->order, NULL);
            if (dae_depends_on_state(dj))
                varying[j] = 1;
            double v = eval_at(dj, pt);
            if (!isfinite(v))
                v = 0;
            A[(size_t)i * (size_t)nc + (size_t)j] = v;
            if (fabs(v) > amax)
                amax = fabs(v);
        }
    }
    /* Within one preference class, solve first for the unknowns that enter
       with constant coefficients: their pivots can never vanish, so the
       states left (an angle under sin/cos, say) stay valid everywhere. */
    int *order = mem_calloc((size_t)nc + 1, sizeof(int));
    int no = 0;
    for (int j0 = 0; j0 < nc;) {
        int j1 = j0;
        while (j1 < nc && cols[j1].score == cols[j0].score)
            j1++;
        for (int pass = 0; pass < 2; pass++)
            for (int j = j0; j < j1; j++)
                if (varying[j] == pass)
                    order[no++] = j;
        j0 = j1;
    }
    char *rowdone = mem_calloc((size_t)nr, 1), *coldone = mem_calloc((size_t)nc, 1);
    int got = 0;
    double tol = 1e-10 * (amax > 0 ? amax : 1);
    for (int step = 0; step < nr; step++) {
        int pc = -1, pr = -1;
        for (int jj = 0; jj < nc && pc < 0; jj++) {
            int j = order[jj];
            if (coldone[j])
                continue;
            double best = tol;
            for (int i = 0; i < nr; i++) {
                if (rowdone[i])
                    continue;
                double v = fabs(A[(size_t)i * (size_t)nc + (size_t)j]);
                if (v > best) {
                    best = v;
                    pr = i;
                    pc = j;
                }
            }
        }
        if (pc < 0)
            break;
        rowdone[pr] = coldone[pc] = 1;
        chosen[got++] = pc;
        double piv = A[(size_t)pr * (size_t)nc + (size_t)pc];
        for (int i = 0; i < nr; i++) {
            if (rowdone[i])
                continue;
            double f = A[(size_t)i * (size_t)nc + (size_t)pc] / piv;
            if (f == 0)
                continue;
            for (int j = 0; j < nc; j++)
                A[(size_t)i * (size_t)nc + (size_t)j] -= f * A[(size_t)pr * (size_t)nc + (size_t)j];
        }
    }
    free(A);
    free(rowdone);
    free(coldone);
    free(order);
    free(varying);
    return got == nr;
}

/* Structural fallback: a maximum matching of rows to columns by
   augmenting paths (BFS), trying columns in preference order. */
static bool choose_structural(St *t, int *rows, int nr, int nc, const int *colpos,
                              int *chosen)
{
    int *row_of = mem_calloc((size_t)nc + 1, sizeof(int));
    int *prevc = mem_calloc((size_t)nc + 1, sizeof(int));
    int *queue = mem_calloc((size_t)nc + 1, sizeof(int));
    uint32_t *vis = mem_calloc((size_t)nc + 1, sizeof(uint32_t));
    for (int j = 0; j < nc; j++)
        row_of[j] = -1;
    int got = 0;
    for (int i = 0; i < nr; i++) {
        int qh = 0, qt = 0, found = -1;
        uint32_t stamp = (uint32_t)i + 1;
        /* columns of row i, in preference order (positions are sorted) */
        StEq *q = st_eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j >= 0 && vis[j] != stamp) {
                vis[j] = stamp;
                prevc[j] = -1;
                queue[qt++] = j;
            }
        }
        while (qh < qt && found < 0) {
            int j = queue[qh++];
            if (row_of[j] < 0) {
                found = j;
                break;
            }
            StEq *q2 = st_eq_at(t, rows[row_of[j]]);
            for (int k = 0; k < q2->nadj; k++) {
                int j2 = colpos[q2->adj[k]];
                if (j2 >= 0 && vis[j2] != stamp) {
                    vis[j2] = stamp;
                    prevc[j2] = j;
                    queue[qt++] = j2;
                }
            }
        }
        if (found < 0)
            continue;
        /* flip the path: each column takes the row of the one before */
        int r = i;
        for (int j = found; j >= 0;) {
            int pj = prevc[j];
            int old = row_of[j];
            row_of[j] = r;
            r = old;
            j = pj;
        }
        got++;
    }
    int k = 0;
    for (int j = 0; j < nc; j++)
        if (row_of[j] >= 0)
            chosen[k++] = j;
    free(row_of);
    free(prevc);
    free(queue);
    free(vis);
    return got == nr;
}

static int uf_find(int *uf, int x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

/* Chooses the dummies of one level: the rows and candidate columns are
   split into independent groups (connected through the columns they
   share), each chosen on its own, so the cost stays linear in the number
   of groups. */
static bool choose_level(St *t, int *rows, int nr, Cand *cols, int nc, const Point *pt,
                         int *colpos, int *chosen_nodes)
{
    int n = nr + nc;
    int *uf = mem_calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        uf[i] = i;
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = j;
    for (int i = 0; i < nr; i++) {
        StEq *q = st_eq_at(t, rows[i]);
        for (int k = 0; k < q->nadj; k++) {
            int j = colpos[q->adj[k]];
            if (j >= 0) {
                int a = uf_find(uf, i), b = uf_find(uf, nr + j);
                if (a != b)
                    uf[a] = b;
            }
        }
    }
    /* group members, keeping the column order */
    int *count = mem_calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        count[uf_find(uf, i)]++;
    int *start = mem_calloc((size_t)n + 2, sizeof(int));
    for (int i = 0; i < n; i++)
        start[i + 1] = start[i] + count[i];
    int *fill = mem_calloc((size_t)n + 1, sizeof(int));
    int *members = mem_calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++) {
        int r = uf_find(uf, i);
        members[start[r] + fill[r]++] = i;
    }
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = -1;
    bool ok = true;
    int nchosen = 0;
    int *grow = mem_calloc((size_t)nr + 1, sizeof(int));
    Cand *gcol = mem_calloc((size_t)nc + 1, sizeof(Cand));
    int *gchosen = mem_calloc((size_t)nr + 1, sizeof(int));
    for (int r = 0; r < n && ok; r++) {
        if (count[r] == 0)
            continue;
        int gr = 0, gc = 0;
        for (int k = start[r]; k < start[r + 1]; k++) {
            int m = members[k];
            if (m < nr)
                grow[gr++] = rows[m];
            else
                gcol[gc++] = cols[m - nr];
        }
        if (!gr)
            continue;
        /* positions within the group, for the choosers (every other
           column is -1: reset once before the groups, and after each) */
        for (int j = 0; j < gc; j++)
            colpos[gcol[j].node] = j;
        bool got = gr <= gc && gr <= 400
                   && choose_dummies(t, grow, gr, gcol, gc, colpos, pt, gchosen);
        if (!got)
            got = gr <= gc && choose_structural(t, grow, gr, gc, colpos, gchosen);
        if (!got) {
            DaeEq *q = t->d->eqs.items[st_eq_at(t, grow[0])->base];
            diag_error(q->span, "index reduction failed: the differentiated "
                       "constraints cannot be solved for any choice of dummy "
                       "derivatives");
            dae_note_eq_places(t->d, q, NULL);
            ok = false;
            break;
        }
        for (int i = 0; i < gr; i++)
            chosen_nodes[nchosen++] = gcol[gchosen[i]].node;
        for (int j = 0; j < gc; j++)
            colpos[gcol[j].node] = -1;
    }
    for (int j = 0; j < nc; j++)
        colpos[cols[j].node] = -1;
    free(uf); free(count); free(start); free(fill); free(members);
    free(grow); free(gcol); free(gchosen);
    return ok;
}

bool dummy_derivatives(St *t)
{
    Dae *d = t->d;
    Structure *s = t->s;
    int np = d->params.n, nv = d->vars.n;
    double *pv = mem_calloc((size_t)np + 1, sizeof(double));
    for (int i = 0; i < np; i++)
        pv[i] = ((DaeParam *)d->params.items[i])->value;
    double *vv = mem_calloc((size_t)nv + 1, sizeof(double));
    for (int i = 0; i < nv; i++) {
        DaeVar *x = d->vars.items[i];
        vv[i] = x->eliminated ? 0 : dae_eval_params(x->start, pv);
        if (!isfinite(vv[i]))
            vv[i] = 0;
    }
    Point pt = {pv, vv};
    int *colpos = mem_calloc((size_t)s->vars.n + 1, sizeof(int));
    for (int i = 0; i < s->vars.n; i++)
        colpos[i] = -1;
    /* the chain of each original equation */
    int norig = d->eqs.n;
    int *top = mem_calloc((size_t)norig + 1, sizeof(int));   /* highest level eq */
    int *cur = mem_calloc((size_t)norig + 1, sizeof(int));
    int maxlevel = 0;
    for (int e = 0; e < norig; e++) {
        int i = e;
        while (st_eq_at(t, i)->deriv >= 0)
            i = st_eq_at(t, i)->deriv;
        top[e] = i;
        cur[e] = i;
        if (st_eq_at(t, i)->level > maxlevel)
            maxlevel = st_eq_at(t, i)->level;
    }
    /* z: the candidate columns at the current level, as StVar indices */
    PtrVec z = {0};
    for (int i = 0; i < s->vars.n; i++) {
        StVar *x = st_var_at(t, i);
        if (x->deriv < 0 && x->order >= 1)
            ptrvec_push(&s->arena, &z, (void *)(intptr_t)i);
    }
    bool ok = true;
    for (int level = maxlevel; level >= 1 && ok; level--) {
        /* G: equations of every chain at its level >= 1, walked down in
           lockstep from each chain's top */
        PtrVec rows = {0};
        for (int e = 0; e < norig; e++) {
            StEq *q = st_eq_at(t, cur[e]);
            if (q->level >= 1 && st_eq_at(t, top[e])->level - q->level == maxlevel - level)
                ptrvec_push(&s->arena, &rows, (void *)(intptr_t)cur[e]);
        }
        if (!rows.n)
            continue;
        int nr = rows.n, nc = 0;
        /* candidate columns: the z entries these rows mention */
        char *mentioned = mem_calloc((size_t)s->vars.n + 1, 1);
        for (int i = 0; i < nr; i++) {
            StEq *q = st_eq_at(t, (int)(intptr_t)rows.items[i]);
            for (int k = 0; k < q->nadj; k++)
                mentioned[q->adj[k]] = 1;
        }
        Cand *cols = mem_calloc((size_t)z.n + 1, sizeof(Cand));
        for (int j = 0; j < z.n; j++) {
            int node = (int)(intptr_t)z.items[j];
            if (!mentioned[node])
                continue;
            cols[nc].node = node;
            cols[nc++].score = prefer_rank(d->vars.items[st_var_at(t, node)->var])
                               / PREFER_STRONG;
        }
        free(mentioned);
        qsort(cols, (size_t)nc, sizeof(Cand), cmp_cand);
        int *rowidx = mem_calloc((size_t)nr + 1, sizeof(int));
        for (int i = 0; i < nr; i++)
            rowidx[i] = (int)(intptr_t)rows.items[i];
        int *chosen = mem_calloc((size_t)nr + 1, sizeof(int));
        if (!choose_level(t, rowidx, nr, cols, nc, &pt, colpos, chosen)) {
            ok = false;
        } else {
            PtrVec next = {0};
            for (int i = 0; i < nr; i++) {
                StVar *x = st_var_at(t, chosen[i]);
                x->dummy = true;
                if (x->order >= 2) {
                    int lower = t->by_order[x->var][x->order - 1];
                    ptrvec_push(&s->arena, &next, (void *)(intptr_t)lower);
                }
            }
            z = next;
        }
        free(cols);
        free(rowidx);
        free(chosen);
        /* step every chain at this level one down */
        for (int e = 0; e < norig; e++) {
            StEq *q = st_eq_at(t, cur[e]);
            if (q->level >= 1 && st_eq_at(t, top[e])->level - q->level == maxlevel - level)
                cur[e] = q->anti;
        }
    }
    free(pv);
    free(vv);
    free(top);
    free(cur);
    free(colpos);
    return ok;
}
