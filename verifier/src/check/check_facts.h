/*
 * check_facts.h - the run's facts wherever the prose states them.
 *
 * A measured paragraph (check_measured) must name the run's GPU and every
 * fact in it is checked.  Any other paragraph, heading or raw HTML block
 * is read as a reader sees it (its text segments, never code spans,
 * comments or link destinations), and each sentence about the run is held
 * to the evidence by facts_check_stated (facts.h says which sentences and
 * which facts).  The facts' bytes are then consumed, so the number checks
 * do not read "8.0" of "compute capability 8.0" again.
 */
#ifndef COURSECHECK_CHECK_FACTS_H
#define COURSECHECK_CHECK_FACTS_H

#include "pagectx.h"

void check_stated_facts(struct page_ctx *ctx);

#endif
