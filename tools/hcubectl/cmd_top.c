// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl top: a live full-screen view of the cube (curses). The summary,
 * the balancing subcube, the configuration, the last rebalance, the
 * counters and the last event at the top; one row per vertex with its load
 * as a bar; the trees of the balancing subcube; a status line. The state is
 * fetched again on every event of the "events" group (at most every
 * TOP_GAP_MS) and at least every -d seconds. Without the right to join the
 * group (CAP_NET_ADMIN) only the periodic refresh is left, and the status
 * line says so.
 *
 * frame() makes the lines of one frame from the state; curses draws them,
 * and -n N prints them as text, so what -n shows is what the screen shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "hcubectl.h"
#include <curses.h>

#define TOP_GAP_MS	200	/* least time between two refreshes on events */
#define TOP_MIN_COLS	40	/* narrower: "terminal too small" */
#define TOP_BAR_MIN	10	/* the load bar's width, in columns */
#define TOP_BAR_MAX	50
#define TOP_MAX_DIM	20	/* largest cube whose trees are drawn */
#define TOP_DRAIN_MAX	1024	/* events read before the next refresh, at most */

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

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- the frame ---- */

static void add(struct frame *f, int style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* @fmt formatted with @ap, malloc'ed. */
static char *vstrf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		hc_fatal("out of memory");
	return s;
}

static void add(struct frame *f, int style, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vstrf(fmt, ap);
	va_end(ap);
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->l = hc_realloc(f->l, f->cap * sizeof(*f->l));
	}
	f->l[f->n++] = (struct line){ s, style };
}

static void frame_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->l[i].s);
	free(f->l);
	free(f->status);
	memset(f, 0, sizeof(*f));
}

/*
 * @head, then the items separated by @sep, in lines of at most @width (an
 * item longer than a line has a line of its own); the lines after the
 * first are indented as far as @head goes.
 */
static void add_wrapped(struct frame *f, int style, int width, const char *head, char **items,
			size_t n, const char *sep)
{
	struct hc_str b = { 0 };
	bool empty = true;	/* no item on this line yet */
	size_t i;

	hc_str_printf(&b, "%s", head);
	for (i = 0; i < n; i++) {
		/* room for the item, and for the comma that may end the line */
		if (!empty && b.len + strlen(sep) + strlen(items[i]) + (sep[0] == ',') >
		    (size_t)width) {
			/* "a, b," then "c": the separator's comma ends the line */
			add(f, style, "%s%s", b.s, sep[0] == ',' ? "," : "");
			b.len = 0;
			hc_str_printf(&b, "%*s", (int)strlen(head), "");
			empty = true;
		}
		hc_str_printf(&b, "%s%s", empty ? "" : sep, items[i]);
		empty = false;
	}
	add(f, style, "%s", b.s);
	hc_str_free(&b);
}

static char *strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A formatted string, malloc'ed. */
static char *strf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vstrf(fmt, ap);
	va_end(ap);
	return s;
}

static const char *clock_str(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%H:%M:%S", &tm))
		snprintf(buf, size, "?");
	return buf;
}

