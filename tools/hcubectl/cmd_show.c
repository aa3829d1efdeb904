// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl show: the cube summary (CUBE_GET) and every vertex (VERTEX_GET
 * dump), with the trees of the balancing subcube drawn under its vertices.
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

/* Largest cube whose id-indexed arrays show builds (the uAPI's is 10). */
#define SHOW_MAX_DIM 20

struct show {
	struct hc_attrs cube;
	struct hc_attrs_list v;	/* the vertices, sorted by id */
	long *index;		/* id -> index in v, -1 for none */
	uint32_t nindex;
	int dim;
};

static int cube_reply(const struct hc_msg *m, void *arg)
{
	struct hc_attrs *a = arg;

	hc_attrs_free(a);
	return hc_attrs_copy(a, &hc_set_hcube, m->attrs, m->len);
}

static int vertex_reply(const struct hc_msg *m, void *arg)
{
	struct hc_attrs_list *l = arg;
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, m->attrs, m->len, rem) {
		if (nla_type(a) != HCUBE_A_VERTEX)
			continue;
		if (hc_attrs_add(l, &hc_set_vertex, a) ||
		    !l->v[l->n - 1].tb[HCUBE_A_VERTEX_INFO_ID])
			return -1;	/* a vertex without its label is useless */
	}
	return 0;
}

static uint32_t id_of(const struct hc_attrs *v)
{
	return nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_ID]);
}

static int cmp_vertex(const void *a, const void *b)
{
	uint32_t x = id_of(a), y = id_of(b);

	return x < y ? -1 : x > y;
}

static uint32_t generation(const struct hc_attrs *cube)
{
	return nla_get_u32(cube->tb[HCUBE_A_GENERATION]);
}

/* Summary, vertices, summary again: retry if the generation moved. */
int hc_fetch_cube(struct hc_ctx *c, struct hc_attrs *cube, struct hc_attrs_list *v)
{
	struct hc_attrs again = { 0 };
	char wc[64], wv[64];
	int tries, ret;

	snprintf(wc, sizeof(wc), "%s: cube", c->what);
	snprintf(wv, sizeof(wv), "%s: vertices", c->what);
	for (tries = 0; tries < 5; tries++) {
		ret = hc_get(c, HCUBE_CMD_CUBE_GET, false, wc, cube_reply, cube);
		if (!ret)
			ret = hc_get(c, HCUBE_CMD_VERTEX_GET, true, wv, vertex_reply, v);
		if (!ret)
			ret = hc_get(c, HCUBE_CMD_CUBE_GET, false, wc, cube_reply, &again);
		if (ret)
			break;
		if (!cube->tb[HCUBE_A_GENERATION] || !again.tb[HCUBE_A_GENERATION] ||
		    generation(&again) == generation(cube))
			break;
		hc_attrs_list_free(v);
	}
	hc_attrs_free(&again);
	qsort(v->v, v->n, sizeof(*v->v), cmp_vertex);
	return ret;
}

static bool has(const struct hc_attrs *v, int type)
{
	return v->tb[type] != NULL;
}

static bool is_absent(const struct hc_attrs *v)
{
	return has(v, HCUBE_A_VERTEX_INFO_STATE) &&
	       nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]) == HCUBE_VERTEX_ABSENT;
}

static int32_t parent_of(const struct hc_attrs *v)
{
	return has(v, HCUBE_A_VERTEX_INFO_PARENT) ?
	       nla_get_s32(v->tb[HCUBE_A_VERTEX_INFO_PARENT]) : -1;
}

/* A cpulist attribute, "" when absent. */
static char *cpus(const struct hc_attrs *v, int type)
{
	return v->tb[type] ? hc_attr_str(v->tb[type]) : strdup("");
}

