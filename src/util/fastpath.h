/* What a fast path answers its caller, the same everywhere: reading a
 * table's pages instead of asking SQL, copying records as they are stored
 * instead of inserting them. FAST_DECLINED means nothing was changed: the
 * caller takes the general way (SQL), which also reports real damage in
 * its own words. */
#ifndef RPDTOP_FASTPATH_H
#define RPDTOP_FASTPATH_H

enum fastpath {
	FAST_DONE = 0,     /* the work is done */
	FAST_DECLINED = 1, /* not this way: nothing changed, take the general one */
	FAST_FAILED = -1,  /* an error, reported already */
};

#endif
