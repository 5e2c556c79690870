#include "config.h"
#include "tui/term.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "tui/theme.h"
#include "util/busguard.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Mouse reporting: button presses and the wheel, in SGR encoding. */
#define MOUSE_ON "\033[?1000h\033[?1006h"
#define MOUSE_OFF "\033[?1006l\033[?1000l"

static struct {
	int headless;
	int active;
	SCREEN *screen;
	FILE *out, *in;
	TermKey *tk;
	int pipe[2]; /* signal handlers write the signal number here */
} term = { .pipe = { -1, -1 } };

static void write_all(int fd, const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Handlers only record the signal; the main loop acts on it. */
static void on_signal(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;
	if (write(term.pipe[1], &c, 1) < 0) {
		/* the pipe is full: an event is already pending */
	}
	errno = saved;
}

/* The terminal as the shell had it, before a fatal exit. */
static void restore_now(void)
{
	if (term.active && !term.headless) {
		term.active = 0;
		write_all(STDOUT_FILENO, MOUSE_OFF);
		endwin();
	}
}

/* A crash must not leave the terminal raw: restore it, then die as the
 * signal would have killed us. */
static void on_crash(int sig)
{
	/* A file cut short under a mapping being read is the reader's to
	 * decline (util/busguard.h). */
	if (sig == SIGBUS)
		busguard_catch();
	restore_now();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static int open_pipe(void)
{
	if (pipe(term.pipe) != 0)
		return -1;
	for (int i = 0; i < 2; i++)
		fcntl(term.pipe[i], F_SETFL, fcntl(term.pipe[i], F_GETFL) | O_NONBLOCK);
	return 0;
}

static const int events[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT };
static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NEVENTS (sizeof(events) / sizeof(events[0]))
#define NCRASHES (sizeof(crashes) / sizeof(crashes[0]))

/* The dispositions found before the terminal was taken (before curses,
 * which sets handlers of its own), given back with it: once it is closed,
 * a signal must do what it did before (the pipe the handlers write to is
 * gone, and a Ctrl-C would do nothing). */
static struct sigaction saved_events[NEVENTS], saved_crashes[NCRASHES];
static int signals_saved;

static void save_signals(void)
{
	for (size_t i = 0; i < NEVENTS; i++)
		sigaction(events[i], NULL, &saved_events[i]);
	for (size_t i = 0; i < NCRASHES; i++)
		sigaction(crashes[i], NULL, &saved_crashes[i]);
	signals_saved = 1;
}

static void install_signals(void)
{
	for (size_t i = 0; i < NEVENTS; i++)
		/* A SIGHUP the parent had us ignore (nohup) stays ignored. */
		if (events[i] != SIGHUP || saved_events[i].sa_handler != SIG_IGN)
			set_handler(events[i], on_signal);
	for (size_t i = 0; i < NCRASHES; i++)
		set_handler(crashes[i], on_crash);
}

static void restore_signals(void)
{
	if (!signals_saved)
		return;
	for (size_t i = 0; i < NEVENTS; i++)
		sigaction(events[i], &saved_events[i], NULL);
	for (size_t i = 0; i < NCRASHES; i++)
		sigaction(crashes[i], &saved_crashes[i], NULL);
	signals_saved = 0;
}

/* libtermkey 0.22 reads terminfo's key_mouse ("\033[<" in current xterm
 * entries) as the start of an old X10 mouse report and garbles SGR
 * reports. Hiding that entry lets its CSI parser, which knows SGR, see them. */
static const char *hide_sgr_kmous(const char *name, const char *value, void *data)
{
	(void)data;
	if (strcmp(name, "key_mouse") == 0 && value && strcmp(value, "\033[M") != 0)
		return NULL;
	return value;
}

static TermKey *new_termkey(int fd, const char *termname, int flags)
{
	TermKey *tk = fd >= 0 ? termkey_new(fd, flags | TERMKEY_FLAG_NOSTART)
			      : termkey_new_abstract(termname, flags | TERMKEY_FLAG_NOSTART);
	if (!tk)
		return NULL;
	termkey_hook_terminfo_getstr(tk, hide_sgr_kmous, NULL);
	if (!termkey_start(tk)) {
		termkey_destroy(tk);
		return NULL;
	}
	return tk;
}

static int open_headless(int cols, int rows, char *err, size_t errsize)
{
	char buf[16];
	snprintf(buf, sizeof(buf), "%d", rows);
	setenv("LINES", buf, 1);
	snprintf(buf, sizeof(buf), "%d", cols);
	setenv("COLUMNS", buf, 1);
	use_env(TRUE);
	term.out = fopen("/dev/null", "w");
	term.in = fopen("/dev/null", "r");
	const char *t = getenv("TERM");
	if (term.out && term.in)
		term.screen = newterm(t && *t ? t : "xterm-256color", term.out, term.in);
	if (!term.screen) {
		snprintf(err, errsize, _("cannot start the headless screen"));
		return -1;
	}
	term.tk = new_termkey(-1, t && *t ? t : "xterm-256color", TERMKEY_FLAG_SPACESYMBOL);
	if (!term.tk) {
		snprintf(err, errsize, _("cannot start the headless screen"));
		return -1;
	}
	return 0;
}

static int open_terminal(char *err, size_t errsize)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errsize, _("not a terminal"));
		return -1;
	}
	term.screen = newterm(NULL, stdout, stdin);
	if (!term.screen) {
		const char *t = getenv("TERM");
		snprintf(err, errsize, _("unknown terminal type '%s'"), t ? t : "");
		return -1;
	}
	/* libtermkey reads the keys; curses only draws. */
	term.tk = new_termkey(STDIN_FILENO, NULL, TERMKEY_FLAG_SPACESYMBOL | TERMKEY_FLAG_CTRLC);
	if (!term.tk) {
		endwin();
		snprintf(err, errsize, _("cannot read the keyboard"));
		return -1;
	}
	write_all(STDOUT_FILENO, MOUSE_ON);
	return 0;
}

