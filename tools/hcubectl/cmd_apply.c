// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl apply FILE: bring the module to the state a configuration file
 * describes (/etc/hcube/hcube.conf): the topology mode, the settings and
 * the fault marks. The whole file is checked first; then the module's
 * state is read, and only what differs is changed, each change reported.
 * The file is the whole truth about faults: a mark it does not list is
 * cleared, but for the marks of machine checks (mce_ce_threshold,
 * mce_uc), which only `fault del` clears. A setting it does not name is
 * left as it is.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

/* CPU numbers apply knows: NR_CPUS of Debian's kernels. */
#define AP_MAX_CPUS	8192
#define AP_SET_BYTES	(AP_MAX_CPUS / 8)

/* The settings (hc_settings[], settings.c) are applied in their order. */

/* Module parameters: read at load only. */
static const char *const load_params[] = { "max_tasks", "births", "isolated" };

struct fault {
	bool cpu;		/* else a vertex */
	uint32_t id;
	unsigned int line;	/* 0: not in the file */
};

/* What the file asks for. */
struct want {
	const char *name;	/* the file, as messages name it */
	bool has_mode, mode_auto;
	int mode;
	unsigned int mode_line;
	uint32_t ngroups;
	uint8_t (*groups)[AP_SET_BYTES];
	char **group_str;
	bool has[HC_NSETTINGS];
	uint32_t val[HC_NSETTINGS];
	unsigned int line[HC_NSETTINGS];
	struct fault *faults;
	size_t nfaults;
	int nbad;
};

/* What the module has. */
struct vtx {
	bool absent, marked;
	uint8_t cpus[AP_SET_BYTES];
	char *cpulist;
};

struct state {
	int mode;		/* -1: not said */
	int dim;
	uint32_t nv;
	struct vtx *v;		/* by id */
	uint8_t faulty[AP_SET_BYTES];
	uint8_t mce[AP_SET_BYTES];	/* of those, marked by machine checks */
	uint8_t cube[AP_SET_BYTES];	/* the CPUs of the vertices */
	bool has[HC_NSETTINGS];
	uint32_t val[HC_NSETTINGS];
};

enum { ST_PLANNED, ST_APPLIED, ST_FAILED, ST_SKIPPED };
static const char *const status_names[] = { "planned", "applied", "failed", "skipped" };

struct change {
	enum { C_MODE, C_SET, C_FAULT } kind;
	int key;		/* C_SET */
	bool add;		/* C_FAULT */
	struct fault f;		/* C_FAULT */
	uint32_t old, new;	/* C_SET, C_MODE (mode) */
	bool has_old;
	char *old_text;		/* C_MODE: the old mode (and groups), as read before */
	unsigned int line;
	int status;
	char *error;
};

struct apply {
	struct hc_ctx *c;
	struct want w;
	struct state s;
	struct change *ch;
	size_t nch;
	bool dry_run;
};

static bool bit(const uint8_t *set, uint32_t i)
{
	return i < AP_MAX_CPUS && (set[i / 8] >> (i % 8)) & 1;
}

static bool set_empty(const uint8_t *set)
{
	size_t i;

	for (i = 0; i < AP_SET_BYTES; i++)
		if (set[i])
			return false;
	return true;
}

/* A set as a cpulist ("0-3,8"), in @b. */
static void set_str(struct hc_str *b, const uint8_t *set)
{
	uint32_t i = 0, j;
	bool first = true;

	while (i < AP_MAX_CPUS) {
		if (!bit(set, i)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < AP_MAX_CPUS && bit(set, j + 1); j++)
			;
		hc_str_printf(b, "%s%u", first ? "" : ",", i);
		if (j > i)
			hc_str_printf(b, "-%u", j);
		first = false;
		i = j + 1;
	}
	if (first)
		hc_str_printf(b, "%s", "");
}

/* ---- the file ---- */

