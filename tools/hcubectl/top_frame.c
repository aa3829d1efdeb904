// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl top: the lines of one frame, made from the state top fetched
 * (the cube summary, the vertices, the counters, the settings) and from
 * the last events. At the top: the summary, the balancing subcube, the
 * configuration, the last rebalance, the counters and the last event; then
 * one row per vertex with its load as a bar; then the trees of the
 * balancing subcube; last the status line. curses draws these lines and
 * -n prints them as text, so what -n shows is what the screen shows.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "top.h"

#define TOP_BAR_MIN	10	/* the load bar's width, in columns */
#define TOP_BAR_MAX	50
#define TOP_MAX_DIM	20	/* largest cube whose trees are drawn */

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

void top_frame_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->l[i].s);
	free(f->l);
	free(f->status);
	memset(f, 0, sizeof(*f));
}

/*
 * @head, then the *@n @items separated by @sep, in lines of at most @width
 * (an item longer than a line has a line of its own); the lines after the
 * first are indented as far as @head goes. The items are freed: *@n is 0.
 */
static void add_wrapped(struct frame *f, int style, int width, const char *head, char **items,
			size_t *n, const char *sep)
{
	struct hc_str b = { 0 };
	bool empty = true;	/* no item on this line yet */
	size_t i;

	hc_str_printf(&b, "%s", head);
	for (i = 0; i < *n; i++) {
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
	while (*n)
		free(items[--*n]);
}

char *top_strf(const char *fmt, ...)
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

uint32_t top_u32(struct nlattr *const *tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

const char *top_enum(struct nlattr *a, const char *const *names, unsigned int n,
		     char *buf, size_t size)
{
	return a ? hc_name(names, n, nla_get_u32(a), buf, size) : "?";
}

static uint32_t vid(const struct hc_attrs *v)
{
	return nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_ID]);
}

static bool is_state(const struct hc_attrs *v, uint32_t state)
{
	return v->tb[HCUBE_A_VERTEX_INFO_STATE] &&
	       nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]) == state;
}

/* A cpulist attribute, "-" when absent or empty; malloc'ed. */
static char *cpus(const struct hc_attrs *v, int type)
{
	char *s = v->tb[type] ? hc_attr_str(v->tb[type]) : NULL;

	if (!s || !*s) {
		free(s);
		s = top_strf("%s", "-");
	}
	return s;
}

/* The summary's parts: "mode cpu", "3-cube", "6 of 8 vertices healthy", ... */
static size_t summary(char **items, struct nlattr *const *tb)
{
	size_t n = 0;
	char num[16];

	if (tb[HCUBE_A_MODE])
		items[n++] = top_strf("mode %s", TOP_ENUM(tb[HCUBE_A_MODE], hc_mode_names, num));
	if (tb[HCUBE_A_DIM])
		items[n++] = top_strf("%u-cube", top_u32(tb, HCUBE_A_DIM));
	if (tb[HCUBE_A_NVERTICES] && tb[HCUBE_A_NHEALTHY])
		items[n++] = top_strf("%u of %u vertices healthy", top_u32(tb, HCUBE_A_NHEALTHY),
				      top_u32(tb, HCUBE_A_NVERTICES));
	else if (tb[HCUBE_A_NVERTICES])
		items[n++] = top_strf("%u vertices", top_u32(tb, HCUBE_A_NVERTICES));
	if (tb[HCUBE_A_NATTACHED])
		items[n++] = top_strf("%u attached", top_u32(tb, HCUBE_A_NATTACHED));
	if (tb[HCUBE_A_NTASKS])
		items[n++] = top_strf("%u task%s", top_u32(tb, HCUBE_A_NTASKS),
				      top_u32(tb, HCUBE_A_NTASKS) == 1 ? "" : "s");
	if (tb[HCUBE_A_GENERATION])
		items[n++] = top_strf("generation %u", top_u32(tb, HCUBE_A_GENERATION));
	if (!n)
		items[n++] = top_strf("(no summary)");
	return n;
}