int term_open(int headless, int mono, int cols, int rows, char *err, size_t errsize)
{
	term.headless = headless;
	if (!headless)
		save_signals();
	if (open_pipe() != 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		return -1;
	}
	if (headless ? open_headless(cols, rows, err, errsize) : open_terminal(err, errsize))
		return -1;
	term.active = 1;
	noecho();
	nonl();
	curs_set(0);
	leaveok(stdscr, TRUE);
	theme_init(mono);
	glyphs_init();
	if (!headless)
		install_signals();
	/* Running out of memory ends the program: the shell gets its terminal. */
	xalloc_on_fatal(restore_now);
	return 0;
}

void term_close(void)
{
	xalloc_on_fatal(NULL);
	if (!term.active)
		return;
	term.active = 0;
	if (term.tk)
		termkey_destroy(term.tk);
	term.tk = NULL;
	if (!term.headless)
		write_all(STDOUT_FILENO, MOUSE_OFF);
	endwin();
	restore_signals();
	delscreen(term.screen);
	term.screen = NULL;
	if (term.out)
		fclose(term.out);
	if (term.in)
		fclose(term.in);
	term.out = term.in = NULL;
	close(term.pipe[0]);
	close(term.pipe[1]);
	term.pipe[0] = term.pipe[1] = -1;
}