static void bad(struct want *w, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void bad(struct want *w, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "hcubectl: apply: %s:%u: ", w->name, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	w->nbad++;
}

/* After a check of the whole file: the count of its bad lines, if any. */
static int bad_lines(const struct want *w)
{
	if (!w->nbad)
		return 0;
	fflush(stdout);
	fprintf(stderr, "hcubectl: apply: %s: %d bad line%s; nothing changed\n", w->name,
		w->nbad, w->nbad > 1 ? "s" : "");
	return HC_EXIT_USAGE;
}

static void parse_mode(struct want *w, unsigned int ln, int argc, char **argv)
{
	const char *modes = "cpu, node, llc, custom CPULIST..., auto";
	const char *why;
	int i;

	if (w->has_mode) {
		bad(w, ln, "mode given twice (first on line %u)", w->mode_line);
		return;
	}
	if (argc < 2) {
		bad(w, ln, "mode: missing value (%s)", modes);
		return;
	}
	w->mode = hc_enum_parse(hc_mode_names, ARRAY_SIZE(hc_mode_names), argv[1]);
	w->mode_auto = !strcmp(argv[1], "auto");
	if (w->mode < 0 && !w->mode_auto) {
		bad(w, ln, "mode: unknown mode '%s' (%s)", argv[1], modes);
		return;
	}
	if (w->mode != HCUBE_MODE_CUSTOM && argc > 2) {
		bad(w, ln, "mode %s takes no CPU list ('%s')", argv[1], argv[2]);
		return;
	}
	if (w->mode == HCUBE_MODE_CUSTOM && argc < 3) {
		bad(w, ln, "mode custom: missing CPULIST (one per vertex, like 0-3 4-7)");
		return;
	}
	if (argc - 2 > 1 << HCUBE_MAX_DIM_UAPI) {
		bad(w, ln, "mode custom: %d CPULISTs, at most %d", argc - 2,
		    1 << HCUBE_MAX_DIM_UAPI);
		return;
	}
	w->ngroups = argc > 2 ? (uint32_t)(argc - 2) : 0;
	w->groups = hc_malloc(w->ngroups * sizeof(*w->groups) + 1);
	w->group_str = hc_malloc(w->ngroups * sizeof(char *) + 1);
	for (i = 2; i < argc; i++) {
		uint8_t *g = w->groups[i - 2];
		int k;

		w->group_str[i - 2] = strdup(argv[i]);
		if (!hc_cpulist_bits(argv[i], g, AP_MAX_CPUS, &why)) {
			bad(w, ln, "mode custom: CPULIST '%s' %s", argv[i], why);
			return;
		}
		if (set_empty(g)) {
			bad(w, ln, "mode custom: CPULIST %d is empty (every group needs a CPU)", i - 2);
			return;
		}
		for (k = 0; k < i - 2; k++) {
			size_t b;

			for (b = 0; b < AP_SET_BYTES && !(g[b] & w->groups[k][b]); b++)
				;
			if (b < AP_SET_BYTES) {
				bad(w, ln, "mode custom: CPULISTs '%s' and '%s' share CPUs (groups are disjoint)",
				    argv[k + 2], argv[i]);
				return;
			}
		}
	}
	w->has_mode = true;
	w->mode_line = ln;
}

static void parse_fault(struct want *w, unsigned int ln, int argc, char **argv)
{
	struct fault f = { .line = ln };
	const char *why;
	size_t i;

	if (argc < 3 || (strcmp(argv[1], "cpu") && strcmp(argv[1], "vertex"))) {
		bad(w, ln, "fault: want 'fault cpu N' or 'fault vertex V'");
		return;
	}
	if (argc > 3) {
		bad(w, ln, "fault %s %s: unexpected '%s' (one fault per line)", argv[1], argv[2],
		    argv[3]);
		return;
	}
	f.cpu = !strcmp(argv[1], "cpu");
	if (f.cpu && (!hc_parse_u32(argv[2], &f.id) || f.id >= AP_MAX_CPUS)) {
		bad(w, ln, "fault cpu: '%s' is not a CPU number (0..%d)", argv[2], AP_MAX_CPUS - 1);
		return;
	}
	if (!f.cpu && !hc_parse_vertex(argv[2], &f.id, &why)) {
		bad(w, ln, "fault vertex: '%s' %s", argv[2], why);
		return;
	}
	if (!f.cpu && f.id >= 1U << HCUBE_MAX_DIM_UAPI) {
		bad(w, ln, "fault vertex: %u is out of range (0..%d)", f.id,
		    (1 << HCUBE_MAX_DIM_UAPI) - 1);
		return;
	}
	for (i = 0; i < w->nfaults; i++)
		if (w->faults[i].cpu == f.cpu && w->faults[i].id == f.id) {
			bad(w, ln, "fault %s %u given twice (first on line %u)", argv[1], f.id,
			    w->faults[i].line);
			return;
		}
	w->faults = hc_realloc(w->faults, (w->nfaults + 1) * sizeof(*w->faults));
	w->faults[w->nfaults++] = f;
}

static void parse_setting(struct want *w, unsigned int ln, int k, int argc, char **argv)
{
	struct hc_str why = { 0 };
	uint32_t x;

	if (w->has[k]) {
		bad(w, ln, "%s given twice (first on line %u)", hc_settings[k].key, w->line[k]);
		return;
	}
	if (argc != 2) {
		bad(w, ln, "%s: %s", hc_settings[k].key, argc < 2 ? "missing value" : "one value only");
		return;
	}
	if (hc_setting_parse(k, hc_settings[k].key, argv[1], true, &x, &why)) {
		bad(w, ln, "%s%s", k == HC_SET_POLICY ? "policy: " : "", why.s);
		hc_str_free(&why);
		return;
	}
	w->has[k] = true;
	w->val[k] = x;
	w->line[k] = ln;
}

static void parse_line(struct want *w, unsigned int ln, int argc, char **argv)
{
	size_t i;
	int k;

	if (!strcmp(argv[0], "mode")) {
		parse_mode(w, ln, argc, argv);
		return;
	}
	if (!strcmp(argv[0], "fault")) {
		parse_fault(w, ln, argc, argv);
		return;
	}
	k = hc_setting_find(argv[0]);
	if (k >= 0) {
		parse_setting(w, ln, k, argc, argv);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(load_params); i++)
		if (!strcmp(argv[0], load_params[i])) {
			bad(w, ln, "%s is a module parameter, read when the module loads: put "
			    "'options hcube %s=...' in /etc/modprobe.d/hcube.conf", argv[0], argv[0]);
			return;
		}
	bad(w, ln, "unknown key '%s' (mode, fault, policy, auto, threshold, cooldown, "
	    "mce_ce_threshold, mce_ce_window, mce_uc)", argv[0]);
}

/* Read and check the whole file: 0, or HC_EXIT_USAGE after naming each bad line. */
static int parse_file(struct want *w, const char *file)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	unsigned int ln = 0;

	if (!strcmp(file, "-")) {
		if (hc_batch_stdin)
			hc_fatal("apply: -: stdin is the batch file; name a file");
		f = stdin;
		w->name = "<stdin>";
	} else {
		f = fopen(file, "r");
		w->name = file;
	}
	if (!f)
		hc_fatal("apply: %s: %s", file, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		struct hc_words words = { 0 };
		const char *why;

		ln++;
		why = hc_split_words(line, &words);
		if (why)
			bad(w, ln, "%s", why);
		else if (words.n)
			parse_line(w, ln, words.n, words.v);
		free(words.v);
	}
	if (ferror(f))
		hc_fatal("apply: %s: read error", w->name);
	free(line);
	if (f != stdin)
		fclose(f);
	return bad_lines(w);
}

