/* Search in the timeline. The find request opens a prompt for a pattern
 * (PCRE2, caseless unless it has a capital, as the filter; a leading !
 * finds what does not match) that counts the events it matches as it is
 * typed: GPU ops by their shown names, API calls by theirs (a roctx
 * marker's text). Enter goes to the first match at or after the cursor;
 * while the search is on, next and previous go from match to match across
 * all lanes in time order, and the matches can be listed. A table's
 * Enter makes the instances of the name it showed the search the same way
 * (tl_find_name). Escape, or an empty search, ends it: next and previous
 * move along the lane again. */
#ifndef RPDTOP_TIMELINE_FIND_H
#define RPDTOP_TIMELINE_FIND_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct app;
struct tl_find;

struct tl_find *tl_find_new(void);
void tl_find_free(struct tl_find *f);
/* Open the prompt; the search starts from the cursor's time. */
unsigned tl_find_open(struct tl_find *f, struct app *app, int64_t cursor);
int tl_find_active(const struct tl_find *f);
/* The next (dir > 0) or previous match from a cursor at this time, as an
 * instance (analysis/search.h), wrapping around; TRACE_NONE when none. */
uint32_t tl_find_step(struct tl_find *f, struct app *app, int64_t cursor, int dir);
/* How many matches the search has. */
size_t tl_find_count(const struct tl_find *f);
/* The match the prompt went to, to be shown once; TRACE_NONE when none. */
uint32_t tl_find_take(struct tl_find *f);
/* The timeline went to an instance (from a list, the jump history, a
 * mark; TRACE_NONE: to no event): when it is a match, it is the one next
 * and previous go on from and the status line counts; else none is. */
void tl_find_locate(struct tl_find *f, struct app *app, uint32_t ref);
/* End the search; 0 when there was none. */
int tl_find_end(struct tl_find *f, struct app *app);
/* The matches in a list pushed over the timeline. */
unsigned tl_find_list(struct tl_find *f, struct app *app);
/* Between events: the matches follow the selection and the name style. */
void tl_find_refresh(struct tl_find *f, struct app *app);
/* The search becomes the instances of the name of instance ref (a GPU
 * op's, or a call's: a roctx text), as a table's Enter leaves it: next
 * and previous walk them across lanes in time order, from ref on, until
 * another search or its end. */
void tl_find_name(struct tl_find *f, struct app *app, uint32_t ref);
/* "/gemm/ 3/120" for the status line, the place while the cursor (a
 * time) is on that match, else "/gemm/ 120"; for a name's instances
 * "n N: NAME 3/64"; "" when no search is on. */
void tl_find_status(const struct tl_find *f, struct app *app, int64_t cursor, char *buf, size_t size);

#endif