void term_update_size(void)
{
	struct winsize ws;
	if (!term.headless && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

void term_set_size(int cols, int rows)
{
	resizeterm(rows, cols);
}

/* Ctrl-Z: give the terminal back, stop, and take it again on fg. */
void term_suspend(void)
{
	if (term.headless)
		return;
	termkey_stop(term.tk);
	write_all(STDOUT_FILENO, MOUSE_OFF);
	endwin();
	set_handler(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	set_handler(SIGTSTP, on_signal);
	termkey_start(term.tk);
	write_all(STDOUT_FILENO, MOUSE_ON);
	term_update_size();
	clearok(curscr, TRUE);
}

/* Returns 1 when a signal produced ev. */
static int take_signal(struct term_event *ev)
{
	unsigned char sig;
	while (read(term.pipe[0], &sig, 1) == 1) {
		switch (sig) {
		case SIGWINCH:
		case SIGCONT:
			ev->type = EV_RESIZE;
			break;
		case SIGTSTP:
			term_suspend();
			ev->type = EV_RESIZE;
			break;
		default:
			ev->type = EV_QUIT;
			return 1;
		}
	}
	return ev->type != EV_NONE;
}

static int take_key(struct term_event *ev, int force)
{
	TermKeyResult r = force ? termkey_getkey_force(term.tk, &ev->key) : termkey_getkey(term.tk, &ev->key);
	if (r == TERMKEY_RES_KEY) {
		ev->type = EV_KEY;
		return 1;
	}
	return 0;
}

void term_wait(struct term_event *ev, int timeout_ms)
{
	memset(ev, 0, sizeof(*ev));
	if (term.headless) {
		ev->type = EV_TIMEOUT;
		return;
	}
	if (take_key(ev, 0))
		return;
	for (;;) {
		struct pollfd fds[2] = { { STDIN_FILENO, POLLIN, 0 }, { term.pipe[0], POLLIN, 0 } };
		/* A lone Escape may start a sequence: wait a little, then take it. */
		int again = termkey_getkey(term.tk, &ev->key) == TERMKEY_RES_AGAIN;
		int wait = again ? termkey_get_waittime(term.tk) : timeout_ms;
		int n = poll(fds, 2, wait);
		if (n < 0 && errno == EINTR)
			continue;
		if (fds[1].revents && take_signal(ev))
			return;
		if (n == 0) {
			if (again && take_key(ev, 1))
				return;
			if (!again) {
				ev->type = EV_TIMEOUT;
				return;
			}
			continue;
		}
		if (fds[0].revents & (POLLHUP | POLLERR)) {
			ev->type = EV_QUIT;
			return;
		}
		if (fds[0].revents & POLLIN) {
			termkey_advisereadable(term.tk);
			if (take_key(ev, 0))
				return;
		}
	}
}

int term_key_now(struct term_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (term.headless)
		return 0;
	if (take_key(ev, 0))
		return 1;
	struct pollfd fd = { STDIN_FILENO, POLLIN, 0 };
	if (poll(&fd, 1, 0) != 1 || !(fd.revents & POLLIN))
		return 0;
	termkey_advisereadable(term.tk);
	return take_key(ev, 0);
}

void term_key_name(TermKeyKey *key, char *buf, size_t size)
{
	termkey_strfkey(term.tk, buf, size, key, 0);
}

int term_parse_key(const char *name, TermKeyKey *key)
{
	const char *end = termkey_strpkey(term.tk, name, key, 0);
	return end && *end == '\0' ? 0 : -1;
}

int term_fake_mouse(int button, int row, int col, int up, TermKeyKey *key)
{
	char seq[64];
	int code = button == 4 ? 64 : button == 5 ? 65 : button - 1;
	/* SGR reports: M for a press, m for a release. */
	int n = snprintf(seq, sizeof(seq), "\033[<%d;%d;%d%c", code, col + 1, row + 1, up ? 'm' : 'M');
	termkey_push_bytes(term.tk, seq, (size_t)n);
	return termkey_getkey_force(term.tk, key) == TERMKEY_RES_KEY ? 0 : -1;
}

int term_mouse(const TermKeyKey *key, int *pressed, int *button, int *row, int *col)
{
	TermKeyMouseEvent ev;
	if (key->type != TERMKEY_TYPE_MOUSE ||
	    termkey_interpret_mouse(term.tk, key, &ev, button, row, col) != TERMKEY_RES_KEY)
		return 0;
	*pressed = ev == TERMKEY_MOUSE_PRESS;
	(*row)--;
	(*col)--;
	return 1;
}

/* Does every cell of line y have attribute want (colour pair included)? */
static int line_in(int y, int cols, attr_t want)
{
	for (int x = 0; x < cols; x++) {
		cchar_t cc;
		wchar_t wc[CCHARW_MAX + 1];
		attr_t a;
		short pair;
		if (mvwin_wch(stdscr, y, x, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR ||
		    ((a & ~A_COLOR) | COLOR_PAIR(pair)) != want)
			return 0;
	}
	return cols > 0;
}

/* Line y of the screen as text, without its trailing blanks. */
static void write_line(FILE *out, int y, int cols)
{
	char line[4096];
	size_t len = 0;
	for (int x = 0; x < cols && len + MB_LEN_MAX < sizeof(line); x++) {
		cchar_t cc;
		wchar_t wc[CCHARW_MAX + 1];
		attr_t a;
		short pair;
		if (mvwin_wch(stdscr, y, x, &cc) == ERR || getcchar(&cc, wc, &a, &pair, NULL) == ERR)
			continue;
		for (int i = 0; wc[i] && i < CCHARW_MAX; i++) {
			mbstate_t st;
			memset(&st, 0, sizeof(st));
			size_t n = wcrtomb(line + len, wc[i], &st);
			if (n == (size_t)-1)
				line[len++] = '?';
			else
				len += n;
		}
	}
	while (len && line[len - 1] == ' ')
		len--;
	line[len] = '\0';
	fprintf(out, "%s\n", line);
}

int term_dump_lines_in(FILE *out, attr_t attr)
{
	int rows = getmaxy(stdscr), cols = getmaxx(stdscr);
	for (int y = 0; y < rows; y++)
		if (line_in(y, cols, attr))
			write_line(out, y, cols);
	return ferror(out) ? -1 : 0;
}

int term_dump_screen(FILE *out)
{
	int rows = getmaxy(stdscr), cols = getmaxx(stdscr);
	for (int y = 0; y < rows; y++)
		write_line(out, y, cols);
	return ferror(out) ? -1 : 0;
}
