#include "config.h"
#include "tui/request.h"

#include <string.h>

#define REQ_INFO(id, keys, group, help) { REQ_##id, keys, group, help },
static const struct request_info requests[] = { REQUEST_LIST(REQ_INFO) };
#undef REQ_INFO

const struct request_info *request_table(size_t *n)
{
	*n = sizeof(requests) / sizeof(requests[0]);
	return requests;
}

/* Is key one of the space-separated words of keys? */
static int bound(const char *keys, const char *key)
{
	size_t len = strlen(key);
	for (const char *p = keys; *p;) {
		const char *end = strchr(p, ' ');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == len && strncmp(p, key, n) == 0)
			return 1;
		p += n;
		while (*p == ' ')
			p++;
	}
	return 0;
}

enum request request_for_key(const char *key)
{
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (bound(requests[i].keys, key))
			return requests[i].req;
	return REQ_NONE;
}
