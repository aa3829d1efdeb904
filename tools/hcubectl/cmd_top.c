// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl top: a live full-screen view of the cube (curses). The state is
 * fetched again on every event of the "events" group (at most every
 * TOP_GAP_MS) and at least every -d seconds. Without the right to join the
 * group (CAP_NET_ADMIN) only the periodic refresh is left, and the status
 * line says so.
 *
 * This file is the command: its options, the signals, the state fetched
 * from the module, and the loop that refreshes it and shows each frame on
 * the screen (top_screen.c) or, with -n N, prints it as text. A frame's
 * lines come from top_frame.c, the events from top_events.c (top.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include "top.h"

#define TOP_GAP_MS	200	/* least time between two refreshes on events */

/* ---- the state ---- */

struct nest_arg {
	int type;
	const struct hc_attr_set *set;
	struct hc_attrs *a;
};

static int nest_reply(const struct hc_msg *m, void *arg)
{
	struct nest_arg *n = arg;
	struct nlattr *a = m->tb[n->type];

	if (!a)
		return -1;
	hc_attrs_free(n->a);
	return hc_attrs_copy(n->a, n->set, nla_data(a), nla_len(a));
}

static int fetch(struct top *t)
{
	struct nest_arg stats = { HCUBE_A_STATS, &hc_set_stats, &t->stats };
	struct nest_arg config = { HCUBE_A_CONFIG, &hc_set_config, &t->config };
	int ret;

	hc_attrs_free(&t->cube);
	hc_attrs_list_free(&t->v);
	ret = hc_fetch_cube(t->c, &t->cube, &t->v);
	if (!ret)
		ret = hc_get(t->c, HCUBE_CMD_STATS_GET, false, "top: stats", nest_reply, &stats);
	if (!ret)
		ret = hc_get(t->c, HCUBE_CMD_CONFIG_GET, false, "top: config", nest_reply,
			     &config);
	t->at = time(NULL);
	return ret;
}

/* A frame as text (-n). */
static void print_frame(const struct top *t, unsigned long k)
{
	struct frame f = { 0 };
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	int width = 80;
	uint32_t n;
	size_t i;

	if (cols && hc_parse_u32(cols, &n) && n && n <= 10000)
		width = (int)n;
	else if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		width = ws.ws_col;
	top_frame(t, width, &f);
	if (k)
		printf("\n");
	for (i = 0; i < f.n; i++)
		printf("%s\n", f.l[i].s);
	printf("%s\n", f.status);
	fflush(stdout);
	top_frame_free(&f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Refresh on events and every delay; -n: @frames frames, else until 'q'. */
static int loop(struct top *t, unsigned long frames, const sigset_t *waitmask)
{
	double last = 0, next = 0;
	unsigned long shown = 0;
	bool refetch = true, redraw = false;
	int ret;

	for (;;) {
		struct pollfd p[2];
		struct timespec ts;
		sigset_t blocked;
		double wait, now;
		nfds_t n = 0;

		if (refetch) {
			ret = fetch(t);
			if (ret)
				return ret;
			last = now_s();
			next = last + t->delay;
			t->pending = refetch = false;
			if (!t->interactive) {
				print_frame(t, shown);
				if (++shown >= frames)
					return 0;
			} else {
				redraw = true;
			}
		}
		if (redraw)
			top_draw(t);
		redraw = false;

		now = now_s();
		wait = next - now;
		if (t->pending && last + TOP_GAP_MS / 1e3 - now < wait)
			wait = last + TOP_GAP_MS / 1e3 - now;
		wait = wait < 0 ? 0 : wait;
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		if (t->ev)
			p[n++] = (struct pollfd){ .fd = nl_socket_get_fd(t->ev), .events = POLLIN };
		if (t->interactive)
			p[n++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		if (ppoll(p, n, &ts, waitmask) < 0 && errno != EINTR)
			hc_fatal("top: poll: %s", strerror(errno));
		/*
		 * ppoll() delivers a signal only when it waited: one that came
		 * while a file was ready (a hung-up terminal always is) is
		 * still pending. Let it in.
		 */
		sigprocmask(SIG_SETMASK, waitmask, &blocked);
		sigprocmask(SIG_SETMASK, &blocked, NULL);
		if (hc_stop_signal)
			return 0;
		/* the terminal is gone (its window closed): as SIGHUP */
		if (t->interactive && (p[n - 1].revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;
		if (t->ev)
			top_events_read(t);
		if (t->unloaded) {
			top_screen_end();
			fprintf(stderr, "hcubectl: top: the hcube module was unloaded\n");
			return HC_EXIT_ERROR;
		}
		if (t->interactive && !top_keys(t, &refetch, &redraw))
			return 0;
		now = now_s();
		if (now >= next || (t->pending && now >= last + TOP_GAP_MS / 1e3))
			refetch = true;
	}
}

static int top(struct hc_ctx *c, int argc, char **argv)
{
	const char *n_opt = hc_opt(c, 'n'), *d_opt = hc_opt(c, 'd');
	struct top t = { .c = c, .delay = 2 };
	/* they end top, but only interrupt its wait */
	static const int top_sigs[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t waitmask;
	unsigned long frames = 0;
	uint32_t n;
	int ret;

	(void)argc;
	(void)argv;
	if (hc_opts.json)
		hc_usage(c, "no JSON output: show -j, stats -j and monitor -j have the same data");
	if (n_opt) {
		if (!hc_parse_u32(n_opt, &n) || !n)
			hc_usage(c, "--frames: '%s' is not a number of frames (valid range 1..%u)",
				 n_opt, UINT32_MAX);
		frames = n;
	}
	if (d_opt) {
		char *end;

		errno = 0;
		t.delay = strtod(d_opt, &end);
		if (errno || end == d_opt || *end || !(t.delay >= 0.1 && t.delay <= 3600))
			hc_usage(c, "--delay: '%s' is not a number of seconds (valid range "
				 "0.1..3600)", d_opt);
	}
	t.interactive = !frames;
	if (t.interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		hc_usage(c, "the full-screen view needs a terminal on stdin and stdout; "
			 "-n N prints N frames as text");

	hc_signals_catch(top_sigs, ARRAY_SIZE(top_sigs), &waitmask);
	top_events_open(&t);
	if (t.interactive)
		top_screen_begin();
	ret = loop(&t, frames, &waitmask);
	top_screen_end();

	top_events_close(&t);
	hc_attrs_free(&t.cube);
	hc_attrs_free(&t.stats);
	hc_attrs_free(&t.config);
	hc_attrs_free(&t.report);
	hc_attrs_list_free(&t.v);
	free(t.event);
	return ret;
}

static const struct hc_opt top_opts[] = {
	{ "frames", 'n', "N", "print N frames as text, one per refresh, and exit (no curses)" },
	{ "delay", 'd', "SECONDS", "refresh at least every SECONDS (0.1..3600; default 2)" },
	{ 0 },
};

const struct hc_cmd hc_cmd_top = {
	.name = "top",
	.args = "[-n N] [-d SECONDS]",
	.summary = "a live full-screen view of the cube",
	.help =
	"A live full-screen view of the cube: the summary, the balancing subcube\n"
	"and the configuration; the last rebalance (from its event), the counters\n"
	"and the last event; one row per vertex with its state, CPUs, usable CPUs,\n"
	"load and a bar of it (the highest load fills the bar; '.' marks the\n"
	"healthy vertices' average), C_b membership, tree parent, distance, notes;\n"
	"then the trees of the balancing subcube, a C_b vertex with its children\n"
	"in parentheses. It fetches the state again on every event of the\n"
	"\"events\" group and at least every -d seconds. Without CAP_NET_ADMIN it\n"
	"cannot join the group: it refreshes every -d seconds only, and the status\n"
	"line says so. Keys: q quits, r refreshes, the arrows, PgUp, PgDn, Home\n"
	"and End scroll the vertices. -n N prints N frames as text instead (the\n"
	"same lines, then the status line; a blank line between frames), as wide\n"
	"as $COLUMNS says, else as the terminal on stdout, else 80 columns. Exits\n"
	"0 on q, SIGINT, SIGTERM or SIGHUP, 1 when the module is unloaded or a\n"
	"request fails.\n",
	.opts = top_opts,
	.handler = top,
};
