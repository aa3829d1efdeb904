// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl show --dot: the cube as a Graphviz graph. One node per vertex
 * (its label, state, CPUs, load; faulty ones red with what marked them,
 * offline grey, absent dashed, the balancing subcube's vertices with a
 * thick border), the cube's edges light, the trees' edges (parent to
 * child) blue, and with --plan the transfers of the last rebalance's plan
 * (a REBALANCE dump: all of them, past the report's limit too) as red
 * arrows labelled by step.
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

struct xfer {
	uint32_t step, from, to, count;
};

struct plan {
	struct xfer *x;
	size_t n;
	bool got;
};

static int plan_reply(const struct hc_msg *m, void *arg)
{
	struct nlattr *a, *tb[HC_TB_SIZE];
	struct plan *p = arg;
	int rem;

	p->got = true;
	nla_for_each_attr(a, m->attrs, m->len, rem) {
		if (nla_type(a) != HCUBE_A_REPORT_TRANSFER)
			continue;
		if (hc_parse_nested(tb, &hc_set_transfer, a) || !tb[HCUBE_A_TRANSFER_STEP] ||
		    !tb[HCUBE_A_TRANSFER_FROM] || !tb[HCUBE_A_TRANSFER_TO] ||
		    !tb[HCUBE_A_TRANSFER_COUNT])
			return -1;
		p->x = hc_realloc(p->x, (p->n + 1) * sizeof(*p->x));
		p->x[p->n++] = (struct xfer){
			nla_get_u32(tb[HCUBE_A_TRANSFER_STEP]),
			nla_get_u32(tb[HCUBE_A_TRANSFER_FROM]),
			nla_get_u32(tb[HCUBE_A_TRANSFER_TO]),
			nla_get_u32(tb[HCUBE_A_TRANSFER_COUNT]),
		};
	}
	return 0;
}

/* The last rebalance's plan, every transfer of it, by a REBALANCE dump. */
static int fetch_plan(struct hc_ctx *c, struct plan *p)
{
	struct hc_req r;
	char what[64];
	int ret;

	snprintf(what, sizeof(what), "%s: plan", c->what);
	hc_req_init(&r, HCUBE_CMD_REBALANCE, true, 64, what);
	ret = hc_req_send(c, &r, plan_reply, p, NULL);
	hc_req_free(&r);
	if (!ret && !p->got) {
		fprintf(stderr, "hcubectl: %s: the kernel sent no report\n", what);
		ret = HC_EXIT_ERROR;
	}
	return ret;
}

static bool has(const struct hc_attrs *v, int type)
{
	return v->tb[type] != NULL;
}

static uint32_t id_of(const struct hc_attrs *v)
{
	return nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_ID]);
}

/* A cpulist attribute, "-" when absent or empty: malloc'ed. */
static char *cpus(const struct hc_attrs *v, int type)
{
	char *s = v->tb[type] ? hc_attr_str(v->tb[type]) : strdup("");

	if (!*s) {
		free(s);
		s = strdup("-");
	}
	return s;
}

/* ", mce 3" for the CPUs of @v a machine check marked. */
static void mce_cpus(struct hc_str *b, const struct hc_attrs *v)
{
	const char *sep = "\\nmce cpus ";
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, (struct nlattr *)v->buf, v->len, rem) {
		struct nlattr *tb[HC_TB_SIZE];

		if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO ||
		    hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_A_CPU_INFO_CPU] ||
		    !tb[HCUBE_A_CPU_INFO_MARKED_BY] ||
		    nla_get_u32(tb[HCUBE_A_CPU_INFO_MARKED_BY]) != HCUBE_REASON_MCE)
			continue;
		hc_str_printf(b, "%s%u", sep, nla_get_u32(tb[HCUBE_A_CPU_INFO_CPU]));
		sep = ",";
	}
}

