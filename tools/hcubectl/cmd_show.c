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

static void show_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] show\n"
	      "\n"
	      "Shows the cube: its mode, dimension, healthy vertices, the balancing\n"
	      "subcube C_b (a pattern like X0X1: X a free dimension) and the depth of\n"
	      "its trees; then one row per vertex: label (binary, highest dimension\n"
	      "first) and decimal id, state, CPUs, usable CPUs, load (registered\n"
	      "tasks), C_b membership, tree parent and distance to C_b, whether it\n"
	      "controls its pebble cluster (CTRL); then the trees under each C_b\n"
	      "vertex. Absent labels (no CPU group) are listed on one line; detached\n"
	      "vertices (healthy, but with no healthy path to C_b) are called out.\n"
	      "Pebble clusters are the subcubes of the low cluster_dim dimensions;\n"
	      "each has a controller (the lowest healthy label at first; a new one\n"
	      "when it fails, and a recovered one does not take the role back).\n"
	      "\n"
	      "-j prints one JSON object: the summary keys, \"cluster_dim\",\n"
	      "\"controllers\" (per cluster, a vertex id or null), \"vertices\" (one\n"
	      "object per vertex, with \"controller\" true or false), and \"parent\",\n"
	      "\"detached\", \"absent\" (lists indexed by or of vertex ids).\n", f);
}

struct show_data {
	struct hc_cube cube;
	struct hc_vertex *v;
	size_t n, cap;
};

static int cube_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *tb[HCUBE_A_MAX + 1];

	(void)cmd;
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	hc_cube_parse(arg, tb);
	return 0;
}

static int vertex_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct show_data *d = arg;
	struct nlattr *a;
	int rem;

	(void)cmd;
	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) != HCUBE_A_VERTEX)
			continue;
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 64;
			d->v = hc_realloc(d->v, d->cap * sizeof(*d->v));
		}
		if (hc_vertex_parse(&d->v[d->n], a) < 0)
			return -1;
		d->n++;
	}
	return 0;
}