/*
 * mode auto, as the module's parameter means it at load: node when the
 * CPUs span two or more NUMA nodes, else cpu.
 */
static int auto_mode(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	int nodes = 0;

	if (!d)
		return HCUBE_MODE_CPU;
	while ((e = readdir(d))) {
		char path[512], buf[64];
		FILE *f;

		if (strncmp(e->d_name, "node", 4) || !e->d_name[4] ||
		    strspn(e->d_name + 4, "0123456789") != strlen(e->d_name + 4))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9')
			nodes++;
		fclose(f);
	}
	closedir(d);
	return nodes >= 2 ? HCUBE_MODE_NODE : HCUBE_MODE_CPU;
}

/* ---- the module's state ---- */

static int cube_reply(const struct hc_msg *m, void *arg)
{
	struct state *s = arg;
	int dim = hc_tb_dim(m->tb);

	s->mode = m->tb[HCUBE_A_MODE] ? (int)nla_get_u32(m->tb[HCUBE_A_MODE]) : -1;
	if (dim < 0 || dim > HCUBE_MAX_DIM_UAPI)
		return -1;
	s->dim = dim;
	s->nv = 1U << dim;
	s->v = hc_malloc(s->nv * sizeof(*s->v));
	return 0;
}

/* The CPUs of the vertex @va that a machine check marked, into s->mce. */
static int mce_marks(struct state *s, const struct nlattr *va)
{
	struct nlattr *a, *tb[HC_TB_SIZE];
	int rem;

	nla_for_each_nested(a, va, rem) {
		uint32_t cpu;

		if (nla_type(a) != HCUBE_V_A_CPU_INFO)
			continue;
		if (hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_CI_A_CPU])
			return -1;
		cpu = nla_get_u32(tb[HCUBE_CI_A_CPU]);
		if (cpu < AP_MAX_CPUS && tb[HCUBE_CI_A_MARKED_BY] &&
		    nla_get_u32(tb[HCUBE_CI_A_MARKED_BY]) == HCUBE_REASON_MCE)
			s->mce[cpu / 8] |= 1U << (cpu % 8);
	}
	return 0;
}

