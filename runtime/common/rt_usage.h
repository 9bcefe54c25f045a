/*
 * rt_usage.h - the simulator's options as its --help lists them.
 *
 * One text for two readers: the simulator's usage() (rt_main.c) and
 * `lmdlc run --help` (compiler/main.c), which passes these options on to
 * the simulator it builds, so the two lists cannot drift apart.  Plain
 * text (no printf conversions): print it with fputs.
 */
#ifndef LMDL_RT_USAGE_H
#define LMDL_RT_USAGE_H

#define RT_USAGE_OPTIONS                                                         \
    "  --stop-time T        end time in s [1]\n"                                 \
    "  --output-step DT     spacing of output rows in s [T/500]\n"               \
    "  --rtol R             relative tolerance [1e-6]\n"                         \
    "  --atol A             absolute tolerance, per unit of each state's "       \
    "nominal [1e-9]\n"                                                           \
    "  --max-step H         no solver step longer than H s [none]\n"            \
    "  --solver NAME        rk2 rk4 rkf45 rkck rk8pd rk1imp rk2imp rk4imp "      \
    "bsimp\n"                                                                    \
    "                       msadams msbdf cvode [msbdf; cvode from 64 states]\n" \
    "  --param PATH=VALUE   change a run-time parameter, e.g. 'lever.r12=250 "   \
    "mm'\n"                                                                      \
    "                       (repeatable; a bare number is in the parameter's\n" \
    "                       declared unit, as --help lists them)\n"            \
    "  --vars A,B,...       write only these columns, in this order [all]\n"     \
    "  -o FILE              write the results to FILE [stdout] (FILE.mat:\n"    \
    "                       MAT v4, else CSV), their units to FILE.meta\n"     \
    "  --events FILE        write the event log (CSV) to FILE\n"                 \
    "  --no-event-emit      rows on the output grid only, one per time: no\n"   \
    "                       left and right rows at events (an event at an\n"   \
    "                       output time: its values at that time)\n"           \
    "  --steady-state       start from a steady state: every derivative zero,\n" \
    "                       from the initial values as a guess\n"             \
    "  --linearize text|json|mat  after the run, write the linear model at\n"  \
    "                       its final point (A, B, C, D, eigenvalues) to -o\n"  \
    "                       or stdout instead of rows (simulators built by\n"  \
    "                       lmdlc linearize)\n"                                \
    "  --linearize-inputs U,..  its inputs [every top-level input]\n"          \
    "  --linearize-outputs Y,.. its outputs [the top model's outputs]\n"       \
    "  --quiet              no progress bar and no warnings\n"                   \
    "  --diagnostics-format=json|text\n"                                         \
    "                       messages on stderr as JSON Lines, or text [text,\n"  \
    "                       or $LMDL_DIAGNOSTICS_FORMAT]\n"                      \
    "  --sweep SETS.csv     one run per row of SETS.csv (a column per "          \
    "parameter);\n"                                                              \
    "                       -o and --events name each row's files with {row}\n"  \
    "  --sweep-summary F    write the sweep's summary CSV to F [stdout]\n"       \
    "  --sweep-row K        run only row K, its summary line in "                \
    "RESULTS.summary\n"                                                          \
    "  --sweep-collect      merge the rows' RESULTS.summary into the summary\n"  \
    "  --sweep-check        check SETS.csv and the options, print the row "      \
    "count\n"                                                                    \
    "  --input FILE         a file the run reads and must never write "         \
    "(repeatable;\n"                                                             \
    "                       lmdlc run passes the model's files)\n"              \
    "  --help               show this help\n"

#define RT_USAGE_EXIT                                                            \
    "Exit status: 0 success, 1 bad command line, 3 simulation failure\n"         \
    "(a sweep: 3 when any row failed).\n"

#endif
