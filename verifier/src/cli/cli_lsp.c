/* cli_lsp.c - see cli_lsp.h: the protocol (framing, JSON-RPC, the documents). */
#include "cli_lsp.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cliopt.h"
#include "diag.h"
#include "lsp.h"
#include "repo.h"
#include "util.h"

/* JSON-RPC's and LSP's error codes. */
enum {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	LSP_SERVER_NOT_INITIALIZED = -32002,
	LSP_REQUEST_FAILED = -32803,
};

struct server {
	const char *root;     /* --root, or NULL */
	bool strict;          /* --as=published */
	bool initialized;     /* initialize answered (the course is open) */
	bool shut_down;       /* shutdown answered */
	bool exit;            /* exit received */
	struct lsp_doc docs[LSP_MAX_DOCUMENTS];
	size_t n_docs;
};

/* ---- framing ---------------------------------------------------------------------- */

static void send_message(json_t *msg)
{
	char *body = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!body)
		return;
	printf("Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	fflush(stdout);
	free(body);
}

static void send_result(json_t *id, json_t *result)
{
	send_message(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "result", result));
}

static void send_error(json_t *id, int code, const char *message)
{
	send_message(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", "code",
			       code, "message", message));
}

static void send_notification(const char *method, json_t *params)
{
	send_message(json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params));
}

/* One header line into line (at most LSP_MAX_HEADER bytes; a longer one
 * is read to its end and marked too long).  Returns -1 at the end of the
 * input, 1 for a line too long, else 0. */
static int read_header_line(char *line, size_t cap)
{
	size_t n = 0;
	bool too_long = false;
	int c;
	while ((c = getchar()) != EOF && c != '\n') {
		if (n + 1 < cap)
			line[n++] = (char)c;
		else
			too_long = true;
	}
	if (c == EOF && n == 0)
		return -1;
	if (n > 0 && line[n - 1] == '\r')
		n--;
	line[n] = '\0';
	return too_long ? 1 : 0;
}

/* Reads and drops n bytes of a body the server will not hold. */
static bool skip_bytes(size_t n)
{
	char chunk[4096];
	while (n > 0) {
		size_t k = fread(chunk, 1, n < sizeof chunk ? n : sizeof chunk, stdin);
		if (k == 0)
			return false;
		n -= k;
	}
	return true;
}

/* The next message's body (malloc'd, NUL-terminated, *len bytes), or
 * NULL with *eof set at the end of the input, or NULL after answering a
 * malformed header or an oversized body with an error. */
static char *read_message(size_t *len, bool *eof)
{
	char line[LSP_MAX_HEADER + 1];
	long long length = -1;
	bool bad = false;
	int rc;
	*eof = false;
	while ((rc = read_header_line(line, sizeof line)) >= 0 && line[0]) {
		/* another header (Content-Type) is read and dropped, whatever its
		 * length; a Content-Length must be one whole number */
		if (strncasecmp(line, "Content-Length:", 15) != 0)
			continue;
		char *end;
		errno = 0;
		long long n = strtoll(line + 15, &end, 10);
		if (rc == 1 || errno || end == line + 15 || *end || n < 0 || length >= 0)
			bad = true;
		else
			length = n;
	}
	if (rc < 0) {
		*eof = true;
		return NULL;
	}
	if (bad || length < 0) {
		send_error(NULL, RPC_INVALID_REQUEST, "a message needs one header Content-Length: N (bytes of its body)");
		if (length >= 0) /* a second Content-Length: the first says where the body ends */
			*eof = !skip_bytes((size_t)length);
		return NULL;
	}
	if ((unsigned long long)length > LSP_MAX_MESSAGE) {
		send_error(NULL, RPC_INVALID_REQUEST, "message too large (the server takes at most 80 MiB)");
		*eof = !skip_bytes((size_t)length);
		return NULL;
	}
	char *body = xmalloc((size_t)length + 1);
	if (fread(body, 1, (size_t)length, stdin) != (size_t)length) {
		free(body);
		*eof = true;
		return NULL;
	}
	body[length] = '\0';
	*len = (size_t)length;
	return body;
}

/* ---- documents -------------------------------------------------------------------- */

static struct lsp_doc *doc_named(struct server *s, const char *uri)
{
	for (size_t i = 0; uri && i < s->n_docs; i++)
		if (strcmp(s->docs[i].uri, uri) == 0)
			return &s->docs[i];
	return NULL;
}

static void publish(struct server *s, struct lsp_doc *d)
{
	send_notification("textDocument/publishDiagnostics", lsp_check(d, s->strict));
}

static void did_open(struct server *s, json_t *params)
{
	const char *uri, *text;
	size_t len;
	if (json_unpack(params, "{s:{s:s,s:s%}}", "textDocument", "uri", &uri, "text", &text, &len) != 0)
		return;
	struct lsp_doc *d = doc_named(s, uri);
	if (!d) {
		if (s->n_docs == LSP_MAX_DOCUMENTS) {
			fprintf(stderr, "coursecheck lsp: %s not checked: %d documents are open already\n", uri,
				LSP_MAX_DOCUMENTS);
			return;
		}
		d = &s->docs[s->n_docs++];
		*d = (struct lsp_doc){.uri = xstrdup(uri), .rel = lsp_uri_to_rel(uri)};
	}
	lsp_doc_set_text(d, text, len);
	publish(s, d);
}