/* "balancing subcube 0**1 (base 0001, free dimensions 0110), tree depth 2" */
static void subcube_line(struct frame *f, struct nlattr *const *tb, int dim)
{
	char a[HC_LABEL_MAX], b[HC_LABEL_MAX];
	struct hc_str s = { 0 };
	char *pat;

	if (!tb[HCUBE_A_CB_PATTERN]) {
		add(f, LS_TEXT, "balancing subcube: none");
		return;
	}
	pat = hc_attr_str(tb[HCUBE_A_CB_PATTERN]);
	hc_str_printf(&s, "balancing subcube %s", *pat ? pat : "-");
	free(pat);
	if (tb[HCUBE_A_CB_BASE] && tb[HCUBE_A_CB_MASK] && dim > 0)
		hc_str_printf(&s, " (base %s, free dimensions %s)",
			      hc_label(a, dim, top_u32(tb, HCUBE_A_CB_BASE)),
			      hc_label(b, dim, top_u32(tb, HCUBE_A_CB_MASK)));
	if (tb[HCUBE_A_TREE_DEPTH])
		hc_str_printf(&s, ", tree depth %u", top_u32(tb, HCUBE_A_TREE_DEPTH));
	add(f, LS_TEXT, "%s", s.s);
	hc_str_free(&s);
}

/* "config: policy dem, auto on, threshold 3, cooldown 250 ms, max_tasks 4096" */
static void config_line(struct frame *f, struct nlattr *const *cf)
{
	struct hc_str s = { 0 };
	char num[16];

	if (cf[HCUBE_A_CONFIG_POLICY])
		hc_str_printf(&s, "policy %s",
			      TOP_ENUM(cf[HCUBE_A_CONFIG_POLICY], hc_policy_names, num));
	if (cf[HCUBE_A_CONFIG_AUTO])
		hc_str_printf(&s, ", auto %s", nla_get_u32(cf[HCUBE_A_CONFIG_AUTO]) ? "on" : "off");
	if (cf[HCUBE_A_CONFIG_THRESHOLD])
		hc_str_printf(&s, ", threshold %u", top_u32(cf, HCUBE_A_CONFIG_THRESHOLD));
	if (cf[HCUBE_A_CONFIG_COOLDOWN_MS])
		hc_str_printf(&s, ", cooldown %u ms", top_u32(cf, HCUBE_A_CONFIG_COOLDOWN_MS));
	if (cf[HCUBE_A_CONFIG_MAX_TASKS])
		hc_str_printf(&s, ", max_tasks %u", top_u32(cf, HCUBE_A_CONFIG_MAX_TASKS));
	add(f, LS_TEXT, "config: %s", s.s ? s.s : "?");
	hc_str_free(&s);
}

/* The last rebalance's parts, from its event: "mcwa", "trigger auto", ... */
static size_t report_items(char **items, struct nlattr *const *r)
{
	size_t n = 0;
	char num[16];

	items[n++] = top_strf("%s%s", TOP_ENUM(r[HCUBE_A_REPORT_POLICY], hc_policy_names, num),
			      r[HCUBE_A_REPORT_DRY_RUN] ? " (dry run)" : "");
	items[n++] = top_strf("trigger %s",
			      TOP_ENUM(r[HCUBE_A_REPORT_TRIGGER], hc_reason_names, num));
	if (r[HCUBE_A_REPORT_APPLIED] && r[HCUBE_A_REPORT_POLICY] &&
	    nla_get_u32(r[HCUBE_A_REPORT_APPLIED]) != nla_get_u32(r[HCUBE_A_REPORT_POLICY]))
		items[n++] = top_strf("applied %s",
				      TOP_ENUM(r[HCUBE_A_REPORT_APPLIED], hc_policy_names, num));
	items[n++] = top_strf("%u transfers in %u steps", top_u32(r, HCUBE_A_REPORT_NTRANSFERS),
			      top_u32(r, HCUBE_A_REPORT_STEPS));
	items[n++] = top_strf("%llu task-hops", (unsigned long long)
			      (r[HCUBE_A_REPORT_MIGRATIONS] ?
			       nla_get_u64(r[HCUBE_A_REPORT_MIGRATIONS]) : 0));
	items[n++] = top_strf("moved %u", top_u32(r, HCUBE_A_REPORT_MOVED));
	items[n++] = top_strf("failed %u", top_u32(r, HCUBE_A_REPORT_FAILED));
	items[n++] = top_strf("evacuated %u", top_u32(r, HCUBE_A_REPORT_EVACUATED));
	if (r[HCUBE_A_REPORT_IMBALANCE])
		items[n++] = top_strf("imbalance %u", top_u32(r, HCUBE_A_REPORT_IMBALANCE));
	if (r[HCUBE_A_REPORT_DURATION_NS])
		items[n++] = top_strf("%.3f ms", nla_get_u64(r[HCUBE_A_REPORT_DURATION_NS]) / 1e6);
	return n;
}

