/*
 * cli_lsp.h - `coursecheck lsp`: a Language Server Protocol 3.17 server on
 * standard input and output, over the checks of `verify`.
 *
 * The protocol half lives here (cli_lsp.c): JSON-RPC 2.0 messages framed by
 * a `Content-Length:` header, read one at a time from standard input and
 * answered on standard output; nothing else is ever written there
 * (diagnostics of the server itself go to standard error).  What the
 * server answers is lsp.h's.
 *
 * Bounds (every input can be hostile): a header line of more than
 * LSP_MAX_HEADER bytes, a message without a Content-Length, or one whose
 * Content-Length exceeds LSP_MAX_MESSAGE is answered with an error
 * (id null) and its body read and thrown away in small pieces, never
 * held; a body that is no JSON is a parse error (-32700), a request of an
 * unknown method -32601, a notification of one is dropped; at most
 * LSP_MAX_DOCUMENTS documents are held open.  The server ends at `exit`
 * or at the end of its input.
 *
 * Positions: UTF-16 code units as LSP 3.17 requires by default (the
 * server converts from the byte and code point columns of the checks).
 */
#ifndef COURSECHECK_CLI_LSP_H
#define COURSECHECK_CLI_LSP_H

#define LSP_MAX_HEADER 1024
#define LSP_MAX_MESSAGE (80u * 1024u * 1024u)
#define LSP_MAX_DOCUMENTS 64

/* The command: `coursecheck lsp [--root=DIR]`.  Returns the exit status
 * (0 after shutdown then exit or the end of input, 1 after exit without
 * shutdown, 2 usage or no course). */
int cli_lsp(int argc, char **argv);

#endif
