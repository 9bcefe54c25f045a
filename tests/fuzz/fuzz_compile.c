/*
 * fuzz_compile.c - libFuzzer target for the whole compiler after parsing.
 *
 * Each input is one model file.  It goes the way `lmdlc emit-c` takes it,
 * through the driver's own pipeline: parse, resolve, elaborate, units,
 * flatten, simplify, structure, codegen (without the C compiler).  Every pass must either
 * report an error or hand the next a well-formed result; a crash, a hang
 * or a leak anywhere is a bug.  Seeded with valid models (examples,
 * tests), whose mutations reach the passes that the front-end fuzzer
 * (fuzz_parse.c) cannot.
 *
 * Memory is handled as in fuzz_parse.c: everything freed per input, the
 * intern table dropped every few thousand inputs.
 */
#include "diag.h"
#include "driver.h"
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
    DriverOptions o = {0};
    o.command = CMD_EMIT_C;
    o.out = devnull;
    o.loaded = true;
    o.source = src_add("/nonexistent/fuzz.lmdl", (const char *)data, size);
    char *c = NULL;
    o.c_text = &c;
    driver_run(&o);
    free(c);
    src_free_all();
    if (++runs % INPUTS_PER_SYM_RESET == 0)
        sym_free_all();
    return 0;
}
