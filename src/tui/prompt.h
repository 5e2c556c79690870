/* A one-line prompt on the status line: a small line editor with history.
 * Its owner is told of every change and of the end (Enter or Escape). */
#ifndef RPDTOP_PROMPT_H
#define RPDTOP_PROMPT_H

#include <stddef.h>

struct app;

#define PROMPT_MAX 1024
#define PROMPT_HISTORY 32

struct prompt_owner {
	/* The text changed (for incremental search); may be NULL. */
	void (*changed)(struct app *app, const char *text, void *ctx);
	/* Enter (accepted = 1) or Escape (accepted = 0). Returns ACT_*
	 * flags for the loop; ACT_STAY keeps the prompt open (after
	 * prompt_error, say). */
	unsigned (*done)(struct app *app, const char *text, int accepted, void *ctx);
	void *ctx;
};

struct prompt {
	int active;
	int one_key; /* the next key is the answer (a mark's letter) */
	char label[64];
	char text[PROMPT_MAX];
	char error[256];    /* shown until the next key */
	size_t len, cursor; /* bytes */
	struct prompt_owner owner;
	char *history[PROMPT_HISTORY];
	size_t nhistory, browse; /* browse == nhistory: editing a new line */
};

void prompt_open(struct prompt *p, const char *label, const char *initial, const struct prompt_owner *owner);
/* A prompt answered by one key: a printable one is accepted as the text,
 * any other cancels (as less asks for a mark's letter). */
void prompt_open_key(struct prompt *p, const char *label, const struct prompt_owner *owner);
/* A key while the prompt is open: its name in termkey notation and, for
 * a printable key, its text. Returns ACT_* flags. */
unsigned prompt_key(struct prompt *p, struct app *app, const char *name, const char *text);
/* Draw on row y, cols wide. */
void prompt_draw(const struct prompt *p, int y, int cols);
void prompt_free(struct prompt *p);
/* Show why the text was not accepted; the prompt stays open. */
void prompt_error(struct prompt *p, const char *msg);

#endif
