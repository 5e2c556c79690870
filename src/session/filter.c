#include "config.h"
#include "session/filter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

void filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
}

static void free_rule(struct filter_rule *r)
{
	free(r->text);
	pcre2_code_free(r->code);
	memset(r, 0, sizeof(*r));
}

void filter_free(struct filter *f)
{
	for (size_t i = 0; i < f->n; i++)
		free_rule(&f->rules[i]);
	f->n = 0;
}

static int has_upper(const char *s)
{
	for (; *s; s++) {
		/* An escape such as \S or \W is not an upper-case letter. */
		if (*s == '\\' && s[1]) {
			s++;
			continue;
		}
		if (isupper((unsigned char)*s))
			return 1;
	}
	return 0;
}

/* Compile with the JIT when it is there; the interpreter otherwise. */
static int compile(struct filter_rule *r, const char *pattern, char *err, size_t errsize)
{
	int code;
	PCRE2_SIZE offset;
	uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	if (!has_upper(pattern))
		options |= PCRE2_CASELESS;
	pcre2_code *re =
		pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, options, &code, &offset, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errsize, _("invalid pattern '%s': %s at offset %zu"), pattern, (char *)msg,
			 (size_t)offset);
		return -1;
	}
	/* Memory checkers cannot follow JIT code and report its reads as
	 * errors; RPDTOP_NO_JIT lets them check the interpreter instead. */
	if (!getenv("RPDTOP_NO_JIT"))
		pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	r->code = re;
	return 0;
}

int filter_push(struct filter *f, const char *text, char *err, size_t errsize)
{
	if (f->n == FILTER_MAX_RULES) {
		snprintf(err, errsize, _("at most %d filters"), FILTER_MAX_RULES);
		return -1;
	}
	struct filter_rule r = { 0 };
	r.exclude = text[0] == '!';
	if (compile(&r, text + r.exclude, err, errsize))
		return -1;
	r.text = xstrdup(text);
	f->rules[f->n++] = r;
	return 0;
}

void filter_copy(const struct filter *from, struct filter *to)
{
	char err[512];
	filter_init(to);
	/* The rules compiled once already: they compile again. */
	for (size_t i = 0; i < from->n; i++)
		filter_push(to, from->rules[i].text, err, sizeof(err));
}

int filter_pop(struct filter *f)
{
	if (!f->n)
		return 0;
	free_rule(&f->rules[--f->n]);
	return 1;
}

/* Match data is each thread's own: the interpreter keeps its frames in
 * it, so a pattern matched on two threads at once through one block of
 * match data corrupts the heap. One pair is enough to tell a match. */
static pthread_key_t match_key;
static pthread_once_t match_once = PTHREAD_ONCE_INIT;

static void match_data_free(void *md)
{
	pcre2_match_data_free(md);
}

static void match_key_make(void)
{
	if (pthread_key_create(&match_key, match_data_free) != 0)
		abort();
}

static pcre2_match_data *thread_match_data(void)
{
	pthread_once(&match_once, match_key_make);
	pcre2_match_data *md = pthread_getspecific(match_key);
	if (!md) {
		md = pcre2_match_data_create(1, NULL);
		if (!md || pthread_setspecific(match_key, md) != 0)
			xalloc_die(sizeof(void *));
	}
	return md;
}

int filter_passes(const struct filter *f, const char *s, size_t len)
{
	pcre2_match_data *md = f->n ? thread_match_data() : NULL;
	for (size_t i = 0; i < f->n; i++) {
		const struct filter_rule *r = &f->rules[i];
		int rc = pcre2_match(r->code, (PCRE2_SPTR)s, len, 0, 0, md, NULL), m = rc >= 0;
		/* A limit reached is no answer; the rule is const to its users
		 * but this mark is not, and threads may set it at once. */
		if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
			__atomic_store_n(&((struct filter_rule *)r)->limit, rc, __ATOMIC_RELAXED);
		if (m == r->exclude)
			return 0;
	}
	return 1;
}

int filter_limit_hit(const struct filter *f, char *err, size_t errsize)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct filter_rule *r = &f->rules[i];
		int rc = __atomic_load_n(&r->limit, __ATOMIC_RELAXED);
		if (!rc)
			continue;
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof(msg));
		snprintf(err, errsize, _("pattern '%s': %s while matching a name (simplify the pattern)"),
			 r->text + r->exclude, (char *)msg);
		return 1;
	}
	return 0;
}

void filter_describe(const struct filter *f, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < f->n && o < size; i++) {
		const struct filter_rule *r = &f->rules[i];
		int n = snprintf(buf + o, size - o, "%s%s/%s/", i ? " & " : "", r->exclude ? "!" : "",
				 r->text + r->exclude);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

uint8_t *filter_strings(const struct filter *f, const struct trace *t, const uint8_t *want)
{
	uint32_t n = t->strings.count;
	uint8_t *pass = xmalloc(n ? n : 1);
	for (uint32_t id = 0; id < n; id++)
		pass[id] = (!want || want[id]) &&
			   filter_passes(f, strtab_get(&t->strings, id), strtab_len(&t->strings, id));
	return pass;
}

uint8_t *filter_kernel_names(const struct filter *f, const struct trace *t)
{
	uint8_t *kernels = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	for (size_t i = 0; i < t->ops.n; i++)
		if (t->ops.kind[i] == OP_KERNEL)
			kernels[t->ops.name[i]] = 1;
	uint8_t *pass = filter_strings(f, t, kernels);
	free(kernels);
	return pass;
}
