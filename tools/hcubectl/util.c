// SPDX-License-Identifier: GPL-2.0
/* hcubectl: errors, argument parsers, enum names, labels, tables. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

/* -j and -p: main.c sets them, every command reads them. */
struct hc_opts hc_opts;

const char *hc_opt(const struct hc_ctx *c, int val)
{
	const struct hc_opt *o;

	for (o = c->cmd->opts; o && o->name; o++)
		if (o->val == val)
			return c->opt[o - c->cmd->opts];
	return NULL;
}

void hc_usage(const struct hc_ctx *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	hc_usage_error(c->what, "%s", buf);
}

void hc_fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("hcubectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(HC_EXIT_ERROR);
}

void hc_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("hcubectl: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'hcubectl %s%s--help')\n", cmd ? cmd : "",
		cmd ? " " : "");
	exit(HC_EXIT_USAGE);
}

void *hc_malloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		hc_fatal("out of memory");
	return p;
}

void *hc_realloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		hc_fatal("out of memory");
	return p;
}

bool hc_parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

bool hc_parse_vertex(const char *s, uint32_t *v, const char **why)
{
	const char *p;
	uint32_t x = 0;

	*why = "is not a vertex id (decimal, or binary like 0b0101)";
	if (!strncmp(s, "0b", 2) || !strncmp(s, "0B", 2)) {
		if (!s[2])
			return false;
		for (p = s + 2; *p; p++) {
			if (*p != '0' && *p != '1')
				return false;
			if (p - (s + 2) >= 32) {
				*why = "has more than 32 binary digits";
				return false;
			}
			x = (x << 1) | (uint32_t)(*p - '0');
		}
		*v = x;
		return true;
	}
	if (s[0] == '0' && s[1]) {
		*why = "is ambiguous: write a binary label with 0b (0b0101), a decimal id without leading zeros";
		return false;
	}
	if (!hc_parse_u32(s, v)) {
		if (*s >= '0' && *s <= '9' && strspn(s, "0123456789") == strlen(s))
			*why = "is out of range";
		return false;
	}
	return true;
}

static bool parse_cpu_num(const char **p, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno == ERANGE)
		return false;
	*p = end;
	return true;
}

/*
 * The kernel's cpulist syntax: items "N", "N-M" or "N-M:used/group",
 * separated by commas. An empty string is accepted here (the callers decide).
 */
bool hc_parse_cpulist(const char *s, const char **why)
{
	const char *p = s;

	*why = "is not a cpulist like 0-3,8";
	if (strlen(s) >= HCUBE_CPULIST_MAX) {
		*why = "is too long";
		return false;
	}
	if (!*s)
		return true;
	for (;;) {
		unsigned long a, b, used, group;

		if (!parse_cpu_num(&p, &a))
			return false;
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_cpu_num(&p, &b))
				return false;
			if (b < a) {
				*why = "has a range that ends before it starts";
				return false;
			}
			if (*p == ':') {
				p++;
				if (!parse_cpu_num(&p, &used) || *p++ != '/' ||
				    !parse_cpu_num(&p, &group) || !used ||
				    !group || used > group)
					return false;
			}
		}
		if (!*p)
			return true;
		if (*p++ != ',')
			return false;
	}
}

bool hc_cpulist_bits(const char *s, uint8_t *set, uint32_t n, const char **why)
{
	const char *p = s;

	memset(set, 0, (n + 7) / 8);
	if (!hc_parse_cpulist(s, why))
		return false;
	while (*p) {
		unsigned long a, b, used = 1, group = 1, c;

		parse_cpu_num(&p, &a);
		b = a;
		if (*p == '-') {
			p++;
			parse_cpu_num(&p, &b);
			if (*p == ':') {
				p++;
				parse_cpu_num(&p, &used);
				p++;
				parse_cpu_num(&p, &group);
			}
		}
		if (b >= n) {
			*why = "names a CPU past the last one";
			return false;
		}
		for (c = a; c <= b; c++)
			if ((c - a) % group < used)
				set[c / 8] |= (uint8_t)(1U << (c % 8));
		if (*p == ',')
			p++;
	}
	return true;
}

int hc_enum_parse(const char *const *names, unsigned int n, const char *s)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *hc_enum_list(const char *const *names, unsigned int n, const char *sep)
{
	static char buf[512];
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && len < sizeof(buf); i++)
		if (names[i])
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						len ? sep : "", names[i]);
	return buf;
}

const char *hc_name(const char *const *names, unsigned int n, uint32_t v,
		    char *buf, size_t size)
{
	if (v < n && names[v])
		return names[v];
	snprintf(buf, size, "%u", v);
	return buf;
}