static void print_tree(const struct show *d, long vi, int level)
{
	const struct hc_attrs *v = &d->v.v[vi];
	char lb[HC_LABEL_MAX], *usable = cpus(v, HCUBE_A_VERTEX_INFO_USABLE_CPUS);
	int b;

	print_fp("  %*s%s%s  load %u  cpus %s\n", 2 * level, "", hc_label(lb, d->dim, id_of(v)),
		 level ? "" : " (C_b)",
		 has(v, HCUBE_A_VERTEX_INFO_LOAD) ?
			nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_LOAD]) : 0,
		 *usable ? usable : "-");
	free(usable);
	if (level > d->dim)	/* a cycle in what the kernel sent */
		return;
	for (b = 0; b < d->dim; b++) {
		uint32_t id = id_of(v) ^ (1U << b);
		long ci = id < d->nindex ? d->index[id] : -1;

		if (ci >= 0 && has(&d->v.v[ci], HCUBE_A_VERTEX_INFO_PARENT) &&
		    parent_of(&d->v.v[ci]) == (int32_t)id_of(v) &&
		    !has(&d->v.v[ci], HCUBE_A_VERTEX_INFO_IN_CB))
			print_tree(d, ci, level + 1);
	}
}

/* "absent (no CPU group): 110..111, 0101": runs of consecutive ids. */
static void print_absent(const struct show *d)
{
	char a[HC_LABEL_MAX], b[HC_LABEL_MAX];
	const char *sep = " ";
	size_t i, k;

	open_json_array("absent");
	for (i = 0; i < d->v.n; i++)
		if (is_absent(&d->v.v[i]))
			print_uint(PRINT_JSON, NULL, NULL, id_of(&d->v.v[i]));
	close_json_array();
	for (i = 0; i < d->v.n; i = k + 1) {
		k = i;
		if (!is_absent(&d->v.v[i]))
			continue;
		if (!strcmp(sep, " "))
			print_fp("absent (no CPU group):");
		while (k + 1 < d->v.n && is_absent(&d->v.v[k + 1]) &&
		       id_of(&d->v.v[k + 1]) == id_of(&d->v.v[k]) + 1)
			k++;
		print_fp("%s%s", sep, hc_label(a, d->dim, id_of(&d->v.v[i])));
		if (k > i)
			print_fp("..%s", hc_label(b, d->dim, id_of(&d->v.v[k])));
		sep = ", ";
	}
	if (strcmp(sep, " "))
		print_fp("\n");
}

static void print_controllers(const struct show *d)
{
	struct nlattr *a = d->cube.tb[HCUBE_A_CONTROLLERS];
	struct nlattr *cd = d->cube.tb[HCUBE_A_CLUSTER_DIM];
	char lb[HC_LABEL_MAX];
	uint32_t i;

	print_attr_u32(PRINT_JSON, "cluster_dim", NULL, cd);
	if (!a) {
		print_null(PRINT_JSON, "controllers", NULL);
		return;
	}
	if (d->dim >= 0)
		print_fp("pebble clusters of %u dimensions, controllers:", cd ? nla_get_u32(cd) : 0);
	open_json_array("controllers");
	for (i = 0; i < (uint32_t)nla_len(a) / sizeof(uint16_t); i++) {
		uint16_t ctl;

		memcpy(&ctl, (char *)nla_data(a) + i * sizeof(ctl), sizeof(ctl));
		if (ctl == HCUBE_NO_CONTROLLER) {
			print_null(PRINT_JSON, NULL, NULL);
			if (d->dim >= 0)
				print_fp(" -");
		} else {
			print_uint(PRINT_JSON, NULL, NULL, ctl);
			if (d->dim >= 0)
				print_fp(" %s", hc_label(lb, d->dim, ctl));
		}
	}
	close_json_array();
	if (d->dim >= 0)
		print_fp("\n");
}

