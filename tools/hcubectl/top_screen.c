// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl top: the full screen (curses). A frame's head lines stay at the
 * top, its vertex rows scroll below them, the status line is the last; a
 * faulty or detached vertex's row is red. While curses has the terminal,
 * what goes to stderr is kept in a memory file and written after the
 * screen is restored, so that an error line does not tear the screen.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "top.h"
#include <curses.h>

#define TOP_MIN_COLS	40	/* narrower: "terminal too small" */

static bool curses_on;
static int saved_stderr = -1, err_fd = -1;

void top_screen_end(void)
{
	char buf[4096];
	ssize_t n;

	if (curses_on) {
		endwin();
		curses_on = false;
	}
	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	saved_stderr = -1;
	if (lseek(err_fd, 0, SEEK_SET) == 0)
		while ((n = read(err_fd, buf, sizeof(buf))) > 0)
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
	close(err_fd);
	err_fd = -1;
}

void top_screen_begin(void)
{
	const char *term = getenv("TERM");

	if (!newterm(NULL, stdout, stdin))
		hc_fatal("top: cannot use the terminal (TERM=%s)", term ? term : "");
	curses_on = true;
	atexit(top_screen_end);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		init_pair(1, COLOR_RED, -1);
	}
	/* error lines would tear the screen: keep them for the end */
	err_fd = memfd_create("hcubectl-top-stderr", 0);
	if (err_fd >= 0) {
		fflush(stderr);
		saved_stderr = dup(STDERR_FILENO);
		if (saved_stderr >= 0)
			dup2(err_fd, STDERR_FILENO);
	}
}

static void put_line(int y, const struct line *l, int cols)
{
	int attr = l->style == LS_HEAD ? A_BOLD :
		   l->style == LS_BAD ? A_BOLD | (has_colors() ? COLOR_PAIR(1) : 0) : 0;

	attron(attr);
	mvaddnstr(y, 0, l->s, cols);
	attroff(attr);
}

void top_draw(struct top *t)
{
	struct frame f = { 0 };
	int rows = LINES, cols = COLS, y, nbody, maxscroll;
	char *status;

	top_frame(t, cols, &f);
	erase();
	if (cols < TOP_MIN_COLS || rows < (int)f.body + 2) {
		char msg[128];

		snprintf(msg, sizeof(msg), "terminal too small: %dx%d; top needs %dx%d", cols,
			 rows, cols < TOP_MIN_COLS ? TOP_MIN_COLS : cols, (int)f.body + 2);
		mvaddnstr(0, 0, msg, cols);
		refresh();
		top_frame_free(&f);
		return;
	}
	for (y = 0; y < (int)f.body; y++)
		put_line(y, &f.l[y], cols);
	t->page = rows - 1 - (int)f.body;
	nbody = (int)(f.n - f.body);
	maxscroll = nbody > t->page ? nbody - t->page : 0;
	t->scroll = t->scroll < 0 ? 0 : t->scroll > maxscroll ? maxscroll : t->scroll;
	for (y = 0; y < t->page && t->scroll + y < nbody; y++)
		put_line((int)f.body + y, &f.l[f.body + (size_t)(t->scroll + y)], cols);
	status = top_strf("q quit, r refresh%s | %s",
			  maxscroll ? ", arrows/PgUp/PgDn scroll" : "", f.status);
	attron(A_REVERSE);
	mvaddnstr(rows - 1, 0, status, cols);
	for (y = (int)strlen(status); y < cols; y++)
		addch(' ');
	attroff(A_REVERSE);
	free(status);
	refresh();
	top_frame_free(&f);
}

/* The keys pressed: false to quit. */
bool top_keys(struct top *t, bool *refetch, bool *redraw)
{
	int step = t->page > 1 ? t->page - 1 : 1;
	int ch;

	while ((ch = getch()) != ERR) {
		switch (ch) {
		case 'q':
		case 'Q':
			return false;
		case 'r':
		case 'R':
			*refetch = true;
			continue;
		case KEY_RESIZE:
			break;
		case 'L' & 0x1f:	/* ^L */
			clearok(curscr, TRUE);
			break;
		case KEY_UP:
		case 'k':
			t->scroll--;
			break;
		case KEY_DOWN:
		case 'j':
			t->scroll++;
			break;
		case KEY_PPAGE:
			t->scroll -= step;
			break;
		case KEY_NPAGE:
		case ' ':
			t->scroll += step;
			break;
		case KEY_HOME:
		case 'g':
			t->scroll = 0;
			break;
		case KEY_END:
		case 'G':
			t->scroll = 1 << 30;
			break;
		default:
			continue;
		}
		*redraw = true;
	}
	return true;
}
