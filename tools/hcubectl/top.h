/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcubectl top, shared by its files: the state top keeps (struct top), the
 * lines of a frame, and what each file gives the others.
 *
 *   cmd_top.c     the command: options, signals, the refresh loop, -n
 *   top_frame.c   the lines of one frame, from the state
 *   top_events.c  the "events" group: joining it, reading, describing
 *   top_screen.c  curses: the screen, drawing a frame, the keys
 *
 * cmd_top.c calls the other three; top_screen.c and top_events.c call
 * top_frame.c; top_frame.c calls none of them.
 */
#ifndef HCUBECTL_TOP_H
#define HCUBECTL_TOP_H

#include <stdbool.h>
#include <time.h>
#include "hcubectl.h"

struct nl_cb;

/* The look of a line: curses draws them differently, -n the same. */
enum { LS_TEXT, LS_HEAD, LS_BAD };

struct line {
	char *s;
	int style;
};

/* The lines of a frame: lines [0, body) stay at the top, the rest scrolls. */
struct frame {
	struct line *l;
	size_t n, cap, body;
	char *status;
};

struct top {
	struct hc_ctx *c;
	bool interactive;
	double delay;		/* seconds between periodic refreshes */
	/* the state, from the last fetch */
	struct hc_attrs cube, stats, config;
	struct hc_attrs_list v;
	time_t at;
	/* the events */
	struct nl_sock *ev;	/* NULL: none */
	struct nl_cb *cb;
	char no_events[160];	/* why there are none */
	bool pending;		/* an event came: refresh */
	bool unloaded;
	bool lost;		/* the socket overran: some events are lost */
	unsigned long nevents;
	char *event;		/* the last one, described */
	time_t event_at;
	struct hc_attrs report;	/* the last rebalance's report */
	bool has_report;
	time_t report_at;
	/* the screen */
	int scroll, page;
};

/* ---- top_frame.c ---- */

/* One frame of the state, for a screen @width columns wide. */
void top_frame(const struct top *t, int width, struct frame *f);
void top_frame_free(struct frame *f);

/* A formatted string, malloc'ed. */
char *top_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A u32 attribute of @tb, 0 when absent. */
uint32_t top_u32(struct nlattr *const *tb, int type);
/* The name of an enum attribute's value (its number in @buf), "?" when absent. */
const char *top_enum(struct nlattr *a, const char *const *names, unsigned int n,
		     char *buf, size_t size);
#define TOP_ENUM(a, names, buf)	top_enum(a, names, ARRAY_SIZE(names), buf, sizeof(buf))

/* ---- top_events.c ---- */

/*
 * A second socket, for the events alone (replies and events do not mix):
 * joined before the first fetch, so that no change falls between the two.
 * Without it, t->ev stays NULL and t->no_events says why.
 */
void top_events_open(struct top *t);
/* Read what the events socket holds (a bounded number: then refresh). */
void top_events_read(struct top *t);
void top_events_close(struct top *t);

/* ---- top_screen.c ---- */

void top_screen_begin(void);
/*
 * The terminal as it was, and what went to stderr while curses had it
 * (an error line) after it. Also at exit(), hc_fatal()'s way out.
 */
void top_screen_end(void);
/* The frame of the state on the screen, scrolled as t->scroll says. */
void top_draw(struct top *t);
/* The keys pressed: false to quit. */
bool top_keys(struct top *t, bool *refetch, bool *redraw);

#endif