/* One vertex: a JSON object, and a row of the text table (not absent ones). */
static void print_vertex(const struct show *d, const struct hc_attrs *v, struct hc_table *t)
{
	char lb[HC_LABEL_MAX], id[16], load[16] = "-", parent[HC_LABEL_MAX] = "-";
	char dist[16] = "-", num[16];
	char *cpu = cpus(v, HCUBE_A_VERTEX_INFO_CPUS);
	char *usable = cpus(v, HCUBE_A_VERTEX_INFO_USABLE_CPUS);
	char *faulty = cpus(v, HCUBE_A_VERTEX_INFO_FAULTY_CPUS);
	char *offline = cpus(v, HCUBE_A_VERTEX_INFO_OFFLINE_CPUS);
	char *isolated = cpus(v, HCUBE_A_VERTEX_INFO_ISOLATED_CPUS);
	const char *state = "?";
	struct hc_str notes = { 0 };
	const char *sep = "";
	struct nlattr *a;
	int rem;

	open_json_object(NULL);
	print_uint(PRINT_JSON, "id", NULL, id_of(v));
	if (d->dim >= 0)
		print_label(d->dim, id_of(v));
	else
		print_null(PRINT_JSON, "label", NULL);
	if (has(v, HCUBE_A_VERTEX_INFO_STATE))
		state = HC_NAME(hc_vertex_state_names,
				nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]), num);
	print_string(PRINT_JSON, "state", NULL, has(v, HCUBE_A_VERTEX_INFO_STATE) ? state : NULL);
	print_string(PRINT_JSON, "cpus", NULL, cpu);
	print_string(PRINT_JSON, "usable_cpus", NULL, usable);
	print_string(PRINT_JSON, "faulty_cpus", NULL, faulty);
	print_string(PRINT_JSON, "offline_cpus", NULL, offline);
	/* null from a module that does not send it (before isolation) */
	print_attr_str(PRINT_JSON, "isolated_cpus", NULL, v->tb[HCUBE_A_VERTEX_INFO_ISOLATED_CPUS]);
	print_attr_u32(PRINT_JSON, "load", NULL, v->tb[HCUBE_A_VERTEX_INFO_LOAD]);
	print_bool(PRINT_JSON, "in_cb", NULL, has(v, HCUBE_A_VERTEX_INFO_IN_CB));
	print_int(PRINT_JSON, "parent", NULL, parent_of(v));
	print_attr_u32(PRINT_JSON, "dist", NULL, v->tb[HCUBE_A_VERTEX_INFO_DIST]);
	print_attr_u32(PRINT_JSON, "omega", NULL, v->tb[HCUBE_A_VERTEX_INFO_OMEGA]);
	print_bool(PRINT_JSON, "detached", NULL, has(v, HCUBE_A_VERTEX_INFO_DETACHED));
	print_bool(PRINT_JSON, "marked", NULL, has(v, HCUBE_A_VERTEX_INFO_MARKED));
	print_bool(PRINT_JSON, "controller", NULL, has(v, HCUBE_A_VERTEX_INFO_CONTROLLER));
	/* text: the lines after the table (print_cpus()) */
	if (is_json()) {
		open_json_array("cpu_info");
		nla_for_each_attr(a, (struct nlattr *)v->buf, v->len, rem) {
			if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO)
				continue;
			open_json_object(NULL);
			print_cpu_info(a);
			close_json_object();
		}
		close_json_array();
	}
	close_json_object();

	if (!is_json() && !is_absent(v)) {
		snprintf(id, sizeof(id), "%u", id_of(v));
		if (has(v, HCUBE_A_VERTEX_INFO_LOAD))
			snprintf(load, sizeof(load), "%u",
				 nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_LOAD]));
		if (parent_of(v) >= 0)
			hc_label(parent, d->dim, (uint32_t)parent_of(v));
		if (has(v, HCUBE_A_VERTEX_INFO_DIST))
			snprintf(dist, sizeof(dist), "%u",
				 nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_DIST]));