static void dot_vertex(const struct hc_attrs *v, int dim)
{
	char lb[HC_LABEL_MAX], num[16];
	uint32_t st = has(v, HCUBE_A_VERTEX_INFO_STATE) ?
		      nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]) : HCUBE_VERTEX_HEALTHY;
	char *all = cpus(v, HCUBE_A_VERTEX_INFO_CPUS);
	char *faulty = cpus(v, HCUBE_A_VERTEX_INFO_FAULTY_CPUS);
	char *offline = cpus(v, HCUBE_A_VERTEX_INFO_OFFLINE_CPUS);
	struct hc_str label = { 0 };
	const char *fill = "#c8e6c9", *style = "filled";

	hc_str_printf(&label, "%s", hc_label(lb, dim, id_of(v)));
	if (st == HCUBE_VERTEX_ABSENT) {
		printf("  v%u [label=\"%s\\nabsent\", style=dashed, color=\"#9e9e9e\", "
		       "fontcolor=\"#9e9e9e\"];\n", id_of(v), label.s);
		goto out;
	}
	hc_str_printf(&label, " %s", HC_NAME(hc_vertex_state_names, st, num));
	if (has(v, HCUBE_A_VERTEX_INFO_MARKED))
		hc_str_printf(&label, "\\nmarked faulty (admin)");
	hc_str_printf(&label, "\\ncpus %s", all);
	if (strcmp(faulty, "-"))
		hc_str_printf(&label, "\\nfaulty cpus %s", faulty);
	mce_cpus(&label, v);
	if (strcmp(offline, "-"))
		hc_str_printf(&label, "\\noffline cpus %s", offline);
	if (has(v, HCUBE_A_VERTEX_INFO_LOAD))
		hc_str_printf(&label, "\\nload %u", nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_LOAD]));
	if (st == HCUBE_VERTEX_FAULTY)
		fill = "#ffcdd2";
	else if (st == HCUBE_VERTEX_OFFLINE)
		fill = "#e0e0e0";
	else if (st == HCUBE_VERTEX_ISOLATED)
		fill = "#bbdefb";
	else if (has(v, HCUBE_A_VERTEX_INFO_DETACHED))
		fill = "#fff9c4";
	if (has(v, HCUBE_A_VERTEX_INFO_IN_CB))
		style = "filled,bold";
	printf("  v%u [label=\"%s\", style=\"%s\", fillcolor=\"%s\"%s];\n", id_of(v), label.s,
	       style, fill, has(v, HCUBE_A_VERTEX_INFO_IN_CB) ? ", penwidth=3" : "");
out:
	hc_str_free(&label);
	free(all);
	free(faulty);
	free(offline);
}

int hc_show_dot(struct hc_ctx *c, struct hc_attrs *cube, const struct hc_attrs_list *v,
		int dim, bool with_plan)
{
	struct plan p = { 0 };
	struct nlattr **tb = cube->tb;
	char *pat = tb[HCUBE_A_CB_PATTERN] ? hc_attr_str(tb[HCUBE_A_CB_PATTERN]) : NULL;
	char num[16];
	size_t i, k;
	int ret = 0;

	if (with_plan) {
		ret = fetch_plan(c, &p);
		if (ret)
			goto out;
	}
	printf("digraph hcube {\n");
	printf("  graph [labelloc=t, fontname=\"monospace\", label=\"hcube");
	if (tb[HCUBE_A_MODE])
		printf(": mode %s", HC_NAME(hc_mode_names, nla_get_u32(tb[HCUBE_A_MODE]), num));
	if (dim >= 0)
		printf(", %d-cube", dim);
	if (tb[HCUBE_A_NHEALTHY] && tb[HCUBE_A_NVERTICES])
		printf(", %u of %u vertices healthy", nla_get_u32(tb[HCUBE_A_NHEALTHY]),
		       nla_get_u32(tb[HCUBE_A_NVERTICES]));
	if (pat)
		printf(", balancing subcube %s", *pat ? pat : "-");
	if (tb[HCUBE_A_GENERATION])
		printf(", generation %u", nla_get_u32(tb[HCUBE_A_GENERATION]));
	printf("\\nbold border: balancing subcube; blue: its trees (parent to child)%s\"];\n",
	       with_plan ? "; red: the plan's transfers, step: tasks" : "");
	printf("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
	printf("  edge [fontname=\"monospace\", fontsize=9];\n");
	for (i = 0; i < v->n; i++)
		dot_vertex(&v->v[i], dim);
	/* the cube's edges, each once; no say in the layout */
	for (i = 0; i < v->n; i++)
		for (k = i + 1; k < v->n; k++) {
			uint32_t d = id_of(&v->v[i]) ^ id_of(&v->v[k]);

			if (d && !(d & (d - 1)))
				printf("  v%u -> v%u [dir=none, color=\"#d0d0d0\", constraint=false];\n",
				       id_of(&v->v[i]), id_of(&v->v[k]));
		}
	/* the trees: parent to child, ranked from C_b down */
	for (i = 0; i < v->n; i++) {
		const struct hc_attrs *x = &v->v[i];

		if (!has(x, HCUBE_A_VERTEX_INFO_PARENT) ||
		    nla_get_s32(x->tb[HCUBE_A_VERTEX_INFO_PARENT]) < 0 ||
		    has(x, HCUBE_A_VERTEX_INFO_IN_CB))
			continue;
		printf("  v%d -> v%u [color=\"#1565c0\", penwidth=2];\n",
		       nla_get_s32(x->tb[HCUBE_A_VERTEX_INFO_PARENT]), id_of(x));
	}
	for (i = 0; i < p.n; i++)
		printf("  v%u -> v%u [color=\"#c62828\", fontcolor=\"#c62828\", penwidth=2, "
		       "label=\"%u: %u\"];\n", p.x[i].from, p.x[i].to,
		       p.x[i].step, p.x[i].count);
	printf("}\n");
out:
	free(pat);
	free(p.x);
	return ret;
}
