// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: every CPU of the cube with its vertex and what made it
 * unusable, from one consistent read of the cube (hc_fetch_cube()) and the
 * counters: what health and metrics report.
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

/* CPU numbers a census knows: NR_CPUS of Debian's kernels. */
#define CENSUS_MAX_CPUS	8192

static bool bit(const uint8_t *set, uint32_t i)
{
	return (set[i / 8] >> (i % 8)) & 1;
}

/* The cpulist attribute @a into @set (zeroed when absent or malformed). */
static void cpuset_of(const struct nlattr *a, uint8_t *set)
{
	const char *why;
	char *s;

	memset(set, 0, CENSUS_MAX_CPUS / 8);
	if (!a)
		return;
	s = hc_attr_str(a);
	if (!hc_cpulist_bits(s, set, CENSUS_MAX_CPUS, &why))
		memset(set, 0, CENSUS_MAX_CPUS / 8);
	free(s);
}

static int stats_reply(const struct hc_msg *m, void *arg)
{
	struct hc_attrs *a = arg;

	hc_attrs_free(a);
	if (!m->tb[HCUBE_A_STATS])
		return -1;
	return hc_attrs_copy(a, &hc_set_stats, nla_data(m->tb[HCUBE_A_STATS]),
			     nla_len(m->tb[HCUBE_A_STATS]));
}

/* The CPUs of vertex @v into @cs->cpu, with their state. */
static void census_vertex(struct hc_census *cs, const struct hc_attrs *v)
{
	static uint8_t cpus[CENSUS_MAX_CPUS / 8], faulty[CENSUS_MAX_CPUS / 8];
	static uint8_t offline[CENSUS_MAX_CPUS / 8], isolated[CENSUS_MAX_CPUS / 8];
	uint32_t id = nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_ID]), c;
	bool marked = v->tb[HCUBE_A_VERTEX_INFO_MARKED] != NULL;
	struct nlattr *a;
	int rem;

	cpuset_of(v->tb[HCUBE_A_VERTEX_INFO_CPUS], cpus);
	cpuset_of(v->tb[HCUBE_A_VERTEX_INFO_FAULTY_CPUS], faulty);
	cpuset_of(v->tb[HCUBE_A_VERTEX_INFO_OFFLINE_CPUS], offline);
	cpuset_of(v->tb[HCUBE_A_VERTEX_INFO_ISOLATED_CPUS], isolated);
	for (c = 0; c < CENSUS_MAX_CPUS; c++) {
		struct hc_cpu *p;

		if (!bit(cpus, c))
			continue;
		cs->cpu = hc_realloc(cs->cpu, (cs->ncpus + 1) * sizeof(*cs->cpu));
		p = &cs->cpu[cs->ncpus++];
		*p = (struct hc_cpu){ .cpu = c, .vertex = id, .by = -1,
				      .isolated = bit(isolated, c), .in_marked = marked };
		/* without the CPU's own record: what its lists say */
		if (bit(faulty, c))
			p->by = HCUBE_REASON_ADMIN;
		else if (bit(offline, c))
			p->by = HCUBE_REASON_HOTPLUG;
		p->healthy = p->by < 0 && !marked;
	}
	nla_for_each_attr(a, (struct nlattr *)v->buf, v->len, rem) {
		struct nlattr *tb[HC_TB_SIZE];
		size_t i;

		if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO ||
		    hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_A_CPU_INFO_CPU])
			continue;
		c = nla_get_u32(tb[HCUBE_A_CPU_INFO_CPU]);
		for (i = 0; i < cs->ncpus && cs->cpu[i].cpu != c; i++)
			;
		if (i == cs->ncpus)
			continue;
		if (tb[HCUBE_A_CPU_INFO_MARKED_BY])
			cs->cpu[i].by = (int)nla_get_u32(tb[HCUBE_A_CPU_INFO_MARKED_BY]);
		if (tb[HCUBE_A_CPU_INFO_MCE_RECORDS]) {
			cs->cpu[i].has_mce = true;
			cs->cpu[i].mce_records = nla_get_u64(tb[HCUBE_A_CPU_INFO_MCE_RECORDS]);
		}
		cs->cpu[i].healthy = cs->cpu[i].by < 0 && !marked;
	}
}

int hc_census_fetch(struct hc_ctx *c, struct hc_census *cs)
{
	char what[64];
	size_t i;
	int ret;

	memset(cs, 0, sizeof(*cs));
	ret = hc_fetch_cube(c, &cs->cube, &cs->v);
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "%s: stats", c->what);
	ret = hc_get(c, HCUBE_CMD_STATS_GET, false, what, stats_reply, &cs->stats);
	if (ret)
		return ret;
	cs->dim = hc_tb_dim(cs->cube.tb);
	for (i = 0; i < cs->v.n; i++) {
		const struct hc_attrs *v = &cs->v.v[i];
		uint32_t st = v->tb[HCUBE_A_VERTEX_INFO_STATE] ?
			      nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]) : HCUBE_VERTEX_HEALTHY;

		if (st == HCUBE_VERTEX_ABSENT)
			continue;
		cs->nvertices++;
		if (st == HCUBE_VERTEX_HEALTHY || st == HCUBE_VERTEX_ISOLATED)
			cs->nhealthy_vertices++;
		census_vertex(cs, v);
	}
	for (i = 0; i < cs->ncpus; i++)
		cs->nhealthy_cpus += cs->cpu[i].healthy;
	return 0;
}

void hc_census_free(struct hc_census *cs)
{
	hc_attrs_free(&cs->cube);
	hc_attrs_list_free(&cs->v);
	hc_attrs_free(&cs->stats);
	free(cs->cpu);
	memset(cs, 0, sizeof(*cs));
}

const char *hc_census_by(const struct hc_cpu *p)
{
	if (p->by >= 0)
		return (size_t)p->by < ARRAY_SIZE(hc_reason_names) && hc_reason_names[p->by] ?
		       hc_reason_names[p->by] : "unknown";
	return p->in_marked ? "admin" : NULL;
}
