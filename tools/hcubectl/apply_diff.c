// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl apply: what differs between the module and the file. The
 * module's state is read (the cube, its vertices, the settings); the
 * changes are then, in the order they are made: the topology mode, the
 * settings the file names, and the fault marks (the file lists every one:
 * a mark it does not list is cleared). The faults are checked against the
 * cube the file leads to, before anything changes: a file that would
 * leave no healthy vertex is refused whole.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "apply.h"

/* A set as a cpulist ("0-3,8"), in @b. */
static void set_str(struct hc_str *b, const uint8_t *set)
{
	uint32_t i = 0, j;
	bool first = true;

	while (i < AP_MAX_CPUS) {
		if (!ap_bit(set, i)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < AP_MAX_CPUS && ap_bit(set, j + 1); j++)
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

		if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO)
			continue;
		if (hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_A_CPU_INFO_CPU])
			return -1;
		cpu = nla_get_u32(tb[HCUBE_A_CPU_INFO_CPU]);
		if (cpu < AP_MAX_CPUS && tb[HCUBE_A_CPU_INFO_MARKED_BY] &&
		    nla_get_u32(tb[HCUBE_A_CPU_INFO_MARKED_BY]) == HCUBE_REASON_MCE)
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
		if (hc_parse_nested(tb, &hc_set_vertex, a) || !tb[HCUBE_A_VERTEX_INFO_ID])
			return -1;
		id = nla_get_u32(tb[HCUBE_A_VERTEX_INFO_ID]);
		if (!s->v || id >= s->nv)
			return -1;
		v = &s->v[id];
		v->absent = tb[HCUBE_A_VERTEX_INFO_STATE] &&
			    nla_get_u32(tb[HCUBE_A_VERTEX_INFO_STATE]) == HCUBE_VERTEX_ABSENT;
		v->marked = tb[HCUBE_A_VERTEX_INFO_MARKED] != NULL;
		free(v->cpulist);
		v->cpulist = tb[HCUBE_A_VERTEX_INFO_CPUS] ?
			     hc_attr_str(tb[HCUBE_A_VERTEX_INFO_CPUS]) : strdup("");
		if (!hc_cpulist_bits(v->cpulist, v->cpus, AP_MAX_CPUS, &why))
			return -1;
		str = tb[HCUBE_A_VERTEX_INFO_FAULTY_CPUS] ?
		      hc_attr_str(tb[HCUBE_A_VERTEX_INFO_FAULTY_CPUS]) : strdup("");
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

void ap_state_free(struct state *s)
{
	uint32_t i;

	for (i = 0; s->v && i < s->nv; i++)
		free(s->v[i].cpulist);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int ap_read_state(struct hc_ctx *c, struct state *s)
{
	int ret;

	ap_state_free(s);
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

/* Does the file list the fault mark of CPU (@cpu) or vertex @id? */
static bool listed(const struct want *w, bool cpu, uint32_t id)
{
	size_t k;

	for (k = 0; k < w->nfaults; k++)
		if (w->faults[k].cpu == cpu && w->faults[k].id == id)
			return true;
	return false;
}

static void clear_change(struct apply *a, bool cpu, uint32_t id)
{
	struct change *ch = add_change(a, C_FAULT, 0);

	ch->f = (struct fault){ .cpu = cpu, .id = id };
}

void ap_fault_changes(struct apply *a, const struct state *s, bool marks_cleared)
{
	const struct want *w = &a->w;
	struct change *ch;
	uint32_t i;
	size_t k;

	/* a machine check's mark is not the file's to clear */
	for (i = 0; i < AP_MAX_CPUS; i++)
		if (ap_bit(s->faulty, i) && !ap_bit(s->mce, i) && !listed(w, true, i))
			clear_change(a, true, i);
	for (i = 0; i < s->nv && !marks_cleared; i++)
		if (s->v[i].marked && !listed(w, false, i))
			clear_change(a, false, i);
	for (k = 0; k < w->nfaults; k++) {
		const struct fault *f = &w->faults[k];
		bool have = f->cpu ? ap_bit(s->faulty, f->id) :
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
	ap_bad(w, last, "the faults leave no healthy vertex (every CPU of the cube, %s, faulty or in a vertex marked faulty)",
	       cl.s);
	hc_str_free(&cl);
}

/*
 * check_healthy() with the groups of the cube the file leads to: the
 * file's (mode custom), the module's (the same topology), else only the
 * CPUs of @cube.
 */
static void check_end_healthy(struct apply *a, bool topo_change, const uint8_t *cube)
{
	const struct state *s = &a->s;
	struct want *w = &a->w;
	uint32_t i;

	if (topo_change && w->mode == HCUBE_MODE_CUSTOM) {
		bool *absent = hc_malloc(w->ngroups * sizeof(*absent));

		check_healthy(w, cube, (const uint8_t (*)[AP_SET_BYTES])w->groups, absent,
			      w->ngroups);
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

		if (f->cpu && !ap_bit(cube, f->id))
			ap_bad(w, f->line, "fault cpu %u: CPU %u is in no vertex of the cube (its CPUs: %s)",
			       f->id, f->id, cl.s);
		if (!f->cpu && nv && f->id >= nv)
			ap_bad(w, f->line, "fault vertex %u: out of range for this cube (valid range 0..%u)",
			       f->id, nv - 1);
		else if (!f->cpu && nv && (ng ? f->id >= ng : s->v[f->id].absent))
			ap_bad(w, f->line, "fault vertex %u: the vertex is absent (no CPU group)",
			       f->id);
	}
	hc_str_free(&cl);
	if (!w->nbad)
		check_end_healthy(a, topo_change, cube);
	return ap_bad_lines(w);
}

/* ---- the values as text ---- */

static const char *mode_name(uint32_t m, char *buf, size_t size)
{
	return hc_name(hc_mode_names, ARRAY_SIZE(hc_mode_names), m, buf, size);
}

void ap_value_str(const struct apply *a, const struct change *ch, uint32_t v, bool new,
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

/* ---- the plan ---- */

int ap_plan(struct apply *a)
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

				ap_value_str(a, ch, ch->old, false, &t);
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
	ap_fault_changes(a, s, topo);
	return 0;
}
