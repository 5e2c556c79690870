/* The terminal: curses for output, libtermkey for input, signals turned
 * into events, and the terminal restored however the program ends. In
 * headless mode curses draws into memory and no terminal is touched. */
#ifndef RPDTOP_TERM_H
#define RPDTOP_TERM_H

#include <stdio.h>

#include <curses.h>
#include <termkey.h>

enum term_event_type {
	EV_NONE,
	EV_KEY,
	EV_RESIZE,
	EV_QUIT, /* SIGTERM, SIGHUP, SIGINT */
	EV_TIMEOUT,
};

struct term_event {
	enum term_event_type type;
	TermKeyKey key;
};

/* Start curses and input. headless: no terminal (for scripts), with the
 * given size. Returns -1 with a message in err when impossible. */
int term_open(int headless, int mono, int cols, int rows, char *err, size_t errsize);
void term_close(void);

/* Wait for the next event, at most timeout_ms (-1: no limit). */
void term_wait(struct term_event *ev, int timeout_ms);
/* A key that is there already (typed ahead, the rest of a paste), without
 * waiting: 1 with it in ev, else 0 (always 0 headless). */
int term_key_now(struct term_event *ev);

/* The key's name in termkey notation ("j", "C-c", "S-Tab"). */
void term_key_name(TermKeyKey *key, char *buf, size_t size);
/* Parse a key name; returns -1 when it is not one. */
int term_parse_key(const char *name, TermKeyKey *key);
/* Make the key a mouse press (with up: a release) of button (1 left, 4/5
 * wheel) at 0-based (row, col) would give; for scripts. */
int term_fake_mouse(int button, int row, int col, int up, TermKeyKey *key);
/* Mouse events: button (1 left, 4/5 wheel), 0-based row and column. */
int term_mouse(const TermKeyKey *key, int *pressed, int *button, int *row, int *col);

/* Give the terminal back and stop (Ctrl-Z); returns after fg. */
void term_suspend(void);

/* Follow the terminal's new size (after EV_RESIZE). */
void term_update_size(void);
/* Headless: pretend the terminal now has this size. */
void term_set_size(int cols, int rows);

/* Write the screen as text, one line per row, trailing blanks removed. */
int term_dump_screen(FILE *out);
/* Write the text of each screen line drawn whole in attribute attr (a
 * table's cursor line), for tests. */
int term_dump_lines_in(FILE *out, attr_t attr);

#endif