#define NOTE(cond, ...) do {					\
		if (cond) {					\
			hc_str_printf(&notes, "%s", sep);	\
			hc_str_printf(&notes, __VA_ARGS__);	\
			sep = "; ";				\
		}						\
	} while (0)
		NOTE(has(v, HCUBE_A_VERTEX_INFO_MARKED), "marked faulty");
		NOTE(has(v, HCUBE_A_VERTEX_INFO_DETACHED), "DETACHED");
		NOTE(*faulty, "faulty cpus %s", faulty);
		NOTE(*offline, "offline cpus %s", offline);
		NOTE(*isolated, "isolated cpus %s", isolated);
#undef NOTE
		hc_table_row(t, hc_label(lb, d->dim, id_of(v)), id, state, *cpu ? cpu : "-",
			     *usable ? usable : "-", load,
			     has(v, HCUBE_A_VERTEX_INFO_IN_CB) ? "yes" : "-",
			     parent, dist, has(v, HCUBE_A_VERTEX_INFO_CONTROLLER) ? "yes" : "-",
			     notes.s ? notes.s : "");
	}
	hc_str_free(&notes);
	free(cpu);
	free(usable);
	free(faulty);
	free(offline);
	free(isolated);
}

/*
 * The CPUs that are faulty, offline or had machine checks, one line each:
 * "cpu 2 (vertex 010): marked by mce: 3 corrected errors in 60 s, ...".
 * Text only: JSON has them in each vertex's "cpu_info".
 */
static void print_cpus(const struct show *d)
{
	char lb[HC_LABEL_MAX];
	bool first = true;
	struct nlattr *a;
	size_t i;
	int rem;

	if (is_json())
		return;
	for (i = 0; i < d->v.n; i++) {
		const struct hc_attrs *v = &d->v.v[i];

		nla_for_each_attr(a, (struct nlattr *)v->buf, v->len, rem) {
			struct nlattr *tb[HC_TB_SIZE];

			if (nla_type(a) != HCUBE_A_VERTEX_INFO_CPU_INFO ||
			    hc_parse_nested(tb, &hc_set_cpu_info, a) || !tb[HCUBE_A_CPU_INFO_CPU])
				continue;
			if (first)
				print_fp("\ncpus faulty, offline or with machine checks:\n");
			first = false;
			print_fp("  cpu %u (vertex %s): ", nla_get_u32(tb[HCUBE_A_CPU_INFO_CPU]),
				 hc_label(lb, d->dim, id_of(v)));
			print_cpu_info(a);
			print_fp("\n");
		}
	}
}

