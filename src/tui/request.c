#include "config.h"
#include "tui/request.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define REQ_INFO(id, keys, group, scope, help) { REQ_##id, #id, keys, group, REQ_SCOPE_##scope, help },
static const struct request_info requests[] = { REQUEST_LIST(REQ_INFO) };
#undef REQ_INFO

const struct request_info *request_table(size_t *n)
{
	*n = sizeof(requests) / sizeof(requests[0]);
	return requests;
}

enum request_scope request_scope(enum request req)
{
	return req > REQ_NONE && req < REQ_COUNT ? requests[req - 1].scope : REQ_SCOPE_APP;
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

/* Bindings from the settings file, looked at before the defaults. */
static struct {
	char key[32];
	enum request req;
} user_binds[64];
static size_t nuser_binds;

int request_bind(const char *key, enum request req)
{
	if (nuser_binds == sizeof(user_binds) / sizeof(user_binds[0]) ||
	    strlen(key) >= sizeof(user_binds[0].key))
		return -1;
	snprintf(user_binds[nuser_binds].key, sizeof(user_binds[0].key), "%s", key);
	user_binds[nuser_binds++].req = req;
	return 0;
}

enum request request_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		const char *a = requests[i].name, *b = name;
		while (*a && *b && (*a == '_' ? *b == '-' : tolower((unsigned char)*a) == *b)) {
			a++;
			b++;
		}
		if (!*a && !*b)
			return requests[i].req;
	}
	return REQ_NONE;
}

enum request request_for_key(const char *key)
{
	for (size_t i = nuser_binds; i > 0; i--)
		if (strcmp(user_binds[i - 1].key, key) == 0)
			return user_binds[i - 1].req;
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (bound(requests[i].keys, key))
			return requests[i].req;
	return REQ_NONE;
}