static int vertex_reply(const struct hc_msg *m, void *arg)
{
	struct state *s = arg;
	struct nlattr *a, *tb[HC_TB_SIZE];
	const char *why;
	int rem;

	nla_for_each_attr(a, m->attrs, m->len, rem) {
		uint8_t faulty[AP_SET_BYTES];
		struct vtx *v;
		uint32_t id;
		char *str;
		size_t b;

		if (nla_type(a) != HCUBE_A_VERTEX)
			continue;
		if (hc_parse_nested(tb, &hc_set_vertex, a) || !tb[HCUBE_V_A_ID])
			return -1;
		id = nla_get_u32(tb[HCUBE_V_A_ID]);
		if (!s->v || id >= s->nv)
			return -1;
		v = &s->v[id];
		v->absent = tb[HCUBE_V_A_STATE] &&
			    nla_get_u32(tb[HCUBE_V_A_STATE]) == HCUBE_VERTEX_ABSENT;
		v->marked = tb[HCUBE_V_A_MARKED] != NULL;
		free(v->cpulist);
		v->cpulist = tb[HCUBE_V_A_CPUS] ? hc_attr_str(tb[HCUBE_V_A_CPUS]) : strdup("");
		if (!hc_cpulist_bits(v->cpulist, v->cpus, AP_MAX_CPUS, &why))
			return -1;
		str = tb[HCUBE_V_A_FAULTY_CPUS] ? hc_attr_str(tb[HCUBE_V_A_FAULTY_CPUS]) :
			strdup("");
		if (!hc_cpulist_bits(str, faulty, AP_MAX_CPUS, &why)) {
			free(str);
			return -1;
		}
		free(str);
		for (b = 0; b < AP_SET_BYTES; b++) {
			s->faulty[b] |= faulty[b];
			s->cube[b] |= v->cpus[b];
		}
		if (mce_marks(s, a))
			return -1;
	}
	return 0;
}

static int config_reply(const struct hc_msg *m, void *arg)
{
	struct state *s = arg;
	struct nlattr *tb[HC_TB_SIZE];
	int k;

	if (!m->tb[HCUBE_A_CONFIG] || hc_parse_nested(tb, &hc_set_config, m->tb[HCUBE_A_CONFIG]))
		return -1;
	for (k = 0; k < HC_NSETTINGS; k++) {
		struct nlattr *a = tb[hc_settings[k].attr];

		s->has[k] = a != NULL;
		if (a)
			s->val[k] = nla_get_u32(a);
	}
	return 0;
}

