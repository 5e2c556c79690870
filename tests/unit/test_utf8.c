/* Output safety: control characters and malformed UTF-8 never reach the
 * terminal raw. */
#include "config.h"

#include "check.h"
#include "util/utf8.h"

static void append(const char *piece, size_t len, void *ctx)
{
	strncat(ctx, piece, len);
}

static const char *escaped(const char *s)
{
	static char out[256];
	out[0] = '\0';
	utf8_write_escaped(s, append, out);
	return out;
}

int main(void)
{
	CHECK_INT(utf8_seq_len((const unsigned char *)"a", 1), 1);
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xc3\xa4", 2), 2);
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xe2\x96\x88", 3), 3);
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xc3", 1), 0);         /* cut */
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xc0\xaf", 2), 0);     /* overlong */
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xed\xa0\x80", 3), 0); /* surrogate */
	CHECK_INT(utf8_seq_len((const unsigned char *)"\xff", 1), 0);

	CHECK_STR(escaped("plain"), "plain");
	CHECK_STR(escaped("gr\xc3\xbc\xc3\x9f"), "gr\xc3\xbc\xc3\x9f");
	CHECK_STR(escaped("\x1b[31mred"), "\\x1b[31mred");
	CHECK_STR(escaped("a\tb\x7f"), "a\\x09b\\x7f");
	CHECK_STR(escaped("bad\xff!"), "bad\\xff!");
	CHECK_STR(escaped("c1\xc2\x9b"), "c1\\xc2\\x9b");
	CHECK_INT(utf8_escaped_width("\x1b"
				     "ab"),
		  6);
	CHECK_INT(utf8_escaped_width("\xc3\xa4"), 1);
	/* After a run of printable ASCII, as before one. */
	CHECK_INT(utf8_escaped_width(""), 0);
	CHECK_INT(utf8_escaped_width("plain text~"), 11);
	CHECK_INT(utf8_escaped_width("ab\x1b"
				     "cd"),
		  8);
	CHECK_INT(utf8_escaped_width("ab\x7f"), 6);
	CHECK_INT(utf8_escaped_width("gr\xc3\xbc\xc3\x9f!"), 5);
	CHECK_INT(utf8_escaped_width("bad\xff\xc2\x9b"), 15); /* three escapes */
	CHECK_STR(escaped("mixed \xc3\xa4\x01z\xc3"), "mixed \xc3\xa4\\x01z\\xc3");
	return check_done();
}