static void did_change(struct server *s, json_t *params)
{
	const char *uri;
	json_t *changes;
	if (json_unpack(params, "{s:{s:s},s:o}", "textDocument", "uri", &uri, "contentChanges", &changes) != 0 ||
	    !json_is_array(changes))
		return;
	struct lsp_doc *d = doc_named(s, uri);
	if (!d)
		return;
	/* full sync (textDocumentSync 1): the last change holds the whole text */
	json_t *last = json_array_get(changes, json_array_size(changes) - 1);
	const char *text;
	size_t len;
	if (!last || json_unpack(last, "{s:s%}", "text", &text, &len) != 0)
		return;
	lsp_doc_set_text(d, text, len);
	publish(s, d);
}

static void did_close(struct server *s, json_t *params)
{
	const char *uri;
	if (json_unpack(params, "{s:{s:s}}", "textDocument", "uri", &uri) != 0)
		return;
	struct lsp_doc *d = doc_named(s, uri);
	if (!d)
		return;
	send_notification("textDocument/publishDiagnostics", json_pack("{s:s,s:[]}", "uri", uri, "diagnostics"));
	lsp_doc_free(d);
	*d = s->docs[--s->n_docs];
}

/* A saved program or run changes what every open page rests on. */
static void did_save(struct server *s)
{
	for (size_t i = 0; i < s->n_docs; i++)
		if (s->docs[i].rel)
			publish(s, &s->docs[i]);
}

/* ---- requests --------------------------------------------------------------------- */

static json_t *capabilities(void)
{
	return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:b,s:{s:[s,s]},s:{s:[s,s]},s:b},s:{s:s,s:s}}",
			 "capabilities", "positionEncoding", "utf-16", "textDocumentSync", "openClose", 1, "change", 1,
			 "save", "includeText", 0, "hoverProvider", 1, "definitionProvider", 1, "codeActionProvider",
			 "codeActionKinds", "quickfix", "refactor.rewrite", "completionProvider", "triggerCharacters", "[",
			 "|", "renameProvider", 1, "serverInfo", "name", "coursecheck", "version", COURSECHECK_VERSION);
}

/* The course: --root, else the client's root folder, else found from
 * the current folder upward. */
static bool open_course(struct server *s, json_t *params)
{
	const char *root = s->root, *uri = NULL;
	char *from_uri = NULL;
	if (!root && json_unpack(params, "{s:s}", "rootUri", &uri) == 0 && strncmp(uri, "file://", 7) == 0)
		root = from_uri = xstrdup(uri + 7);
	char *why;
	int rc = repo_find(root, &why);
	if (rc != 0 && from_uri) {
		free(why);
		rc = repo_find(NULL, &why);
	}
	free(from_uri);
	if (rc != 0) {
		fprintf(stderr, "coursecheck lsp: %s\n", why);
		free(why);
		return false;
	}
	return true;
}

static void initialize(struct server *s, json_t *id, json_t *params)
{
	if (!open_course(s, params)) {
		send_error(id, LSP_REQUEST_FAILED, "no course found: give coursecheck lsp --root=DIR");
		return;
	}
	s->initialized = true;
	send_result(id, capabilities());
}

/* The requests on one document (hover, definition, ...): the document and the answer. */
static void document_request(struct server *s, const char *method, json_t *id, json_t *params)
{
	const char *uri;
	json_t *doc = json_object_get(params, "textDocument");
	if (json_unpack(doc, "{s:s}", "uri", &uri) != 0) {
		send_error(id, RPC_INVALID_PARAMS, "params.textDocument.uri is missing");
		return;
	}
	const struct lsp_doc *d = doc_named(s, uri);
	json_t *pos = json_object_get(params, "position");
	if (strcmp(method, "textDocument/codeAction") == 0) {
		send_result(id, d ? lsp_code_actions(d, json_object_get(params, "range")) : json_array());
	} else if (!d) {
		send_result(id, json_null());
	} else if (strcmp(method, "textDocument/hover") == 0) {
		send_result(id, lsp_hover(d, pos));
	} else if (strcmp(method, "textDocument/definition") == 0) {
		send_result(id, lsp_definition(d, pos));
	} else if (strcmp(method, "textDocument/completion") == 0) {
		send_result(id, lsp_completion(d, pos));
	} else {
		const char *name, *why;
		if (json_unpack(params, "{s:s}", "newName", &name) != 0) {
			send_error(id, RPC_INVALID_PARAMS, "params.newName is missing");
			return;
		}
		json_t *edit = lsp_rename(d, pos, name, &why);
		if (edit)
			send_result(id, edit);
		else
			send_error(id, LSP_REQUEST_FAILED, why);
	}
}