static void print_show(struct show *d)
{
	static const char *const header[] = {
		"VERTEX", "ID", "STATE", "CPUS", "USABLE", "LOAD", "C_B",
		"PARENT", "DIST", "CTRL", "NOTES",
	};
	struct nlattr **tb = d->cube.tb;
	char pa[HC_LABEL_MAX], pb[HC_LABEL_MAX], lb[HC_LABEL_MAX];
	bool trees = false, detached = false;
	struct hc_table t;
	static const int line_attrs[] = {
		HCUBE_A_MODE, HCUBE_A_DIM, HCUBE_A_NVERTICES, HCUBE_A_NATTACHED,
		HCUBE_A_NTASKS, HCUBE_A_CB_PATTERN, HCUBE_A_TREE_DEPTH, HCUBE_A_GENERATION,
	};
	size_t i;

	print_begin(false);
	open_json_object(NULL);
	/* the attributes of the summary line */
	for (i = 0; i < ARRAY_SIZE(line_attrs) && !tb[line_attrs[i]]; i++)
		;
	if (i == ARRAY_SIZE(line_attrs))
		print_fp("(no summary)");
	print_cube(tb);
	print_fp("\n");
	if (tb[HCUBE_A_CB_BASE] && tb[HCUBE_A_CB_MASK] && d->dim > 0)
		print_fp("balancing subcube: base %s, free dimensions %s\n",
			 hc_label(pa, d->dim, nla_get_u32(tb[HCUBE_A_CB_BASE])),
			 hc_label(pb, d->dim, nla_get_u32(tb[HCUBE_A_CB_MASK])));
	print_controllers(d);

	hc_table_init(&t, 11, "lrlllrllrll", header);
	open_json_array("vertices");
	for (i = 0; i < d->v.n; i++) {
		print_vertex(d, &d->v.v[i], &t);
		trees |= has(&d->v.v[i], HCUBE_A_VERTEX_INFO_IN_CB) && !is_absent(&d->v.v[i]);
		detached |= has(&d->v.v[i], HCUBE_A_VERTEX_INFO_DETACHED) && !is_absent(&d->v.v[i]);
	}
	close_json_array();
	if (!is_json()) {
		printf("\n");
		hc_table_print(&t, stdout, "");
	}
	hc_table_free(&t);

	/* hcube-sim plan's "parent" and "detached", for direct comparison. */
	open_json_array("parent");
	for (i = 0; i < d->nindex; i++)
		print_int(PRINT_JSON, NULL, NULL,
			  d->index[i] >= 0 ? parent_of(&d->v.v[d->index[i]]) : -1);
	close_json_array();
	open_json_array("detached");
	for (i = 0; i < d->v.n; i++)
		if (has(&d->v.v[i], HCUBE_A_VERTEX_INFO_DETACHED))
			print_uint(PRINT_JSON, NULL, NULL, id_of(&d->v.v[i]));
	close_json_array();
	print_absent(d);
	print_cpus(d);

	if (trees && d->dim >= 0 && d->dim <= SHOW_MAX_DIM) {
		print_fp("\ntrees (vertex  load  usable cpus):\n");
		for (i = 0; i < d->v.n; i++)
			if (has(&d->v.v[i], HCUBE_A_VERTEX_INFO_IN_CB))
				print_tree(d, (long)i, 0);
	}
	if (detached) {
		print_fp("\ndetached (healthy, no healthy path to C_b; their tasks stay):");
		for (i = 0; i < d->v.n; i++)
			if (has(&d->v.v[i], HCUBE_A_VERTEX_INFO_DETACHED))
				print_fp(" %s", hc_label(lb, d->dim, id_of(&d->v.v[i])));
		print_fp("\n");
	}
	close_json_object();
	print_end();
}

static int show(struct hc_ctx *c, int argc, char **argv)
{
	struct show d = { 0 };
	struct nlattr *nv;
	size_t i;
	int ret;

	(void)argc;
	(void)argv;
	if (hc_opt(c, HC_LONG(1)) && !hc_opt(c, HC_LONG(0)))
		hc_usage(c, "--plan draws on the picture: it needs --dot");
	if (hc_opt(c, HC_LONG(0)) && hc_opts.json)
		hc_usage(c, "--dot prints Graphviz, -j JSON: one or the other");
	ret = hc_fetch_cube(c, &d.cube, &d.v);
	if (ret)
		goto out;
	d.dim = hc_tb_dim(d.cube.tb);
	if (hc_opt(c, HC_LONG(0))) {
		ret = hc_show_dot(c, &d.cube, &d.v, d.dim, hc_opt(c, HC_LONG(1)) != NULL);
		goto out;
	}
	/* id -> index in d.v, over the cube's labels */
	nv = d.cube.tb[HCUBE_A_NVERTICES];
	if (nv && nla_get_u32(nv) <= 1U << SHOW_MAX_DIM)
		d.nindex = nla_get_u32(nv);
	else if (d.v.n && id_of(&d.v.v[d.v.n - 1]) < 1U << SHOW_MAX_DIM)
		d.nindex = id_of(&d.v.v[d.v.n - 1]) + 1;
	d.index = hc_malloc((d.nindex + 1) * sizeof(*d.index));
	for (i = 0; i < d.nindex; i++)
		d.index[i] = -1;
	for (i = 0; i < d.v.n; i++)
		if (id_of(&d.v.v[i]) < d.nindex)
			d.index[id_of(&d.v.v[i])] = (long)i;
	print_show(&d);
	free(d.index);
out:
	hc_attrs_free(&d.cube);
	hc_attrs_list_free(&d.v);
	return ret;
}