static void free_vertices(struct show_data *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		hc_vertex_free(&d->v[i]);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

static int cmp_vertex(const void *a, const void *b)
{
	const struct hc_vertex *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Summary, vertices, summary again: retry if the generation moved. */
static int fetch(struct hc_nl *nl, struct show_data *d)
{
	struct hc_cube again;
	int tries, ret;

	for (tries = 0; tries < 5; tries++) {
		memset(&d->cube, 0, sizeof(d->cube));
		memset(&again, 0, sizeof(again));
		ret = hc_simple_get(nl, HCUBE_CMD_CUBE_GET, false, "show: cube",
				    cube_reply, &d->cube);
		if (!ret)
			ret = hc_simple_get(nl, HCUBE_CMD_VERTEX_GET, true,
					    "show: vertices", vertex_reply, d);
		if (!ret)
			ret = hc_simple_get(nl, HCUBE_CMD_CUBE_GET, false,
					    "show: cube", cube_reply, &again);
		if (ret)
			return ret;
		if (!HC_HAS(&d->cube, HCUBE_A_GENERATION) ||
		    !HC_HAS(&again, HCUBE_A_GENERATION) ||
		    again.generation == d->cube.generation)
			break;
		free_vertices(d);
	}
	qsort(d->v, d->n, sizeof(*d->v), cmp_vertex);
	return 0;
}

/* Index of vertex @id in d->v, or -1. */
static long find_vertex(const long *index, uint32_t nindex, uint32_t id)
{
	return id < nindex ? index[id] : -1;
}

static const char *vstate(const struct hc_vertex *v, char *num, size_t size)
{
	if (!HC_HAS(v, HCUBE_V_A_STATE))
		return "?";
	return hc_name_or_num(hc_vstate_name(v->state), v->state, num, size);
}

static bool is_absent(const struct hc_vertex *v)
{
	return HC_HAS(v, HCUBE_V_A_STATE) && v->state == HCUBE_VERTEX_ABSENT;
}

static void print_tree(const struct show_data *d, const long *index,
		       uint32_t nindex, int dim, long vi, int level)
{
	const struct hc_vertex *v = &d->v[vi];
	char lb[HC_LABEL_MAX];
	int b;

	printf("  %*s%s%s  load %u  cpus %s\n", 2 * level, "",
	       hc_label(lb, dim, v->id), level ? "" : " (C_b)", v->load,
	       v->usable && v->usable[0] ? v->usable : "-");
	if (level > dim)	/* a cycle in what the kernel sent */
		return;
	for (b = 0; b < dim; b++) {
		long ci = find_vertex(index, nindex, v->id ^ (1U << b));

		if (ci >= 0 && HC_HAS(&d->v[ci], HCUBE_V_A_PARENT) &&
		    d->v[ci].parent == (int32_t)v->id && !d->v[ci].in_cb)
			print_tree(d, index, nindex, dim, ci, level + 1);
	}
}

/* "110..111, 0101" style runs of consecutive absent ids. */
static void print_absent(const struct show_data *d, int dim)
{
	char a[HC_LABEL_MAX], b[HC_LABEL_MAX];
	const char *sep = "";
	size_t i = 0, k;
	bool any = false;

	while (i < d->n) {
		if (!is_absent(&d->v[i])) {
			i++;
			continue;
		}
		if (!any)
			printf("absent (no CPU group):");
		any = true;
		for (k = i; k + 1 < d->n && is_absent(&d->v[k + 1]) &&
		     d->v[k + 1].id == d->v[k].id + 1; k++)
			;
		if (k == i)
			printf("%s %s", sep, hc_label(a, dim, d->v[i].id));
		else
			printf("%s %s..%s", sep, hc_label(a, dim, d->v[i].id),
			       hc_label(b, dim, d->v[k].id));
		sep = ",";
		i = k + 1;
	}
	if (any)
		printf("\n");
}

static void print_text(const struct show_data *d, const long *index, uint32_t nindex)
{
	static const char *const header[] = {
		"VERTEX", "ID", "STATE", "CPUS", "USABLE", "LOAD", "C_B",
		"PARENT", "DIST", "CTRL", "NOTES",
	};
	int dim = hc_cube_dim(&d->cube);
	char lb[HC_LABEL_MAX], id[16], load[16], parent[HC_LABEL_MAX];
	char dist[16], num[16], pa[HC_LABEL_MAX], pb[HC_LABEL_MAX];
	struct hc_str line = { 0 };
	struct hc_table t;
	bool trees = false, detached = false;
	size_t i;

	hc_cube_line(&line, &d->cube);
	printf("%s\n", line.s ? line.s : "(no summary)");
	hc_str_free(&line);
	if (HC_HAS(&d->cube, HCUBE_A_CB_BASE) && HC_HAS(&d->cube, HCUBE_A_CB_MASK) &&
	    dim > 0)
		printf("balancing subcube: base %s, free dimensions %s\n",
		       hc_label(pa, dim, d->cube.cb_base),
		       hc_label(pb, dim, d->cube.cb_mask));
	if (HC_HAS(&d->cube, HCUBE_A_CONTROLLERS) && dim >= 0) {
		uint32_t c;

		printf("pebble clusters of %u dimensions, controllers:",
		       d->cube.cluster_dim);
		for (c = 0; c < d->cube.nctrl; c++) {
			if (d->cube.ctrl[c] == HCUBE_NO_CONTROLLER)
				printf(" -");
			else
				printf(" %s", hc_label(pa, dim, d->cube.ctrl[c]));
		}
		printf("\n");
	}

	hc_table_init(&t, 11, "lrlllrllrll", header);
	for (i = 0; i < d->n; i++) {
		const struct hc_vertex *v = &d->v[i];
		struct hc_str notes = { 0 };
		const char *sep = "";

		if (is_absent(v))
			continue;
		snprintf(id, sizeof(id), "%u", v->id);
		if (HC_HAS(v, HCUBE_V_A_LOAD))
			snprintf(load, sizeof(load), "%u", v->load);
		else
			strcpy(load, "-");
		if (HC_HAS(v, HCUBE_V_A_PARENT) && v->parent >= 0)
			hc_label(parent, dim, (uint32_t)v->parent);
		else
			strcpy(parent, "-");
		if (HC_HAS(v, HCUBE_V_A_DIST))
			snprintf(dist, sizeof(dist), "%u", v->dist);
		else
			strcpy(dist, "-");
		if (v->marked) {
			hc_str_printf(&notes, "%smarked faulty", sep);
			sep = "; ";
		}
		if (v->detached) {
			hc_str_printf(&notes, "%sDETACHED", sep);
			sep = "; ";
		}
		if (v->faulty && v->faulty[0]) {
			hc_str_printf(&notes, "%sfaulty cpus %s", sep, v->faulty);
			sep = "; ";
		}
		if (v->offline && v->offline[0])
			hc_str_printf(&notes, "%soffline cpus %s", sep, v->offline);
		hc_table_row(&t, hc_label(lb, dim, v->id), id,
			     vstate(v, num, sizeof(num)),
			     v->cpus && v->cpus[0] ? v->cpus : "-",
			     v->usable && v->usable[0] ? v->usable : "-", load,
			     v->in_cb ? "yes" : "-", parent, dist,
			     v->controller ? "yes" : "-", notes.s ? notes.s : "");
		hc_str_free(&notes);
		trees |= v->in_cb;
		detached |= v->detached;
	}
	printf("\n");
	hc_table_print(&t, stdout, "");
	hc_table_free(&t);
	print_absent(d, dim);

	if (trees && dim >= 0 && dim <= SHOW_MAX_DIM) {
		printf("\ntrees (vertex  load  usable cpus):\n");
		for (i = 0; i < d->n; i++)
			if (d->v[i].in_cb)
				print_tree(d, index, nindex, dim, (long)i, 0);
	}
	if (detached) {
		printf("\ndetached (healthy, no healthy path to C_b; their tasks stay):");
		for (i = 0; i < d->n; i++)
			if (d->v[i].detached)
				printf(" %s", hc_label(lb, dim, d->v[i].id));
		printf("\n");
	}
}

static void json_str_or_empty(struct json *j, const char *key, const char *s)
{
	json_str(j, key, s ? s : "");
}

static void print_json(const struct show_data *d, uint32_t nindex, const long *index)
{
	int dim = hc_cube_dim(&d->cube);
	char num[16];
	struct json j;
	uint32_t id;
	size_t i;

	hc_json_begin(&j);
	json_obj_open(&j, NULL);
	hc_cube_json(&j, &d->cube);
	hc_json_u32(&j, "cluster_dim", HC_HAS(&d->cube, HCUBE_A_CLUSTER_DIM),
		    d->cube.cluster_dim);
	if (HC_HAS(&d->cube, HCUBE_A_CONTROLLERS)) {
		json_arr_open(&j, "controllers");
		for (id = 0; id < d->cube.nctrl; id++) {
			if (d->cube.ctrl[id] == HCUBE_NO_CONTROLLER)
				json_null(&j, NULL);
			else
				json_uint(&j, NULL, d->cube.ctrl[id]);
		}
		json_arr_close(&j);
	} else {
		json_null(&j, "controllers");
	}
	json_arr_open(&j, "vertices");
	for (i = 0; i < d->n; i++) {
		const struct hc_vertex *v = &d->v[i];

		json_obj_open(&j, NULL);
		json_uint(&j, "id", v->id);
		if (dim >= 0)
			hc_json_label(&j, dim, v->id);
		else
			json_null(&j, "label");
		if (HC_HAS(v, HCUBE_V_A_STATE))
			json_str(&j, "state", vstate(v, num, sizeof(num)));
		else
			json_null(&j, "state");
		json_str_or_empty(&j, "cpus", v->cpus);
		json_str_or_empty(&j, "usable_cpus", v->usable);
		json_str_or_empty(&j, "faulty_cpus", v->faulty);
		json_str_or_empty(&j, "offline_cpus", v->offline);
		if (HC_HAS(v, HCUBE_V_A_LOAD))
			json_uint(&j, "load", v->load);
		else
			json_null(&j, "load");
		json_bool(&j, "in_cb", v->in_cb);
		json_int(&j, "parent", HC_HAS(v, HCUBE_V_A_PARENT) ? v->parent : -1);
		if (HC_HAS(v, HCUBE_V_A_DIST))
			json_uint(&j, "dist", v->dist);
		else
			json_null(&j, "dist");
		if (HC_HAS(v, HCUBE_V_A_OMEGA))
			json_uint(&j, "omega", v->omega);
		else
			json_null(&j, "omega");
		json_bool(&j, "detached", v->detached);
		json_bool(&j, "marked", v->marked);
		json_bool(&j, "controller", v->controller);
		json_obj_close(&j);
	}
	json_arr_close(&j);

	/* hcube-sim plan's "parent" and "detached", for direct comparison. */
	json_arr_open(&j, "parent");
	for (id = 0; id < nindex; id++) {
		long vi = index[id];

		json_int(&j, NULL, vi >= 0 && HC_HAS(&d->v[vi], HCUBE_V_A_PARENT) ?
			 d->v[vi].parent : -1);
	}
	json_arr_close(&j);
	json_arr_open(&j, "detached");
	for (i = 0; i < d->n; i++)
		if (d->v[i].detached)
			json_uint(&j, NULL, d->v[i].id);
	json_arr_close(&j);
	json_arr_open(&j, "absent");
	for (i = 0; i < d->n; i++)
		if (is_absent(&d->v[i]))
			json_uint(&j, NULL, d->v[i].id);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct show_data d = { 0 };
	uint32_t nindex = 0;
	bool first = true;
	struct hc_nl nl;
	long *index;
	size_t i;
	int ret;

	while (hc_getopt(argc, argv, "show", "", opts, show_usage, &first) != -1)
		;
	if (optind < argc)
		hc_usage_error("show", "unexpected argument '%s'", argv[optind]);

	hc_nl_open(&nl);
	ret = fetch(&nl, &d);
	hc_nl_close(&nl);
	if (ret) {
		free_vertices(&d);
		return ret;
	}

	/* id -> index in d.v, over the cube's labels */
	if (HC_HAS(&d.cube, HCUBE_A_NVERTICES) && d.cube.nvertices <= 1U << SHOW_MAX_DIM)
		nindex = d.cube.nvertices;
	else if (d.n && d.v[d.n - 1].id < 1U << SHOW_MAX_DIM)
		nindex = d.v[d.n - 1].id + 1;
	index = hc_malloc((nindex + 1) * sizeof(*index));
	for (i = 0; i < nindex; i++)
		index[i] = -1;
	for (i = 0; i < d.n; i++)
		if (d.v[i].id < nindex)
			index[d.v[i].id] = (long)i;

	if (hc_opts.json)
		print_json(&d, nindex, index);
	else
		print_text(&d, index, nindex);
	free(index);
	free_vertices(&d);
	return 0;
}
