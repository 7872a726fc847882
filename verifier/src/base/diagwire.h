/*
 * diagwire.h - a worker's findings as bytes, and read back.
 *
 * Under `verify -j N` (parallel.h) a worker process checks pages and the
 * parent prints what it found.  The encoder is a diag_forward
 * (diag_internal.h): set
 * with diag_set_forward(), it appends every event diag hands it to a
 * buffer, in order:
 *   RECORD     a diagnostic as data (struct diag_record, notes, free text,
 *              hint and the text printer's rendering)
 *   HIDDEN     a diagnostic past its file's cap: kind and level only
 *   FILE / FILE_END   diag_file_begin(path) / diag_file_end()
 *   ONCE / ONCE_END   diag_once_begin(key) / diag_once_end()
 *   CHECKS     checks added (diag_checks_add) since the last event
 * The reader walks such a buffer event by event.  Both ends are the same
 * binary on the same machine: integers are written in native byte order.
 * Every string is written with its length and a NUL after it, so the
 * reader hands out pointers into the buffer without copying.
 *
 * The reader trusts nothing: a buffer cut short, an unknown event, a kind
 * or level out of range or a string without its NUL is an error (-1),
 * never a read past the end.
 */
#ifndef COURSECHECK_DIAGWIRE_H
#define COURSECHECK_DIAGWIRE_H

#include <stddef.h>

#include "diag.h"
#include "diag_internal.h"
#include "util.h"

enum diagwire_type {
	DW_RECORD = 'R',
	DW_HIDDEN = 'H',
	DW_FILE = 'F',
	DW_FILE_END = 'f',
	DW_ONCE = 'O',
	DW_ONCE_END = 'o',
	DW_CHECKS = 'C',
};

/* The encoder.  out holds the bytes (the caller may take them and reset
 * out.len to 0); checks counts the checks added since the last event.
 *
 * Once regions: the bytes of each key's first region are kept (for the
 * process, whatever the encoder: a worker keeps what its parent recorded)
 * and appended again when diag_once_touch() names the key in a later
 * item (diagwire_item_begin), once an item: the parent then sees the
 * region at every item that uses the file and keeps the first in item
 * order, whatever order a worker took its items in.  A region without a
 * diagnostic is neither kept nor sent again (it would change nothing),
 * and one with nothing at all inside is not sent (the parent need not
 * claim a key that reports nothing). */
struct diagwire_encoder {
	struct buf out;
	size_t checks;
	struct diag_forward fwd; /* hand &fwd to diag_set_forward() */
	size_t once_depth, once_start, once_body;
	char *once_key;
	bool once_records; /* the open region holds a diagnostic */
	/* set by the caller for each item: the item is replayed in this
	 * process as soon as it ends, every item before it replayed already
	 * (verify -j 1 taking its items in order).  Its regions are then
	 * claimed at its end, before any other item runs, and none is kept:
	 * a region sent again later would be dropped. */
	bool replayed_at_end;
};
void diagwire_encoder_init(struct diagwire_encoder *e);
/* A new item: out is emptied and checks counted from now. */
void diagwire_item_begin(struct diagwire_encoder *e);
/* Frees the kept once regions (at exit). */
void diagwire_release(void);
/* Appends a CHECKS event for the checks added since the last event (none
 * when none was): call it before taking the bytes. */
void diagwire_flush_checks(struct diagwire_encoder *e);
void diagwire_encoder_free(struct diagwire_encoder *e);

/* One event read back.  Everything it points to is borrowed from the
 * reader's buffer (and, for rec.notes, the reader) until the next call. */
struct diagwire_event {
	enum diagwire_type type;
	struct diag_record rec; /* RECORD; HIDDEN: kind and level */
	const char *str;        /* FILE's path, ONCE's key */
	size_t checks;          /* CHECKS */
};

struct diagwire_reader {
	const char *data;
	size_t len, off;
	struct diag_record_note *notes;
	size_t cap_notes;
};
/* data is borrowed for the reader's life. */
void diagwire_reader_init(struct diagwire_reader *r, const char *data, size_t len);
/* 1: *ev is the next event; 0: the buffer ended after a whole event; -1:
 * the bytes at the reader's place are not a whole, well-formed event. */
int diagwire_next(struct diagwire_reader *r, struct diagwire_event *ev);
void diagwire_reader_free(struct diagwire_reader *r);

#endif