static void head_lines(const struct top *t, struct frame *f, int width, int dim)
{
	struct nlattr *const *st = t->stats.tb;
	char *items[HC_TB_SIZE];
	struct hc_str s = { 0 };
	char clk[16];
	size_t n;
	int i;

	n = summary(items, t->cube.tb);
	hc_str_printf(&s, "hcubectl top - %s - ", clock_str(clk, sizeof(clk), t->at));
	add_wrapped(f, LS_HEAD, width, s.s, items, &n, ", ");
	hc_str_free(&s);
	subcube_line(f, t->cube.tb, dim);
	config_line(f, t->config.tb);

	if (t->has_report) {
		n = report_items(items, t->report.tb);
		hc_str_printf(&s, "last rebalance %s: ",
			      clock_str(clk, sizeof(clk), t->report_at));
		add_wrapped(f, LS_TEXT, width, s.s, items, &n, ", ");
		hc_str_free(&s);
	} else {
		add(f, LS_TEXT, "last rebalance: %s", t->ev ? "none since top started" :
		    "not known without the events");
	}

	/* the counters, named as stats names them */
	for (i = HCUBE_A_STATS_PAD + 1; i <= hc_set_stats.max && i < HC_TB_SIZE; i++)
		if (st[i])
			items[n++] = top_strf("%s %llu", hc_set_stats.keys[i],
					      (unsigned long long)nla_get_u64(st[i]));
	add_wrapped(f, LS_TEXT, width, "counters: ", items, &n, ", ");

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
	return b.s ? b.s : top_strf("%s", "");
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

/* A u32 attribute as text, "-" when absent; malloc'ed. */
static char *u32_str(const struct nlattr *a)
{
	return a ? top_strf("%u", nla_get_u32(a)) : top_strf("-");
}

/* "; mce cpus 2,5": the CPUs of @v that a machine check marked faulty */
static void mce_note(struct hc_str *s, const struct hc_attrs *v)
{
	struct nlattr *a, *tb[HC_TB_SIZE];
	bool first = true;
	int rem;

	nla_for_each_attr(a, (struct nlattr *)v->buf, v->len, rem) {
		if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO ||
		    hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_A_CPU_INFO_CPU] ||
		    !tb[HCUBE_A_CPU_INFO_MARKED_BY] ||
		    nla_get_u32(tb[HCUBE_A_CPU_INFO_MARKED_BY]) != HCUBE_REASON_MCE)
			continue;
		if (first)
			hc_str_printf(s, "%smce cpus ", s->len ? "; " : "");
		hc_str_printf(s, "%s%u", first ? "" : ",", nla_get_u32(tb[HCUBE_A_CPU_INFO_CPU]));
		first = false;
	}
}

/* "ctrl; marked faulty; DETACHED; faulty cpus 10; offline cpus 16-17; mce cpus 10" */
static char *notes(const struct hc_attrs *v)
{
	struct hc_str s = { 0 };
	size_t k;

	if (v->tb[HCUBE_A_VERTEX_INFO_CONTROLLER])
		hc_str_printf(&s, "ctrl");
	if (v->tb[HCUBE_A_VERTEX_INFO_MARKED])
		hc_str_printf(&s, "%smarked faulty", s.len ? "; " : "");
	if (v->tb[HCUBE_A_VERTEX_INFO_DETACHED])
		hc_str_printf(&s, "%sDETACHED", s.len ? "; " : "");
	for (k = 0; k < 2; k++) {
		int type = k ? HCUBE_A_VERTEX_INFO_OFFLINE_CPUS : HCUBE_A_VERTEX_INFO_FAULTY_CPUS;
		char *c = cpus(v, type);

		if (strcmp(c, "-"))
			hc_str_printf(&s, "%s%s cpus %s", s.len ? "; " : "",
				      k ? "offline" : "faulty", c);
		free(c);
	}
	mce_note(&s, v);
	return s.s ? s.s : top_strf("%s", "");
}