static void state_free(struct state *s)
{
	uint32_t i;

	for (i = 0; s->v && i < s->nv; i++)
		free(s->v[i].cpulist);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int read_state(struct hc_ctx *c, struct state *s)
{
	int ret;

	state_free(s);
	s->mode = -1;
	ret = hc_get(c, HCUBE_CMD_CUBE_GET, false, "apply: reading the cube", cube_reply, s);
	if (!ret)
		ret = hc_get(c, HCUBE_CMD_VERTEX_GET, true, "apply: reading the vertices",
			     vertex_reply, s);
	if (!ret)
		ret = hc_get(c, HCUBE_CMD_CONFIG_GET, false, "apply: reading the settings",
			     config_reply, s);
	return ret;
}

/* ---- what differs ---- */

static struct change *add_change(struct apply *a, int kind, unsigned int line)
{
	struct change *ch;

	a->ch = hc_realloc(a->ch, (a->nch + 1) * sizeof(*a->ch));
	ch = &a->ch[a->nch++];
	memset(ch, 0, sizeof(*ch));
	ch->kind = kind;
	ch->line = line;
	return ch;
}

/* Does the module have the file's topology? */
static bool same_topology(const struct want *w, const struct state *s)
{
	uint32_t i;

	if (s->mode != w->mode)
		return false;
	if (w->mode != HCUBE_MODE_CUSTOM)
		return true;
	for (i = 0; i < s->nv; i++) {
		if (i < w->ngroups ? s->v[i].absent ||
		    memcmp(s->v[i].cpus, w->groups[i], AP_SET_BYTES) : !s->v[i].absent)
			return false;
	}
	return w->ngroups <= s->nv;
}

/*
 * The fault marks to clear and to add, from the state @s: clearing first,
 * so that no step leaves fewer healthy vertices than the end.
 */
static void fault_changes(struct apply *a, const struct state *s, bool marks_cleared)
{
	const struct want *w = &a->w;
	struct change *ch;
	uint32_t i;
	size_t k;

	/* a machine check's mark is not the file's to clear */
	for (i = 0; i < AP_MAX_CPUS; i++) {
		if (!bit(s->faulty, i) || bit(s->mce, i))
			continue;
		for (k = 0; k < w->nfaults && !(w->faults[k].cpu && w->faults[k].id == i); k++)
			;
		if (k == w->nfaults) {
			ch = add_change(a, C_FAULT, 0);
			ch->f = (struct fault){ .cpu = true, .id = i };
		}
	}
	for (i = 0; i < s->nv && !marks_cleared; i++) {
		if (!s->v[i].marked)
			continue;
		for (k = 0; k < w->nfaults && !(!w->faults[k].cpu && w->faults[k].id == i); k++)
			;
		if (k == w->nfaults) {
			ch = add_change(a, C_FAULT, 0);
			ch->f = (struct fault){ .cpu = false, .id = i };
		}
	}
	for (k = 0; k < w->nfaults; k++) {
		const struct fault *f = &w->faults[k];
		bool have = f->cpu ? bit(s->faulty, f->id) :
			    !marks_cleared && f->id < s->nv && s->v[f->id].marked;

		if (!have) {
			ch = add_change(a, C_FAULT, f->line);
			ch->f = *f;
			ch->add = true;
		}
	}
}

/*
 * Does the end state leave a healthy vertex? Its faults are the file's
 * (apply clears the others): a vertex is healthy when the file does not
 * mark it and some CPU of its group is not faulty. The groups are
 * @groups[0..@ng) when known (@ng 0: only the CPUs of the cube, @cube,
 * are): then some CPU of the cube must not be faulty. The module refuses
 * the mark that takes the last healthy vertex, half way through a file:
 * such a file is refused whole, before anything changes.
 */
static void check_healthy(struct want *w, const uint8_t *cube,
			  const uint8_t (*groups)[AP_SET_BYTES], const bool *absent,
			  uint32_t ng)
{
	uint8_t faulty[AP_SET_BYTES] = { 0 };
	bool *marked = hc_malloc((ng ? ng : 1) * sizeof(*marked));
	unsigned int last = 0;
	bool healthy = false;
	struct hc_str cl = { 0 };
	uint32_t i;
	size_t k, b;

	memset(marked, 0, (ng ? ng : 1) * sizeof(*marked));
	for (k = 0; k < w->nfaults; k++) {
		const struct fault *f = &w->faults[k];

		if (f->cpu && f->id < AP_MAX_CPUS)
			faulty[f->id / 8] |= 1U << (f->id % 8);
		else if (!f->cpu && f->id < ng)
			marked[f->id] = true;
		last = f->line > last ? f->line : last;
	}
	for (i = 0; i < ng && !healthy; i++)
		for (b = 0; b < AP_SET_BYTES && !marked[i] && !absent[i]; b++)
			healthy |= (groups[i][b] & ~faulty[b]) != 0;
	for (b = 0; !ng && b < AP_SET_BYTES; b++)
		healthy |= (cube[b] & ~faulty[b]) != 0;
	free(marked);
	if (healthy || !w->nfaults)
		return;
	set_str(&cl, cube);
	bad(w, last, "the faults leave no healthy vertex (every CPU of the cube, %s, faulty or in a vertex marked faulty)",
	    cl.s);
	hc_str_free(&cl);
}

/*
 * Check the faults against the cube the file leads to, when it is known:
 * CPUs of its vertices, vertices with a CPU group, and a healthy vertex
 * left. 0 or HC_EXIT_USAGE.
 */
static int check_faults(struct apply *a, bool topo_change)
{
	struct want *w = &a->w;
	const struct state *s = &a->s;
	uint8_t cube[AP_SET_BYTES];
	uint32_t nv = s->nv, ng = 0, i;
	bool known = true;
	struct hc_str cl = { 0 };
	size_t k;

	memcpy(cube, s->cube, sizeof(cube));
	if (topo_change && w->mode == HCUBE_MODE_CUSTOM) {
		memset(cube, 0, sizeof(cube));
		for (i = 0; i < w->ngroups; i++)
			for (k = 0; k < AP_SET_BYTES; k++)
				cube[k] |= w->groups[i][k];
		ng = w->ngroups;
		for (nv = 1; nv < ng; nv <<= 1)
			;
	} else if (topo_change && s->mode == HCUBE_MODE_CUSTOM) {
		known = false;	/* the groups of cpu, node or llc: the kernel's to find */
	} else if (topo_change) {
		nv = 0;		/* same CPUs, other groups: vertices unknown */
	}
	if (!known)
		return 0;
	set_str(&cl, cube);
	for (k = 0; k < w->nfaults; k++) {
		const struct fault *f = &w->faults[k];

		if (f->cpu && !bit(cube, f->id))
			bad(w, f->line, "fault cpu %u: CPU %u is in no vertex of the cube (its CPUs: %s)",
			    f->id, f->id, cl.s);
		if (!f->cpu && nv && f->id >= nv)
			bad(w, f->line, "fault vertex %u: out of range for this cube (valid range 0..%u)",
			    f->id, nv - 1);
		else if (!f->cpu && nv && (ng ? f->id >= ng : s->v[f->id].absent))
			bad(w, f->line, "fault vertex %u: the vertex is absent (no CPU group)", f->id);
	}
	hc_str_free(&cl);
	if (!w->nbad) {
		if (topo_change && w->mode == HCUBE_MODE_CUSTOM) {
			bool *absent = hc_malloc(ng * sizeof(*absent));

			memset(absent, 0, ng * sizeof(*absent));
			check_healthy(w, cube, (const uint8_t (*)[AP_SET_BYTES])w->groups,
				      absent, ng);
			free(absent);
		} else if (!topo_change && s->nv) {
			uint8_t (*g)[AP_SET_BYTES] = hc_malloc(s->nv * sizeof(*g));
			bool *absent = hc_malloc(s->nv * sizeof(*absent));

			for (i = 0; i < s->nv; i++) {
				memcpy(g[i], s->v[i].cpus, AP_SET_BYTES);
				absent[i] = s->v[i].absent;
			}
			check_healthy(w, cube, (const uint8_t (*)[AP_SET_BYTES])g, absent, s->nv);
			free(absent);
			free(g);
		} else {
			check_healthy(w, cube, NULL, NULL, 0);
		}
	}
	return bad_lines(w);
}

static void value_str(const struct apply *a, const struct change *ch, uint32_t v, bool new,
		      struct hc_str *b);

static int plan(struct apply *a)
{
	struct want *w = &a->w;
	struct state *s = &a->s;
	bool topo = false;
	struct change *ch;
	int k;

	if (w->has_mode) {
		if (w->mode_auto)
			w->mode = auto_mode();
		topo = !same_topology(w, s);
		if (topo) {
			ch = add_change(a, C_MODE, w->mode_line);
			ch->old = (uint32_t)s->mode;
			ch->has_old = s->mode >= 0;
			ch->new = (uint32_t)w->mode;
			if (ch->has_old) {
				struct hc_str t = { 0 };

				value_str(a, ch, ch->old, false, &t);
				ch->old_text = t.s;
			}
		}
	}
	if (check_faults(a, topo))
		return HC_EXIT_USAGE;
	for (k = 0; k < HC_NSETTINGS; k++) {
		if (!w->has[k] || (s->has[k] && s->val[k] == w->val[k]))
			continue;
		ch = add_change(a, C_SET, w->line[k]);
		ch->key = k;
		ch->old = s->val[k];
		ch->has_old = s->has[k];
		ch->new = w->val[k];
	}
	/* a new topology has new vertices: their marks are gone */
	fault_changes(a, s, topo);
	return 0;
}

/* ---- applying ---- */

static void where(struct hc_str *b, const struct apply *a, const struct change *ch)
{
	if (ch->line)
		hc_str_printf(b, "%s:%u", a->w.name, ch->line);
	else
		hc_str_printf(b, "%s", a->w.name);
}

static int send_change(struct apply *a, struct change *ch)
{
	struct hc_str what = { 0 };
	struct hc_extack ext;
	struct nlattr *nest;
	struct hc_req r;
	char buf[1024];
	uint32_t i;
	int ret;

	hc_str_printf(&what, "apply: ");
	where(&what, a, ch);
	switch (ch->kind) {
	case C_MODE:
		hc_str_printf(&what, ": topology set");
		hc_req_init(&r, HCUBE_CMD_TOPO_SET, false, 64 + a->w.ngroups * 64, what.s);
		hc_req_u32(&r, HCUBE_A_MODE, ch->new, "mode %s", hc_mode_names[ch->new]);
		for (i = 0; ch->new == HCUBE_MODE_CUSTOM && i < a->w.ngroups; i++)
			hc_req_str(&r, HCUBE_A_GROUP, a->w.group_str[i], "group %u ('%s')", i,
				   a->w.group_str[i]);
		break;
	case C_SET:
		hc_str_printf(&what, ": config set");
		hc_req_init(&r, HCUBE_CMD_CONFIG_SET, false, 64, what.s);
		nest = hc_req_nest(&r, HCUBE_A_CONFIG, "config");
		hc_req_u32(&r, hc_settings[ch->key].attr, ch->new, "%s %u",
			   hc_settings[ch->key].key, ch->new);
		hc_req_nest_end(&r, nest);
		break;
	default:
		hc_str_printf(&what, ": fault %s", ch->add ? "add" : "del");
		hc_req_init(&r, ch->add ? HCUBE_CMD_FAULT_ADD : HCUBE_CMD_FAULT_DEL, false, 64,
			    what.s);
		if (ch->f.cpu)
			hc_req_u32(&r, HCUBE_A_CPU, ch->f.id, "cpu %u", ch->f.id);
		else
			hc_req_u32(&r, HCUBE_A_VERTEX_ID, ch->f.id, "vertex %u", ch->f.id);
		break;
	}
	ret = hc_req_send(a->c, &r, NULL, NULL, &ext);
	if (ret) {
		const struct hc_attr_set *set = hc_cmd_set[r.cmd];

		hc_req_error(&r, &ext);
		hc_extack_describe(&ext, &r.map, set->names, (size_t)set->max + 1, buf,
				   sizeof(buf));
		ch->error = strdup(buf);
	}
	hc_req_free(&r);
	hc_str_free(&what);
	return ret;
}

static int run_changes(struct apply *a)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < a->nch; i++) {
		struct change *ch = &a->ch[i];

		if (ret) {
			ch->status = ST_SKIPPED;
			continue;
		}
		ret = send_change(a, ch);
		ch->status = ret ? ST_FAILED : ST_APPLIED;
		if (ret || ch->kind != C_MODE)
			continue;
		/* the new vertices: the fault changes from what the module has now */
		ret = read_state(a->c, &a->s);
		if (ret)
			continue;
		for (j = i + 1; j < a->nch; j++)
			free(a->ch[j].error);
		for (j = i + 1; j < a->nch && a->ch[j].kind != C_FAULT; j++)
			;
		a->nch = j;
		fault_changes(a, &a->s, false);
	}
	return ret;
}