char *hc_attr_str(const struct nlattr *a)
{
	const char *data = nla_data(a);
	size_t len = strnlen(data, (size_t)nla_len(a));
	char *s = hc_malloc(len + 1);

	memcpy(s, data, len);
	s[len] = '\0';
	hc_sanitize(s);
	return s;
}

const char *hc_kernel_strerror(int32_t err)
{
	if (err == 0)
		return "Success";
	return strerror(err < 0 && err != INT32_MIN ? -err : err);
}

const char *hc_label(char *buf, int dim, uint32_t v)
{
	int i;

	if (dim == 0 && v == 0)
		return strcpy(buf, "-");
	if (dim < 1 || dim > 32 || (dim < 32 && v >> dim)) {
		snprintf(buf, HC_LABEL_MAX, "%u", v);
		return buf;
	}
	for (i = 0; i < dim; i++)
		buf[i] = (v >> (dim - 1 - i)) & 1 ? '1' : '0';
	buf[dim] = '\0';
	return buf;
}

/* Length of the valid UTF-8 sequence at @p, 0 if there is none. */
static int utf8_len(const unsigned char *p)
{
	int n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)	/* stops at the NUL: 0 is no continuation */
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;	/* overlong, surrogate, beyond U+10FFFF */
	return n;
}

void hc_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		int n = utf8_len(p);

		if (!n || *p < 0x20 || *p == 0x7f) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

void hc_table_init(struct hc_table *t, int ncols, const char *align,
		   const char *const *header)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->align = align;
	t->cap = 16;
	t->cells = hc_malloc(t->cap * (size_t)ncols * sizeof(char *));
	for (i = 0; i < ncols; i++)
		t->cells[i] = strdup(header[i]);
	t->nrows = 1;
}

void hc_table_rowv(struct hc_table *t, const char *const *cells)
{
	char **row;
	int i;

	if (t->nrows == t->cap) {
		t->cap *= 2;
		t->cells = hc_realloc(t->cells, t->cap * (size_t)t->ncols * sizeof(char *));
	}
	row = t->cells + t->nrows * (size_t)t->ncols;
	for (i = 0; i < t->ncols; i++) {
		row[i] = strdup(cells[i] ? cells[i] : "");
		if (!row[i])
			hc_fatal("out of memory");
	}
	t->nrows++;
}

void hc_table_row(struct hc_table *t, ...)
{
	const char *cells[16];
	va_list ap;
	int i;

	va_start(ap, t);
	for (i = 0; i < t->ncols && i < 16; i++)
		cells[i] = va_arg(ap, const char *);
	va_end(ap);
	hc_table_rowv(t, cells);
}

/* Display width: UTF-8 code points (hc_sanitize() made the text valid). */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void hc_table_print(struct hc_table *t, FILE *f, const char *indent)
{
	size_t *w = hc_malloc((size_t)t->ncols * sizeof(*w));
	size_t r;
	int c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			size_t l = text_width(t->cells[r * t->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	for (r = 0; r < t->nrows; r++) {
		struct hc_str line = { 0 };

		hc_str_printf(&line, "%s", indent);
		for (c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			int pad = (int)(w[c] - text_width(s));

			if (t->align[c] == 'r')
				hc_str_printf(&line, "%*s%s", pad, "", s);
			else
				hc_str_printf(&line, "%s%*s", s, pad, "");
			if (c < t->ncols - 1)
				hc_str_printf(&line, "  ");
		}
		while (line.len && line.s[line.len - 1] == ' ')
			line.s[--line.len] = '\0';
		fprintf(f, "%s\n", line.s);
		hc_str_free(&line);
	}
	free(w);
}

void hc_table_free(struct hc_table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
}

void hc_str_printf(struct hc_str *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = 2 * (b->len + (size_t)n + 1);
		b->s = hc_realloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void hc_str_free(struct hc_str *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

/* The signal that ended a waiting command (monitor, metrics, top), or 0. */
volatile sig_atomic_t hc_stop_signal;

static void hc_on_signal(int sig)
{
	hc_stop_signal = sig;
}

/*
 * The signals of @sigs (@n of them) end a waiting command but only interrupt
 * its wait: they are blocked, and not in @waitmask, the mask to wait with
 * (ppoll), so that no request or event is cut in half.
 */
void hc_signals_catch(const int *sigs, size_t n, sigset_t *waitmask)
{
	struct sigaction sa = { .sa_handler = hc_on_signal };
	sigset_t block;
	size_t i;

	sigemptyset(&block);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, waitmask);
	for (i = 0; i < n; i++) {
		sigdelset(waitmask, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
}
