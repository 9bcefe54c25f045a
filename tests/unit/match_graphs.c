/*
 * match_graphs.c - the augmenting-path matcher (compiler/structure/match.c) on small
 * hand-made bipartite graphs: an assignment that needs an augmenting path,
 * a singular system (two equations for one unknown), a structurally
 * singular one, the ok() restriction, growth, and the colored sets that
 * Pantelides differentiates.
 */
#include "match.h"
#include "unit.h"

#include <stdlib.h>

/* A graph as adjacency lists: eq i is adjacent to adj[i][0 .. deg[i]-1]. */
typedef struct TestGraph {
    const int *const *adj;
    const int *deg;
    const bool *allowed;    /* NULL: every variable */
} TestGraph;

static int g_nadj(void *ctx, int eq)
{
    return ((TestGraph *)ctx)->deg[eq];
}

static int g_adj(void *ctx, int eq, int k)
{
    return ((TestGraph *)ctx)->adj[eq][k];
}

static bool g_ok(void *ctx, int var)
{
    TestGraph *g = ctx;
    return !g->allowed || g->allowed[var];
}

/* Matches every equation in turn; returns how many were matched. */
static int match_all(Matcher *m, MatchGraph *mg, int neq)
{
    int n = 0;
    for (int e = 0; e < neq; e++)
        n += match_augment(m, mg, e);
    return n;
}

static bool consistent(const Matcher *m)
{
    for (int e = 0; e < m->neq; e++)
        if (m->eq_mate[e] >= 0 && m->assign[m->eq_mate[e]] != e)
            return false;
    for (int v = 0; v < m->nvar; v++)
        if (m->assign[v] >= 0 && m->eq_mate[m->assign[v]] != v)
            return false;
    return true;
}

static void augmenting_path(void)
{
    /* e0: v0 v1, e1: v0.  Greedy gives e0-v0; e1 needs the path
       e1 -> v0 -> e0 -> v1, which flips to e0-v1, e1-v0. */
    static const int a0[] = {0, 1}, a1[] = {0};
    static const int *const adj[] = {a0, a1};
    static const int deg[] = {2, 1};
    TestGraph tg = {adj, deg, NULL};
    MatchGraph mg = {g_nadj, g_adj, g_ok, &tg, NULL};
    Matcher m;
    match_init(&m, 2, 2);
    CHECK(match_all(&m, &mg, 2) == 2);
    CHECK(m.eq_mate[0] == 1 && m.eq_mate[1] == 0);
    CHECK(consistent(&m));
    match_free(&m);
}

static void singular(void)
{
    /* two equations for one unknown: the second finds no path, and the
       failed search colors both equations and the variable */
    static const int a0[] = {0}, a1[] = {0};
    static const int *const adj[] = {a0, a1};
    static const int deg[] = {1, 1};
    TestGraph tg = {adj, deg, NULL};
    Arena arena = {0};
    MatchGraph mg = {g_nadj, g_adj, g_ok, &tg, &arena};
    Matcher m;
    match_init(&m, 2, 1);
    CHECK(match_augment(&m, &mg, 0));
    PtrVec ceqs = {0}, cvars = {0};
    m.colored_eqs = &ceqs;
    m.colored_vars = &cvars;
    CHECK(!match_augment(&m, &mg, 1));
    CHECK(ceqs.n == 2 && cvars.n == 1);
    CHECK(m.eq_mate[1] == -1 && m.assign[0] == 0);
    match_free(&m);
    arena_free(&arena);
}

static void structurally_singular(void)
{
    /* 3 x 3, but e0 and e1 mention only v0: at most 2 can be matched,
       whatever the order */
    static const int a0[] = {0}, a1[] = {0}, a2[] = {0, 1, 2};
    static const int *const adj[] = {a0, a1, a2};
    static const int deg[] = {1, 1, 3};
    TestGraph tg = {adj, deg, NULL};
    MatchGraph mg = {g_nadj, g_adj, g_ok, &tg, NULL};
    Matcher m;
    match_init(&m, 3, 3);
    CHECK(match_all(&m, &mg, 3) == 2);
    CHECK(consistent(&m));
    int unmatched_eq = 0, unmatched_var = 0;
    for (int i = 0; i < 3; i++) {
        unmatched_eq += m.eq_mate[i] < 0;
        unmatched_var += m.assign[i] < 0;
    }
    CHECK(unmatched_eq == 1 && unmatched_var == 1);
    match_free(&m);
}

static void restricted(void)
{
    /* a cycle e0: v0 v1, e1: v1 v2, e2: v2 v0 with v0 not allowed (a
       state): e0 must take v1, e1 v2, and e2 is left without one */
    static const int a0[] = {0, 1}, a1[] = {1, 2}, a2[] = {2, 0};
    static const int *const adj[] = {a0, a1, a2};
    static const int deg[] = {2, 2, 2};
    static const bool allowed[] = {false, true, true};
    TestGraph tg = {adj, deg, allowed};
    MatchGraph mg = {g_nadj, g_adj, g_ok, &tg, NULL};
    Matcher m;
    match_init(&m, 3, 3);
    CHECK(match_all(&m, &mg, 3) == 2);
    CHECK(m.assign[0] == -1);
    CHECK(m.eq_mate[0] == 1 && m.eq_mate[1] == 2 && m.eq_mate[2] == -1);
    /* with every variable allowed the cycle is perfect */
    tg.allowed = NULL;
    CHECK(match_augment(&m, &mg, 2));
    CHECK(consistent(&m));
    match_free(&m);
}

static void growth(void)
{
    /* a chain matched one equation at a time while the matcher grows,
       as Pantelides grows it: e_i mentions v_i and v_{i+1} */
    enum { N = 5000 };
    int *store = calloc(2 * N, sizeof(int));
    const int **adj = calloc(N, sizeof *adj);
    int *deg = calloc(N, sizeof(int));
    for (int i = 0; i < N; i++) {
        store[2 * i] = i + 1 < N ? i + 1 : i;
        store[2 * i + 1] = i;
        adj[i] = store + 2 * i;
        deg[i] = 2;
    }
    TestGraph tg = {(const int *const *)adj, deg, NULL};
    MatchGraph mg = {g_nadj, g_adj, g_ok, &tg, NULL};
    Matcher m;
    match_init(&m, 1, 1);
    int matched = 0;
    for (int e = 0; e < N; e++) {
        match_grow(&m, e + 1, e + 2 < N ? e + 2 : N);
        matched += match_augment(&m, &mg, e);
    }
    CHECK(matched == N);
    CHECK(consistent(&m));
    match_free(&m);
    free(store);
    free(adj);
    free(deg);
}

int main(void)
{
    augmenting_path();
    singular();
    structurally_singular();
    restricted();
    growth();
    return unit_failures();
}