/* ---- the report ---- */

static const char *mode_name(uint32_t m, char *buf, size_t size)
{
	return hc_name(hc_mode_names, ARRAY_SIZE(hc_mode_names), m, buf, size);
}

/* The text of a setting's value. */
static void value_str(const struct apply *a, const struct change *ch, uint32_t v, bool new,
		      struct hc_str *b)
{
	char nb[16];
	uint32_t i;

	if (ch->kind == C_MODE && !new && ch->old_text) {
		hc_str_printf(b, "%s", ch->old_text);
	} else if (ch->kind == C_MODE) {
		hc_str_printf(b, "%s", mode_name(v, nb, sizeof(nb)));
		if (v != HCUBE_MODE_CUSTOM)
			return;
		for (i = 0; i < (new ? a->w.ngroups : a->s.nv); i++) {
			if (new)
				hc_str_printf(b, " %s", a->w.group_str[i]);
			else if (!a->s.v[i].absent)
				hc_str_printf(b, " %s", a->s.v[i].cpulist);
		}
	} else {
		hc_setting_format(b, ch->key, v);
	}
}

static void print_value(const struct apply *a, const struct change *ch, const char *key,
			uint32_t v, bool has, bool new)
{
	struct hc_str s = { 0 };

	if (!has || ch->kind == C_FAULT) {
		print_null(PRINT_JSON, key, NULL);
		return;
	}
	if (ch->kind == C_SET && (ch->key == HC_SET_AUTO || ch->key == HC_SET_MCE_UC)) {
		print_bool(PRINT_JSON, key, NULL, v);
	} else if (ch->kind == C_SET && ch->key != HC_SET_POLICY) {
		print_uint(PRINT_JSON, key, NULL, v);
	} else {
		value_str(a, ch, v, new, &s);
		print_string(PRINT_JSON, key, NULL, s.s);
	}
	hc_str_free(&s);
}

