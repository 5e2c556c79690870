/* Rules not written yet: they find nothing. */
#include "config.h"
#include "analysis/findings.h"

#define PENDING(fn)                                                                                          \
	void finding_##fn(struct findings_ctx *c, struct findings *out)                                      \
	{                                                                                                    \
		(void)c;                                                                                     \
		(void)out;                                                                                   \
	}
PENDING(graph_gap)