static const struct hc_opt show_opts[] = {
	{ "dot", HC_LONG(0), NULL,
	  "print the cube as a Graphviz graph instead (hcubectl show --dot | dot -Tsvg)" },
	{ "plan", HC_LONG(1), NULL,
	  "with --dot: draw the transfers of the last rebalance's plan, "
	  "labelled step: tasks (needs CAP_NET_ADMIN)" },
	{ 0 },
};

const struct hc_cmd hc_cmd_show = {
	.name = "show",
	.args = "[--dot [--plan]]",
	.opts = show_opts,
	.summary = "the cube, its vertices and the balancing trees",
	.help =
	"Shows the cube: its mode, dimension, healthy vertices, the balancing\n"
	"subcube C_b (a pattern like X0X1: X a free dimension) and the depth of\n"
	"its trees; then one row per vertex: label (binary, highest dimension\n"
	"first) and decimal id, state, CPUs, usable CPUs, load (registered\n"
	"tasks), C_b membership, tree parent and distance to C_b, whether it\n"
	"controls its pebble cluster (CTRL), notes (marked faulty, DETACHED,\n"
	"its faulty, offline and isolated CPUs); then one line per CPU that is\n"
	"faulty, offline or had machine checks: who made it unusable (admin:\n"
	"fault add; mce: a machine check; hotplug: offline) and its machine\n"
	"checks (corrected errors in the window, last bank and status,\n"
	"records); then the trees under each C_b vertex. Absent labels (no CPU group) are listed on one line; detached\n"
	"vertices (healthy, but with no healthy path to C_b) are called out.\n"
	"Pebble clusters are the subcubes of the low cluster_dim dimensions;\n"
	"each has a controller (the lowest healthy label at first; a new one\n"
	"when it fails, and a recovered one does not take the role back).\n"
	"\n"
	"-j prints one JSON object: the summary keys, \"cluster_dim\",\n"
	"\"controllers\" (per cluster, a vertex id or null), \"vertices\" (one\n"
	"object per vertex, with \"controller\" true or false and its CPUs:\n"
	"\"cpus\", \"usable_cpus\", \"faulty_cpus\", \"offline_cpus\",\n"
	"\"isolated_cpus\", and \"cpu_info\": one object per CPU of those lines,\n"
	"with \"cpu\", \"marked_by\" (admin, mce, hotplug or null), \"mce_records\",\n"
	"\"mce_count\", \"mce_window\", \"mce_bank\", \"mce_status\" (a hex string),\n"
	"\"mce_uc\"), and \"parent\", \"detached\", \"absent\" (lists\n"
	"indexed by or of vertex ids).\n"
	"\n"
	"--dot prints a Graphviz digraph instead: a box per vertex with its\n"
	"label, state, CPUs, faulty CPUs (those of machine checks as mce cpus),\n"
	"offline CPUs and load; faulty vertices red (marked ones say so),\n"
	"offline grey, isolated blue, detached yellow, absent dashed; the\n"
	"balancing subcube's vertices with a thick border; the cube's edges\n"
	"light grey, the trees' edges blue from parent to child; with --plan the\n"
	"last rebalance's transfers, all of them, as red arrows labelled\n"
	"\"step: tasks\" (hcubectl rebalance --dry-run --transfers lists the\n"
	"plan of a rebalance now).\n",
	.nlcmd = HCUBE_CMD_VERTEX_GET,
	.flags = HC_DUMP,
	.handler = show,
};