/* The cells of a vertex's row, malloc'ed; the bar's is NULL (its width is not known yet). */
static char **vertex_cells(const struct hc_attrs *v, int dim)
{
	char **r = hc_malloc(C_N * sizeof(*r));
	char num[16], lb[HC_LABEL_MAX];
	int32_t parent;

	r[C_LABEL] = top_strf("%s", hc_label(lb, dim, vid(v)));
	r[C_ID] = top_strf("%u", vid(v));
	r[C_STATE] = top_strf("%s", v->tb[HCUBE_A_VERTEX_INFO_STATE] ?
			      HC_NAME(hc_vertex_state_names,
				      nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]), num) : "?");
	r[C_CPUS] = cpus(v, HCUBE_A_VERTEX_INFO_CPUS);
	r[C_USABLE] = cpus(v, HCUBE_A_VERTEX_INFO_USABLE_CPUS);
	r[C_LOAD] = u32_str(v->tb[HCUBE_A_VERTEX_INFO_LOAD]);
	r[C_BAR] = NULL;
	r[C_CB] = top_strf("%s", v->tb[HCUBE_A_VERTEX_INFO_IN_CB] ? "yes" : "-");
	parent = v->tb[HCUBE_A_VERTEX_INFO_PARENT] ?
		 nla_get_s32(v->tb[HCUBE_A_VERTEX_INFO_PARENT]) : -1;
	r[C_PARENT] = top_strf("%s", parent >= 0 ? hc_label(lb, dim, (uint32_t)parent) : "-");
	r[C_DIST] = u32_str(v->tb[HCUBE_A_VERTEX_INFO_DIST]);
	r[C_NOTES] = notes(v);
	return r;
}

static void vertex_rows(const struct top *t, struct frame *f, int width, int dim)
{
	const struct hc_attrs_list *l = &t->v;
	size_t i, nrows = 0, k;
	uint32_t max = 1, nhealthy = 0;	/* max: the scale, at least 1 */
	uint64_t sum = 0;
	int w[C_N], fixed = 0, bw, avg_cols = 0, c;
	char ***cells = hc_malloc((l->n + 1) * sizeof(*cells));
	bool loaded = false;
	char *head;

	for (c = 0; c < C_N; c++)
		w[c] = (int)strlen(col_head[c]);
	for (i = 0; i < l->n; i++) {
		const struct hc_attrs *v = &l->v[i];
		uint32_t load = top_u32(v->tb, HCUBE_A_VERTEX_INFO_LOAD);
		char **r;

		if (is_state(v, HCUBE_VERTEX_ABSENT))
			continue;
		max = load > max ? load : max;
		loaded |= load > 0;
		if (is_state(v, HCUBE_VERTEX_HEALTHY)) {
			sum += load;
			nhealthy++;
		}
		r = vertex_cells(v, dim);
		cells[nrows++] = r;
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
		r[C_BAR] = bar(top_u32(v->tb, HCUBE_A_VERTEX_INFO_LOAD), max, bw, avg_cols,
			       is_state(v, HCUBE_VERTEX_HEALTHY));
		s = row_line(r, w);
		add(f, is_state(v, HCUBE_VERTEX_HEALTHY) && !v->tb[HCUBE_A_VERTEX_INFO_DETACHED] ?
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

		if (!cv || !cv->tb[HCUBE_A_VERTEX_INFO_PARENT] ||
		    cv->tb[HCUBE_A_VERTEX_INFO_IN_CB] ||
		    nla_get_s32(cv->tb[HCUBE_A_VERTEX_INFO_PARENT]) != (int32_t)vid(v))
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

		if (!l->v[i].tb[HCUBE_A_VERTEX_INFO_IN_CB] ||
		    is_state(&l->v[i], HCUBE_VERTEX_ABSENT))
			continue;
		tree(t, index, nindex, (long)i, dim, 0, &b);
		items[n++] = b.s;
	}
	if (n)
		add_wrapped(f, LS_TEXT, width, "trees (a C_b vertex(its children)): ", items, &n,
			    " ");
	else
		add(f, LS_TEXT, "trees: none");

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
		items[n++] = k > i ? top_strf("%s..%s", a, b) : top_strf("%s", a);
	}
	if (n)
		add_wrapped(f, LS_TEXT, width, "absent (no CPU group): ", items, &n, ", ");
	for (i = 0; i < l->n; i++) {
		char lb[HC_LABEL_MAX];

		if (l->v[i].tb[HCUBE_A_VERTEX_INFO_DETACHED])
			items[n++] = top_strf("%s", hc_label(lb, dim, vid(&l->v[i])));
	}
	if (n)
		add_wrapped(f, LS_TEXT, width,
			    "detached (no healthy path to C_b; their tasks stay): ", items, &n,
			    " ");
	free(items);
	free(index);
}

void top_frame(const struct top *t, int width, struct frame *f)
{
	int dim = hc_tb_dim((struct nlattr **)t->cube.tb);

	head_lines(t, f, width, dim);
	vertex_rows(t, f, width, dim);
	tail_lines(t, f, width, dim);
	f->status = t->ev ? top_strf("updates: on events and every %g s", t->delay) :
		    top_strf("updates: every %g s; no events: %s", t->delay, t->no_events);
	if (t->lost) {
		char *s = f->status;

		f->status = top_strf("%s; events were lost (receive buffer overrun)", s);
		free(s);
	}
}
