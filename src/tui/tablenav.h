/* Cursor and scrolling of a table: the movement requests every table
 * shares. */
#ifndef RPDTOP_TABLENAV_H
#define RPDTOP_TABLENAV_H

#include <stddef.h>

#include "tui/request.h"

struct tablenav {
	size_t n; /* rows */
	size_t cursor;
	size_t top; /* first row shown */
	int height; /* rows shown, as last drawn */
};

/* Movement requests; returns ACT_REDRAW, or ACT_UNHANDLED for others. */
unsigned tablenav_request(struct tablenav *t, enum request req);
/* Keep the cursor on screen for a table of height rows. */
void tablenav_fit(struct tablenav *t, int height);
/* Move the cursor to a row that was clicked (row relative to the top). */
unsigned tablenav_click(struct tablenav *t, int row, int button);

#endif