static void print_change(const struct apply *a, const struct change *ch)
{
	static const char *const done[] = { "", "", " (failed)", " (not tried)" };
	struct hc_str old = { 0 }, new = { 0 }, at = { 0 };

	open_json_object(NULL);
	print_string(PRINT_JSON, "key", NULL, ch->kind == C_MODE ? "mode" :
		     ch->kind == C_SET ? hc_settings[ch->key].key : "fault");
	print_string(PRINT_JSON, "action", NULL, ch->kind != C_FAULT ? "set" :
		     ch->add ? "add" : "del");
	print_value(a, ch, "old", ch->old, ch->has_old, false);
	print_value(a, ch, "new", ch->new, true, true);
	if (ch->kind == C_FAULT && ch->f.cpu)
		print_uint(PRINT_JSON, "cpu", NULL, ch->f.id);
	else
		print_null(PRINT_JSON, "cpu", NULL);
	if (ch->kind == C_FAULT && !ch->f.cpu)
		print_uint(PRINT_JSON, "vertex", NULL, ch->f.id);
	else
		print_null(PRINT_JSON, "vertex", NULL);
	if (ch->line)
		print_uint(PRINT_JSON, "line", NULL, ch->line);
	else
		print_null(PRINT_JSON, "line", NULL);
	print_string(PRINT_JSON, "status", NULL, status_names[ch->status]);
	print_string(PRINT_JSON, "error", NULL, ch->error);
	close_json_object();

	if (ch->line)
		hc_str_printf(&at, "%s:%u", a->w.name, ch->line);
	else
		hc_str_printf(&at, "not in %s", a->w.name);
	if (ch->kind == C_FAULT) {
		print_fp("fault %s %u: %s (%s)%s\n", ch->f.cpu ? "cpu" : "vertex", ch->f.id,
			 ch->add ? "added" : "cleared", at.s, done[ch->status]);
	} else {
		if (ch->has_old)
			value_str(a, ch, ch->old, false, &old);
		else
			hc_str_printf(&old, "-");
		value_str(a, ch, ch->new, true, &new);
		print_fp("%s: %s -> %s (%s)%s\n", ch->kind == C_MODE ? "mode" : hc_settings[ch->key].key,
			 old.s, new.s, at.s, done[ch->status]);
	}
	hc_str_free(&old);
	hc_str_free(&new);
	hc_str_free(&at);
}

