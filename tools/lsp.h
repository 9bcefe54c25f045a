/*
 * lsp.h - `lmdlc lsp`, a Language Server Protocol server on stdin and
 * stdout (docs/tools.md, "lsp"): diagnostics from the compiler's own
 * checks, hover, go to definition, completion and document symbols.
 */
#ifndef LMDL_LSP_H
#define LMDL_LSP_H

/* The tool's entry point (DRIVER_COMMANDS): argv[0] is "lsp"; takes -I
   DIR (more places to look definitions up) and --help.  Returns 0 after
   shutdown and exit, 1 when the input ends or exit comes without a
   shutdown first (as the protocol asks). */
int lsp_main(int argc, char **argv);

#endif