static const char *const document_methods[] = {
	"textDocument/hover",	   "textDocument/definition", "textDocument/codeAction",
	"textDocument/completion", "textDocument/rename",
};

static void request(struct server *s, const char *method, json_t *id, json_t *params)
{
	if (strcmp(method, "initialize") == 0) {
		if (s->initialized)
			send_error(id, RPC_INVALID_REQUEST, "initialize was answered already");
		else
			initialize(s, id, params);
		return;
	}
	if (!s->initialized) {
		send_error(id, LSP_SERVER_NOT_INITIALIZED, "initialize first");
		return;
	}
	if (s->shut_down) {
		send_error(id, RPC_INVALID_REQUEST, "the server is shut down: only exit remains");
		return;
	}
	if (strcmp(method, "shutdown") == 0) {
		s->shut_down = true;
		send_result(id, json_null());
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(document_methods); i++)
		if (strcmp(method, document_methods[i]) == 0) {
			document_request(s, method, id, params);
			return;
		}
	send_error(id, RPC_METHOD_NOT_FOUND, "unknown method");
}

/* Notifications get no answer; an unknown one is dropped ($/ ones may
 * be, by the protocol). */
static void notification(struct server *s, const char *method, json_t *params)
{
	if (strcmp(method, "exit") == 0) {
		s->exit = true;
		return;
	}
	if (!s->initialized || s->shut_down)
		return;
	if (strcmp(method, "textDocument/didOpen") == 0)
		did_open(s, params);
	else if (strcmp(method, "textDocument/didChange") == 0)
		did_change(s, params);
	else if (strcmp(method, "textDocument/didClose") == 0)
		did_close(s, params);
	else if (strcmp(method, "textDocument/didSave") == 0)
		did_save(s);
}

/* One message: a request (an id and a method), a notification (a method)
 * or a response to the server (dropped: it sends no requests). */
static void dispatch(struct server *s, const char *body, size_t len)
{
	json_error_t err;
	json_t *msg = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
	if (!msg) {
		send_error(NULL, RPC_PARSE_ERROR, "the body is no JSON");
		return;
	}
	json_t *id = json_object_get(msg, "id");
	const char *method = json_string_value(json_object_get(msg, "method"));
	json_t *params = json_object_get(msg, "params");
	if (id && !json_is_string(id) && !json_is_integer(id))
		send_error(NULL, RPC_INVALID_REQUEST, "an id is a number or a string");
	else if (json_object_get(msg, "method") && !method)
		send_error(id, RPC_INVALID_REQUEST, "a method is a string");
	else if (!method && !id)
		send_error(NULL, RPC_INVALID_REQUEST, "a message needs a method");
	else if (method && id)
		request(s, method, id, params);
	else if (method)
		notification(s, method, params);
	json_decref(msg);
}

/* ---- the command ------------------------------------------------------------------ */

static const char lsp_usage[] =
	"usage: coursecheck lsp [OPTION...]\n"
	"  A Language Server Protocol 3.17 server on standard input and output, for\n"
	"  an editor: verify's diagnostics as you type, hover and go to definition\n"
	"  on numbers, snippets and transcripts, code actions that write annotations,\n"
	"  completion of place names, rename of a snippet.\n"
	"  --as=published    check at published strictness (warnings are errors)\n"
	"  --root=DIR        the course (default: the client's root folder, else found\n"
	"                    from the current folder upward)\n"
	"  -q, --quiet       accepted, as by every command\n"
	"  --color=WHEN      accepted, as by every command\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 after shutdown and exit (or the end of input), 1 after exit\n"
	"without shutdown, 2 usage.\n";

enum { OPT_LSP_AS = 0x300 };
static const struct option lsp_longs[] = {
	{"as", required_argument, NULL, OPT_LSP_AS},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd lsp_cmd = {"coursecheck lsp", lsp_usage, "", lsp_longs, 0};

static int lsp_option(int ch, const char *arg, void *ctx)
{
	struct server *s = ctx;
	if (ch == OPT_LSP_AS && strcmp(arg, "published") == 0) {
		s->strict = true;
		return 0;
	}
	return cliopt_usage_error(&lsp_cmd, "--as takes 'published', not '%s'", arg);
}

int cli_lsp(int argc, char **argv)
{
	static struct server s; /* 64 documents: off the stack */
	s = (struct server){0};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &lsp_cmd, &o, lsp_option, &s);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	if (first < argc) {
		cliopt_usage_error(&lsp_cmd, "lsp takes no operands");
		return 2;
	}
	s.root = o.root;
	diag_init(stderr, false);
	diag_set_run_policy((struct diag_policy){.strict = s.strict});
	while (!s.exit) {
		size_t len;
		bool eof;
		char *body = read_message(&len, &eof);
		if (eof)
			break;
		if (body)
			dispatch(&s, body, len);
		free(body);
	}
	for (size_t i = 0; i < s.n_docs; i++)
		lsp_doc_free(&s.docs[i]);
	cli_release(); /* the model and its caches */
	return s.exit && !s.shut_down ? 1 : 0;
}