static void report(const struct apply *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nch; i++)
		n += a->ch[i].status == ST_APPLIED;
	print_begin(false);
	open_json_object(NULL);
	print_string(PRINT_JSON, "file", NULL, a->w.name);
	print_bool(PRINT_JSON, "dry_run", NULL, a->dry_run);
	open_json_array("changes");
	for (i = 0; i < a->nch; i++)
		print_change(a, &a->ch[i]);
	close_json_array();
	print_uint(PRINT_JSON, "applied", NULL, (unsigned int)n);
	print_uint(PRINT_JSON, "total", NULL, (unsigned int)a->nch);
	close_json_object();
	if (!a->nch)
		print_fp("%s: nothing to change\n", a->w.name);
	else if (a->dry_run)
		print_fp("%s: %zu change%s to make (dry run: none made)\n", a->w.name, a->nch,
			 a->nch > 1 ? "s" : "");
	else
		print_fp("%s: %zu of %zu change%s made\n", a->w.name, n, a->nch,
			 a->nch > 1 ? "s" : "");
	print_end();
}

static int apply(struct hc_ctx *c, int argc, char **argv)
{
	struct apply a = { .c = c, .dry_run = hc_opt(c, 'n') != NULL };
	uint32_t i;
	size_t k;
	int ret;

	if (argc < 1)
		hc_usage(c, "missing FILE (the configuration file, - for stdin)");
	if (argc > 1)
		hc_usage(c, "unexpected argument '%s'", argv[1]);
	ret = parse_file(&a.w, argv[0]);
	if (!ret)
		ret = read_state(c, &a.s);
	if (!ret)
		ret = plan(&a);
	if (!ret) {
		if (!a.dry_run)
			ret = run_changes(&a);
		report(&a);
	}
	for (k = 0; k < a.nch; k++) {
		free(a.ch[k].error);
		free(a.ch[k].old_text);
	}
	free(a.ch);
	for (i = 0; i < a.w.ngroups; i++)
		free(a.w.group_str[i]);
	free(a.w.group_str);
	free(a.w.groups);
	free(a.w.faults);
	state_free(&a.s);
	return ret;
}

static const struct hc_opt apply_opts[] = {
	{ "dry-run", 'n', NULL, "say what would change, change nothing" },
	{ 0 },
};

const struct hc_cmd hc_cmd_apply = {
	.name = "apply",
	.args = "FILE [--dry-run]",
	.summary = "make the module's state that of a configuration file",
	.help =
	"Makes the module's topology mode, settings and fault marks those of\n"
	"FILE (/etc/hcube/hcube.conf; '-': stdin), one 'key value' per line:\n"
	"  mode       cpu|node|llc|auto | custom CPULIST...   (topology set)\n"
	"  policy     P                  (config set)\n"
	"  auto       on|off|1|0\n"
	"  threshold  N\n"
	"  cooldown   MS\n"
	"  fault      cpu N | vertex V   (one per line)\n"
	"'#' starts a comment. The whole file is checked first: a bad line is\n"
	"named with FILE:LINE and the reason, and then nothing is changed (exit\n"
	"2). Only what differs from the module is changed, in that order, and\n"
	"each change is printed; a second run prints 'nothing to change'. The\n"
	"file lists every fault: a mark it does not list is cleared. A setting\n"
	"it does not name is left alone. If the kernel refuses a change, the\n"
	"later ones are not tried, the report says which were made, exit 1.\n"
	"-j prints {\"file\", \"dry_run\", \"changes\": [{\"key\", \"action\", \"old\",\n"
	"\"new\", \"cpu\", \"vertex\", \"line\", \"status\", \"error\"}], \"applied\",\n"
	"\"total\"}. Needs CAP_NET_ADMIN (not with --dry-run).\n",
	.opts = apply_opts,
	.flags = HC_ARGS,
	.handler = apply,
};
