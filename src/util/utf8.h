/* Just enough UTF-8 to keep output valid and terminals safe. */
#ifndef RPDTOP_UTF8_H
#define RPDTOP_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), or 0
 * when the bytes there are not one. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* Write s to a buffer-free sink one piece at a time, with control characters
 * and malformed bytes shown as \xNN so nothing reaches a terminal raw. */
void utf8_write_escaped(const char *s, void (*put)(const char *piece, size_t len, void *ctx), void *ctx);

/* Display width of s as utf8_write_escaped would show it (one column per
 * character; wide characters are rare in kernel names and not measured). */
size_t utf8_escaped_width(const char *s);

#endif