static uint32_t u32_of(struct nlattr *const *tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static const char *enum_of(struct nlattr *a, const char *const *names, unsigned int n,
			   char *buf, size_t size)
{
	return a ? hc_name(names, n, nla_get_u32(a), buf, size) : "?";
}

static uint32_t vid(const struct hc_attrs *v)
{
	return nla_get_u32(v->tb[HCUBE_V_A_ID]);
}

static bool is_state(const struct hc_attrs *v, uint32_t state)
{
	return v->tb[HCUBE_V_A_STATE] && nla_get_u32(v->tb[HCUBE_V_A_STATE]) == state;
}

/* A cpulist attribute, "-" when absent or empty; malloc'ed. */
static char *cpus(const struct hc_attrs *v, int type)
{
	char *s = v->tb[type] ? hc_attr_str(v->tb[type]) : NULL;

	if (!s || !*s) {
		free(s);
		s = strf("%s", "-");
	}
	return s;
}

/* The summary's parts: "mode cpu", "3-cube", "6 of 8 vertices healthy", ... */
static size_t summary(char **items, struct nlattr *const *tb)
{
	size_t n = 0;
	char num[16];

	if (tb[HCUBE_A_MODE])
		items[n++] = strf("mode %s", enum_of(tb[HCUBE_A_MODE], hc_mode_names,
						     ARRAY_SIZE(hc_mode_names), num, sizeof(num)));
	if (tb[HCUBE_A_DIM])
		items[n++] = strf("%u-cube", u32_of(tb, HCUBE_A_DIM));
	if (tb[HCUBE_A_NVERTICES] && tb[HCUBE_A_NHEALTHY])
		items[n++] = strf("%u of %u vertices healthy", u32_of(tb, HCUBE_A_NHEALTHY),
				  u32_of(tb, HCUBE_A_NVERTICES));
	else if (tb[HCUBE_A_NVERTICES])
		items[n++] = strf("%u vertices", u32_of(tb, HCUBE_A_NVERTICES));
	if (tb[HCUBE_A_NATTACHED])
		items[n++] = strf("%u attached", u32_of(tb, HCUBE_A_NATTACHED));
	if (tb[HCUBE_A_NTASKS])
		items[n++] = strf("%u task%s", u32_of(tb, HCUBE_A_NTASKS),
				  u32_of(tb, HCUBE_A_NTASKS) == 1 ? "" : "s");
	if (tb[HCUBE_A_GENERATION])
		items[n++] = strf("generation %u", u32_of(tb, HCUBE_A_GENERATION));
	if (!n)
		items[n++] = strf("(no summary)");
	return n;
}

static void head_lines(const struct top *t, struct frame *f, int width, int dim)
{
	struct nlattr *const *tb = t->cube.tb, *const *cf = t->config.tb;
	struct nlattr *const *st = t->stats.tb;
	char clk[16], num[16], a[HC_LABEL_MAX], b[HC_LABEL_MAX];
	struct hc_str s = { 0 };
	char *items[HC_TB_SIZE];
	size_t n = 0;
	int i;

	n = summary(items, tb);
	hc_str_printf(&s, "hcubectl top - %s - ", clock_str(clk, sizeof(clk), t->at));
	add_wrapped(f, LS_HEAD, width, s.s, items, n, ", ");
	while (n)
		free(items[--n]);
	hc_str_free(&s);

	if (tb[HCUBE_A_CB_PATTERN]) {
		char *pat = hc_attr_str(tb[HCUBE_A_CB_PATTERN]);

		hc_str_printf(&s, "balancing subcube %s", *pat ? pat : "-");
		free(pat);
		if (tb[HCUBE_A_CB_BASE] && tb[HCUBE_A_CB_MASK] && dim > 0)
			hc_str_printf(&s, " (base %s, free dimensions %s)",
				      hc_label(a, dim, u32_of(tb, HCUBE_A_CB_BASE)),
				      hc_label(b, dim, u32_of(tb, HCUBE_A_CB_MASK)));
		if (tb[HCUBE_A_TREE_DEPTH])
			hc_str_printf(&s, ", tree depth %u", u32_of(tb, HCUBE_A_TREE_DEPTH));
		add(f, LS_TEXT, "%s", s.s);
		hc_str_free(&s);
	} else {
		add(f, LS_TEXT, "balancing subcube: none");
	}

	if (cf[HCUBE_C_A_POLICY])
		hc_str_printf(&s, "policy %s", enum_of(cf[HCUBE_C_A_POLICY], hc_policy_names,
						       ARRAY_SIZE(hc_policy_names), num,
						       sizeof(num)));
	if (cf[HCUBE_C_A_AUTO])
		hc_str_printf(&s, ", auto %s", nla_get_u32(cf[HCUBE_C_A_AUTO]) ? "on" : "off");
	if (cf[HCUBE_C_A_THRESHOLD])
		hc_str_printf(&s, ", threshold %u", u32_of(cf, HCUBE_C_A_THRESHOLD));
	if (cf[HCUBE_C_A_COOLDOWN_MS])
		hc_str_printf(&s, ", cooldown %u ms", u32_of(cf, HCUBE_C_A_COOLDOWN_MS));
	if (cf[HCUBE_C_A_MAX_TASKS])
		hc_str_printf(&s, ", max_tasks %u", u32_of(cf, HCUBE_C_A_MAX_TASKS));
	add(f, LS_TEXT, "config: %s", s.s ? s.s : "?");
	hc_str_free(&s);

	/* the last rebalance: from its event */
	if (t->has_report) {
		struct nlattr *const *r = t->report.tb;
		struct hc_str h = { 0 };

		hc_str_printf(&h, "last rebalance %s: ", clock_str(clk, sizeof(clk),
								   t->report_at));
		n = 0;
		items[n++] = strf("%s%s", enum_of(r[HCUBE_R_A_POLICY], hc_policy_names,
							ARRAY_SIZE(hc_policy_names), num,
							sizeof(num)),
					r[HCUBE_R_A_DRY_RUN] ? " (dry run)" : "");
		items[n++] = strf("trigger %s", enum_of(r[HCUBE_R_A_TRIGGER],
							      hc_reason_names,
							      ARRAY_SIZE(hc_reason_names),
							      num, sizeof(num)));
		if (r[HCUBE_R_A_APPLIED] && r[HCUBE_R_A_POLICY] &&
		    nla_get_u32(r[HCUBE_R_A_APPLIED]) != nla_get_u32(r[HCUBE_R_A_POLICY]))
			items[n++] = strf("applied %s",
						enum_of(r[HCUBE_R_A_APPLIED], hc_policy_names,
							ARRAY_SIZE(hc_policy_names), num,
							sizeof(num)));
		items[n++] = strf("%u transfers in %u steps", u32_of(r, HCUBE_R_A_NTRANSFERS),
					u32_of(r, HCUBE_R_A_STEPS));
		items[n++] = strf("%llu task-hops", (unsigned long long)
					(r[HCUBE_R_A_MIGRATIONS] ?
					 nla_get_u64(r[HCUBE_R_A_MIGRATIONS]) : 0));
		items[n++] = strf("moved %u", u32_of(r, HCUBE_R_A_MOVED));
		items[n++] = strf("failed %u", u32_of(r, HCUBE_R_A_FAILED));
		items[n++] = strf("evacuated %u", u32_of(r, HCUBE_R_A_EVACUATED));
		if (r[HCUBE_R_A_IMBALANCE])
			items[n++] = strf("imbalance %u", u32_of(r, HCUBE_R_A_IMBALANCE));
		if (r[HCUBE_R_A_DURATION_NS])
			items[n++] = strf("%.3f ms",
						nla_get_u64(r[HCUBE_R_A_DURATION_NS]) / 1e6);
		add_wrapped(f, LS_TEXT, width, h.s, items, n, ", ");
		while (n)
			free(items[--n]);
		hc_str_free(&h);
	} else {
		add(f, LS_TEXT, "last rebalance: %s", t->ev ? "none since top started" :
		    "not known without the events");
	}

	/* the counters, named as stats names them */
	for (i = HCUBE_S_A_PAD + 1; i <= hc_set_stats.max && i < HC_TB_SIZE; i++)
		if (st[i])
			items[n++] = strf("%s %llu", hc_set_stats.keys[i],
						(unsigned long long)nla_get_u64(st[i]));
	add_wrapped(f, LS_TEXT, width, "counters: ", items, n, ", ");
	while (n)
		free(items[--n]);

	if (t->event)
		add(f, LS_TEXT, "last event %s: %s (%lu since top started)",
		    clock_str(clk, sizeof(clk), t->event_at), t->event, t->nevents);
	else
		add(f, LS_TEXT, "last event: %s", t->ev ? "none since top started" :
		    "none (not listening)");
}

/* The vertex table: VERTEX ID STATE CPUS USABLE LOAD <bar> C_B PARENT DIST NOTES. */
enum { C_LABEL, C_ID, C_STATE, C_CPUS, C_USABLE, C_LOAD, C_BAR, C_CB, C_PARENT, C_DIST,
	C_NOTES, C_N };

static const char *const col_head[C_N] = {
	"VERTEX", "ID", "STATE", "CPUS", "USABLE", "LOAD", "LOAD BAR", "C_B", "PARENT", "DIST",
	"NOTES",
};
static const bool col_right[C_N] = {
	[C_ID] = true, [C_LOAD] = true, [C_DIST] = true,
};

static char *row_line(char **cell, const int *w)
{
	struct hc_str b = { 0 };
	int i;

	for (i = 0; i < C_N; i++)
		hc_str_printf(&b, "%s%*s", i ? "  " : "", col_right[i] ? w[i] : -w[i], cell[i]);
	while (b.len && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	return b.s ? b.s : strf("%s", "");
}

/*
 * The bar of a load: @w columns for the highest load @max, at least one
 * '#' for a load above 0 (rounded half up); '.' up to @avg_cols, the
 * average of the healthy vertices, for healthy ones.
 */
static char *bar(uint32_t load, uint32_t max, int w, int avg_cols, bool healthy)
{
	char *s = hc_malloc((size_t)w + 1);
	uint64_t n = ((uint64_t)2 * load * (uint64_t)w + max) / (2 * (uint64_t)max);
	int i;

	if (load && !n)
		n = 1;
	if (n > (uint64_t)w)
		n = (uint64_t)w;
	for (i = 0; i < w; i++)
		s[i] = (uint64_t)i < n ? '#' : healthy && i < avg_cols ? '.' : ' ';
	s[w] = '\0';
	return s;
}

static void vertex_rows(const struct top *t, struct frame *f, int width, int dim)
{
	const struct hc_attrs_list *l = &t->v;
	size_t i, nrows = 0, k;
	uint32_t max = 1, nhealthy = 0;	/* max: the scale, at least 1 */
	uint64_t sum = 0;
	int w[C_N], fixed = 0, bw, avg_cols = 0, c;
	char ***cells = hc_malloc((l->n + 1) * sizeof(*cells));
	char num[16], *head;
	bool loaded = false;

	for (i = 0; i < l->n; i++) {
		const struct hc_attrs *v = &l->v[i];
		uint32_t load = u32_of(v->tb, HCUBE_V_A_LOAD);

		if (is_state(v, HCUBE_VERTEX_ABSENT))
			continue;
		max = load > max ? load : max;
		loaded |= load > 0;
		if (is_state(v, HCUBE_VERTEX_HEALTHY)) {
			sum += load;
			nhealthy++;
		}
	}
	for (c = 0; c < C_N; c++)
		w[c] = (int)strlen(col_head[c]);
	for (i = 0; i < l->n; i++) {
		const struct hc_attrs *v = &l->v[i];
		struct hc_str notes = { 0 };
		char **r, lb[HC_LABEL_MAX];
		int32_t parent;

		if (is_state(v, HCUBE_VERTEX_ABSENT))
			continue;
		r = cells[nrows++] = hc_malloc(C_N * sizeof(*r));
		r[C_LABEL] = strf("%s", hc_label(lb, dim, vid(v)));
		r[C_ID] = strf("%u", vid(v));
		r[C_STATE] = strf("%s", v->tb[HCUBE_V_A_STATE] ?
				    HC_NAME(hc_vertex_state_names,
					    nla_get_u32(v->tb[HCUBE_V_A_STATE]), num) : "?");
		r[C_CPUS] = cpus(v, HCUBE_V_A_CPUS);
		r[C_USABLE] = cpus(v, HCUBE_V_A_USABLE_CPUS);
		r[C_LOAD] = v->tb[HCUBE_V_A_LOAD] ?
			    strf("%u", nla_get_u32(v->tb[HCUBE_V_A_LOAD])) : strf("-");
		r[C_BAR] = NULL;
		r[C_CB] = strf("%s", v->tb[HCUBE_V_A_IN_CB] ? "yes" : "-");
		parent = v->tb[HCUBE_V_A_PARENT] ? nla_get_s32(v->tb[HCUBE_V_A_PARENT]) : -1;
		r[C_PARENT] = strf("%s", parent >= 0 ? hc_label(lb, dim, (uint32_t)parent) : "-");
		r[C_DIST] = v->tb[HCUBE_V_A_DIST] ?
			    strf("%u", nla_get_u32(v->tb[HCUBE_V_A_DIST])) : strf("-");
		if (v->tb[HCUBE_V_A_CONTROLLER])
			hc_str_printf(&notes, "ctrl");
		if (v->tb[HCUBE_V_A_MARKED])
			hc_str_printf(&notes, "%smarked faulty", notes.len ? "; " : "");
		if (v->tb[HCUBE_V_A_DETACHED])
			hc_str_printf(&notes, "%sDETACHED", notes.len ? "; " : "");
		for (k = 0; k < 2; k++) {
			int type = k ? HCUBE_V_A_OFFLINE_CPUS : HCUBE_V_A_FAULTY_CPUS;
			char *s = cpus(v, type);

			if (strcmp(s, "-"))
				hc_str_printf(&notes, "%s%s cpus %s", notes.len ? "; " : "",
					      k ? "offline" : "faulty", s);
			free(s);
		}
		r[C_NOTES] = notes.s ? notes.s : strf("%s", "");
		for (c = 0; c < C_N; c++)
			if (r[c] && (int)strlen(r[c]) > w[c])
				w[c] = (int)strlen(r[c]);
	}

	/* the bar gets what the other columns leave */
	for (c = 0; c < C_N; c++)
		if (c != C_BAR && c != C_NOTES)
			fixed += w[c] + 2;
	bw = width - fixed - 2 - w[C_NOTES];
	bw = bw < TOP_BAR_MIN ? TOP_BAR_MIN : bw > TOP_BAR_MAX ? TOP_BAR_MAX : bw;
	if (nhealthy)
		avg_cols = (int)((2 * sum * (uint64_t)bw + (uint64_t)nhealthy * max) /
				 (2 * (uint64_t)nhealthy * max));
	w[C_BAR] = bw;
	if (loaded)
		add(f, LS_TEXT, "load bars: %d columns = load %u (the highest); '.' up to the "
		    "healthy vertices' average, %.2f", bw, max, (double)sum / nhealthy);
	else
		add(f, LS_TEXT, "load bars: no task on any vertex");
	add(f, LS_TEXT, "%s", "");
	head = row_line((char **)col_head, w);
	add(f, LS_HEAD, "%s", head);
	free(head);
	f->body = f->n;

	for (i = 0, k = 0; i < l->n; i++) {
		const struct hc_attrs *v = &l->v[i];
		char **r;
		char *s;

		if (is_state(v, HCUBE_VERTEX_ABSENT))
			continue;
		r = cells[k++];
		r[C_BAR] = bar(u32_of(v->tb, HCUBE_V_A_LOAD), max, bw, avg_cols,
			       is_state(v, HCUBE_VERTEX_HEALTHY));
		s = row_line(r, w);
		add(f, is_state(v, HCUBE_VERTEX_HEALTHY) && !v->tb[HCUBE_V_A_DETACHED] ?
		    LS_TEXT : LS_BAD, "%s", s);
		free(s);
		for (c = 0; c < C_N; c++)
			free(r[c]);
		free(r);
	}
	free(cells);
}

/* "000(100(101) 110)": a tree, children in parentheses. */
static void tree(const struct top *t, const long *index, uint32_t nindex, long vi, int dim,
		 int level, struct hc_str *b)
{
	const struct hc_attrs *v = &t->v.v[vi];
	char lb[HC_LABEL_MAX];
	bool open = false;
	int bit;

	hc_str_printf(b, "%s", hc_label(lb, dim, vid(v)));
	if (level > dim)	/* a cycle in what the kernel sent */
		return;
	for (bit = 0; bit < dim; bit++) {
		uint32_t id = vid(v) ^ (1U << bit);
		long ci = id < nindex ? index[id] : -1;
		const struct hc_attrs *cv = ci >= 0 ? &t->v.v[ci] : NULL;

		if (!cv || !cv->tb[HCUBE_V_A_PARENT] || cv->tb[HCUBE_V_A_IN_CB] ||
		    nla_get_s32(cv->tb[HCUBE_V_A_PARENT]) != (int32_t)vid(v))
			continue;
		hc_str_printf(b, "%s", open ? " " : "(");
		open = true;
		tree(t, index, nindex, ci, dim, level + 1, b);
	}
	if (open)
		hc_str_printf(b, ")");
}

/* The trees, the absent and the detached vertices. */
static void tail_lines(const struct top *t, struct frame *f, int width, int dim)
{
	const struct hc_attrs_list *l = &t->v;
	char **items = hc_malloc((l->n + 1) * sizeof(*items));
	uint32_t nindex = 0;
	long *index;
	size_t i, k, n = 0;

	if (l->n && vid(&l->v[l->n - 1]) < 1U << TOP_MAX_DIM)
		nindex = vid(&l->v[l->n - 1]) + 1;
	index = hc_malloc((nindex + 1) * sizeof(*index));
	for (i = 0; i < nindex; i++)
		index[i] = -1;
	for (i = 0; i < l->n; i++)
		if (vid(&l->v[i]) < nindex)
			index[vid(&l->v[i])] = (long)i;

	add(f, LS_TEXT, "%s", "");
	for (i = 0; dim >= 0 && dim <= TOP_MAX_DIM && i < l->n; i++) {
		struct hc_str b = { 0 };

		if (!l->v[i].tb[HCUBE_V_A_IN_CB] || is_state(&l->v[i], HCUBE_VERTEX_ABSENT))
			continue;
		tree(t, index, nindex, (long)i, dim, 0, &b);
		items[n++] = b.s;
	}
	if (n)
		add_wrapped(f, LS_TEXT, width, "trees (a C_b vertex(its children)): ", items, n, " ");
	else
		add(f, LS_TEXT, "trees: none");
	while (n)
		free(items[--n]);

	/* absent labels, as runs: "absent (no CPU group): 110..111" */
	for (i = 0; i < l->n; i = k + 1) {
		char a[HC_LABEL_MAX], b[HC_LABEL_MAX];

		k = i;
		if (!is_state(&l->v[i], HCUBE_VERTEX_ABSENT))
			continue;
		while (k + 1 < l->n && is_state(&l->v[k + 1], HCUBE_VERTEX_ABSENT) &&
		       vid(&l->v[k + 1]) == vid(&l->v[k]) + 1)
			k++;
		hc_label(a, dim, vid(&l->v[i]));
		hc_label(b, dim, vid(&l->v[k]));
		items[n++] = k > i ? strf("%s..%s", a, b) : strf("%s", a);
	}
	if (n)
		add_wrapped(f, LS_TEXT, width, "absent (no CPU group): ", items, n, ", ");
	while (n)
		free(items[--n]);
	for (i = 0; i < l->n; i++) {
		char lb[HC_LABEL_MAX];

		if (l->v[i].tb[HCUBE_V_A_DETACHED])
			items[n++] = strf("%s", hc_label(lb, dim, vid(&l->v[i])));
	}
	if (n)
		add_wrapped(f, LS_TEXT, width, "detached (no healthy path to C_b; their tasks stay): ",
			    items, n, " ");
	while (n)
		free(items[--n]);
	free(items);
	free(index);
}

/* One frame of the state, for a screen @width columns wide. */
static void frame(const struct top *t, int width, struct frame *f)
{
	int dim = hc_tb_dim((struct nlattr **)t->cube.tb);

	head_lines(t, f, width, dim);
	vertex_rows(t, f, width, dim);
	tail_lines(t, f, width, dim);
	f->status = t->ev ? strf("updates: on events and every %g s", t->delay) :
		    strf("updates: every %g s; no events: %s", t->delay, t->no_events);
	if (t->lost) {
		char *s = f->status;

		f->status = strf("%s; events were lost (receive buffer overrun)", s);
		free(s);
	}
}

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

/* ---- the events ---- */

static void describe(struct top *t, const struct hc_msg *m)
{
	struct nlattr **tb = m->tb, *task[HC_TB_SIZE];
	int dim = hc_tb_dim(t->cube.tb);
	char lb[HC_LABEL_MAX], num[16], num2[16];
	struct hc_str s = { 0 };

	switch (m->cmd) {
	case HCUBE_CMD_FAULT_NTF:
		hc_str_printf(&s, "fault: %s", enum_of(tb[HCUBE_A_EVENT], hc_fault_event_names,
						       ARRAY_SIZE(hc_fault_event_names), num,
						       sizeof(num)));
		if (tb[HCUBE_A_CPU])
			hc_str_printf(&s, " cpu %u", u32_of(tb, HCUBE_A_CPU));
		if (tb[HCUBE_A_VERTEX_ID])
			hc_str_printf(&s, "%s vertex %s", tb[HCUBE_A_CPU] ? "," : "",
				      hc_label(lb, dim, u32_of(tb, HCUBE_A_VERTEX_ID)));
		if (tb[HCUBE_A_STATE])
			hc_str_printf(&s, ", now %s",
				      enum_of(tb[HCUBE_A_STATE], hc_vertex_state_names,
					      ARRAY_SIZE(hc_vertex_state_names), num, sizeof(num)));
		break;
	case HCUBE_CMD_TOPO_NTF:
		hc_str_printf(&s, "topology: rebuilt");
		break;
	case HCUBE_CMD_TASK_NTF:
		if (!tb[HCUBE_A_TASK] || hc_parse_nested(task, &hc_set_task, tb[HCUBE_A_TASK])) {
			hc_str_printf(&s, "task: ?");
			break;
		}
		hc_str_printf(&s, "task: pid %u", u32_of(task, HCUBE_T_A_PID));
		if (task[HCUBE_T_A_COMM]) {
			char *comm = hc_attr_str(task[HCUBE_T_A_COMM]);

			hc_str_printf(&s, " (%s)", comm);
			free(comm);
		}
		if (task[HCUBE_T_A_REASON])
			hc_str_printf(&s, " %s", enum_of(task[HCUBE_T_A_REASON], hc_reason_names,
							 ARRAY_SIZE(hc_reason_names), num,
							 sizeof(num)));
		if (task[HCUBE_T_A_VERTEX])
			hc_str_printf(&s, ", vertex %s",
				      hc_label(lb, dim, u32_of(task, HCUBE_T_A_VERTEX)));
		break;
	case HCUBE_CMD_REBALANCE_NTF:
		hc_str_printf(&s, "rebalance%s: %s, moved %u",
			      tb[HCUBE_R_A_DRY_RUN] ? " (dry run)" : "",
			      enum_of(tb[HCUBE_R_A_POLICY], hc_policy_names,
				      ARRAY_SIZE(hc_policy_names), num, sizeof(num)),
			      u32_of(tb, HCUBE_R_A_MOVED));
		if (tb[HCUBE_R_A_POLICY]) {
			hc_attrs_free(&t->report);
			t->has_report = !hc_attrs_copy(&t->report, &hc_set_report, m->attrs,
						       m->len);
			t->report_at = time(NULL);
		}
		break;
	case HCUBE_CMD_CONTROLLER_NTF:
		hc_str_printf(&s, "controller: cluster %u %s -> ", u32_of(tb, HCUBE_A_CLUSTER),
			      tb[HCUBE_A_CONTROLLER_OLD] ?
			      hc_label(lb, dim, u32_of(tb, HCUBE_A_CONTROLLER_OLD)) : "none");
		hc_str_printf(&s, "%s", tb[HCUBE_A_CONTROLLER_NEW] ?
			      hc_label(lb, dim, u32_of(tb, HCUBE_A_CONTROLLER_NEW)) : "none");
		break;
	default:
		hc_str_printf(&s, "event %u (a newer module)", m->cmd);
		break;
	}
	if (m->cmd != HCUBE_CMD_TASK_NTF && m->cmd <= HCUBE_CMD_MAX && tb[HCUBE_A_REASON] &&
	    m->cmd != HCUBE_CMD_REBALANCE_NTF)
		hc_str_printf(&s, " (%s)", enum_of(tb[HCUBE_A_REASON], hc_reason_names,
						   ARRAY_SIZE(hc_reason_names), num2,
						   sizeof(num2)));
	free(t->event);
	t->event = s.s;
	t->event_at = time(NULL);
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[HC_TB_SIZE];
	struct top *t = arg;
	struct hc_msg m;
	int ret = hc_msg_from(msg, t->c->family, &m, tb);

	if (ret > 0) {
		if (hc_family_deleted(msg, t->c->family))
			t->unloaded = true;
		return t->unloaded ? NL_STOP : NL_SKIP;
	}
	t->nevents++;
	t->pending = true;
	if (ret < 0) {
		free(t->event);
		t->event = strf("%s", "a malformed event");
		t->event_at = time(NULL);
		return NL_SKIP;
	}
	describe(t, &m);
	return NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/*
 * A second socket, for the events alone (replies and events do not mix):
 * joined before the first fetch, so that no change falls between the two.
 */
static void events_open(struct top *t)
{
	struct nl_sock *sk;
	int grp, ctrl, err;

	hc_sock(t->c);	/* the family, or "not loaded" */
	sk = nl_socket_alloc();
	if (!sk)
		hc_fatal("out of memory");
	err = genl_connect(sk);
	if (err < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "cannot open a socket: %s",
			 nl_geterror(err));
		goto fail;
	}
	grp = genl_ctrl_resolve_grp(sk, HCUBE_FAMILY_NAME, HCUBE_MCGRP_EVENTS);
	if (grp < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "no group \"%s\": %s",
			 HCUBE_MCGRP_EVENTS, nl_geterror(grp));
		goto fail;
	}
	ctrl = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	err = nl_socket_add_membership(sk, grp);
	if (err == -NLE_PERM) {
		snprintf(t->no_events, sizeof(t->no_events),
			 "joining the group \"%s\" needs CAP_NET_ADMIN", HCUBE_MCGRP_EVENTS);
		goto fail;
	}
	if (err < 0) {
		snprintf(t->no_events, sizeof(t->no_events), "cannot join the group \"%s\": %s",
			 HCUBE_MCGRP_EVENTS, nl_geterror(err));
		goto fail;
	}
	if (ctrl >= 0)
		nl_socket_add_membership(sk, ctrl);	/* to see an rmmod */
	nl_socket_enable_msg_peek(sk);	/* reports of big cubes are large */
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	if (nl_socket_set_nonblocking(sk) < 0)
		hc_fatal("top: cannot make the socket non-blocking");
	t->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!t->cb)
		hc_fatal("out of memory");
	nl_cb_set(t->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(t->cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, t);
	t->ev = sk;
	return;
fail:
	nl_socket_free(sk);
}

/* Read what the events socket holds (a bounded number: then refresh). */
static void events_read(struct top *t)
{
	int i;

	for (i = 0; i < TOP_DRAIN_MAX && !t->unloaded; i++) {
		struct pollfd p = { .fd = nl_socket_get_fd(t->ev), .events = POLLIN };
		int err;

		if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
			break;
		err = nl_recvmsgs(t->ev, t->cb);
		if (err == -NLE_NOMEM) {	/* ENOBUFS: the socket overran */
			t->lost = true;
			t->pending = true;
		} else if (err < 0) {
			hc_fatal("top: events: %s", nl_geterror(err));
		}
	}
}

/* ---- the screen ---- */

static bool curses_on;
static int saved_stderr = -1, err_fd = -1;

/*
 * The terminal as it was, and what went to stderr while curses had it
 * (an error line) after it. Also at exit(), hc_fatal()'s way out.
 */
static void screen_end(void)
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

static void screen_begin(void)
{
	const char *term = getenv("TERM");

	if (!newterm(NULL, stdout, stdin))
		hc_fatal("top: cannot use the terminal (TERM=%s)", term ? term : "");
	curses_on = true;
	atexit(screen_end);
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

static void draw(struct top *t)
{
	struct frame f = { 0 };
	int rows = LINES, cols = COLS, y, nbody, maxscroll;
	char *status;

	frame(t, cols, &f);
	erase();
	if (cols < TOP_MIN_COLS || rows < (int)f.body + 2) {
		char msg[128];

		snprintf(msg, sizeof(msg), "terminal too small: %dx%d; top needs %dx%d", cols,
			 rows, cols < TOP_MIN_COLS ? TOP_MIN_COLS : cols, (int)f.body + 2);
		mvaddnstr(0, 0, msg, cols);
		refresh();
		frame_free(&f);
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
	status = strf("q quit, r refresh%s | %s",
		      maxscroll ? ", arrows/PgUp/PgDn scroll" : "", f.status);
	attron(A_REVERSE);
	mvaddnstr(rows - 1, 0, status, cols);
	for (y = (int)strlen(status); y < cols; y++)
		addch(' ');
	attroff(A_REVERSE);
	free(status);
	refresh();
	frame_free(&f);
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
	frame(t, width, &f);
	if (k)
		printf("\n");
	for (i = 0; i < f.n; i++)
		printf("%s\n", f.l[i].s);
	printf("%s\n", f.status);
	fflush(stdout);
	frame_free(&f);
}

/* The keys: false to quit. */
static bool keys(struct top *t, bool *refetch, bool *redraw)
{
	int ch;

	while ((ch = getch()) != ERR) {
		switch (ch) {
		case 'q':
		case 'Q':
			return false;
		case 'r':
		case 'R':
			*refetch = true;
			break;
		case KEY_RESIZE:
			*redraw = true;
			break;
		case 'L' & 0x1f:	/* ^L */
			clearok(curscr, TRUE);
			*redraw = true;
			break;
		case KEY_UP:
		case 'k':
			t->scroll--;
			*redraw = true;
			break;
		case KEY_DOWN:
		case 'j':
			t->scroll++;
			*redraw = true;
			break;
		case KEY_PPAGE:
			t->scroll -= t->page > 1 ? t->page - 1 : 1;
			*redraw = true;
			break;
		case KEY_NPAGE:
		case ' ':
			t->scroll += t->page > 1 ? t->page - 1 : 1;
			*redraw = true;
			break;
		case KEY_HOME:
		case 'g':
			t->scroll = 0;
			*redraw = true;
			break;
		case KEY_END:
		case 'G':
			t->scroll = 1 << 30;
			*redraw = true;
			break;
		}
	}
	return true;
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
			draw(t);
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
		if (stop_signal)
			return 0;
		/* the terminal is gone (its window closed): as SIGHUP */
		if (t->interactive && (p[n - 1].revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;
		if (t->ev)
			events_read(t);
		if (t->unloaded) {
			screen_end();
			fprintf(stderr, "hcubectl: top: the hcube module was unloaded\n");
			return HC_EXIT_ERROR;
		}
		if (t->interactive && !keys(t, &refetch, &redraw))
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
	struct sigaction sa = { 0 };
	sigset_t block, waitmask;
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

	/* Signals only interrupt the wait: no request is cut in half. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGHUP);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	events_open(&t);
	if (t.interactive)
		screen_begin();
	ret = loop(&t, frames, &waitmask);
	screen_end();

	if (t.ev) {
		nl_cb_put(t.cb);
		nl_socket_free(t.ev);
	}
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
