// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim plan: the plan of one policy for given loads and faulty
 * vertices, as a readable report or as one JSON object.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "json.h"

static void plan_usage(FILE *f)
{
	fputs("usage: hcube-sim plan --dim N --loads L0,L1,...,L(2^N-1)\n"
	      "                      [--faulty V,V,...] [--policy P] [--budget W] [--json]\n"
	      "\n"
	      "Computes the transfers (step, from, to, count) with which a policy\n"
	      "balances the loads of an N-cube (N = 0..10). Vertex ids are integers,\n"
	      "bit i = dimension i. Faulty vertices must have load 0. Policies: mcwa\n"
	      "(default), dem, cwa (fault-free cubes only), optimal, auto, rid, sid,\n"
	      "sbn, sbn-cube, sbn-heur, pebble. --budget: auto's work bound for its\n"
	      "optimal candidate (default 4000000, 0 = none).\n"
	      "\n"
	      "Exit status: 0 on success, 2 on bad input (one line on stderr).\n", f);
}

struct plan_input {
	u32 dim;
	int policy;
	bool json;
	unsigned long long budget;
	u32 nfaulty;
	u32 faulty[HCUBE_MAX_VERTICES];
	u8 state[HCUBE_MAX_VERTICES];
	u32 load[HCUBE_MAX_VERTICES];
};

static void parse(struct plan_input *in, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dim", required_argument, NULL, 'd' },
		{ "loads", required_argument, NULL, 'l' },
		{ "faulty", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "budget", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *loads = NULL, *faulty = "";
	bool have_dim = false;
	size_t n, i;
	int c;

	in->policy = HCUBE_POLICY_MCWA;
	in->budget = HCUBE_AUTO_BUDGET;
	while ((c = sim_getopt(argc, argv, opts, "plan", plan_usage)) != -1) {
		switch (c) {
		case 'd':
			in->dim = (u32)sim_parse_uint("--dim", optarg, HCUBE_MAX_DIM);
			have_dim = true;
			break;
		case 'l':
			loads = optarg;
			break;
		case 'f':
			faulty = optarg;
			break;
		case 'p':
			in->policy = hcube_policy_parse(optarg);
			if (in->policy < 0)
				sim_die("--policy: unknown policy '%s' (%s)", optarg,
					sim_core_policies());
			break;
		case 'b':
			in->budget = sim_parse_uint("--budget", optarg, ~0ULL);
			break;
		case 'j':
			in->json = true;
			break;
		}
	}
	if (!have_dim)
		sim_die("plan: --dim is required");
	if (!loads)
		sim_die("plan: --loads is required");

	n = sim_parse_list("--loads", loads, 0xffffffffULL, in->load,
			   HCUBE_MAX_VERTICES);
	if (n != (1U << in->dim))
		sim_die("--loads: %zu values given, a %u-cube needs %u", n, in->dim,
			1U << in->dim);
	n = sim_parse_list("--faulty", faulty, (1U << in->dim) - 1, in->faulty,
			   HCUBE_MAX_VERTICES);
	if (n > (1U << in->dim))
		sim_die("--faulty: %zu ids given, a %u-cube has %u vertices", n,
			in->dim, 1U << in->dim);
	for (i = 0; i < n; i++) {
		u32 v = in->faulty[i];

		if (in->load[v])
			sim_die("--faulty: vertex %u has load %u; a faulty vertex must have load 0",
				v, in->load[v]);
		if (in->state[v] == HCUBE_V_FAULTY)
			continue;	/* listed twice */
		in->state[v] = HCUBE_V_FAULTY;
		in->faulty[in->nfaulty++] = v;
	}
}

/* Print the subtree under @v, depth-first, children in dimension order. */
static void print_tree(const struct hcube_topo *t, const struct plan_input *in,
		       const u32 *after, u32 v, int level)
{
	char lb[HCUBE_MAX_DIM + 2];
	u32 d;

	printf("    %*s%s%s  load %u -> %u\n", 2 * level, "",
	       sim_label(lb, t->dim, v), level ? "" : " (C_b)", in->load[v],
	       after[v]);
	for (d = 0; d < t->dim; d++) {
		u32 x = v ^ (1U << d);

		if (t->parent[x] == (s32)v)
			print_tree(t, in, after, x, level + 1);
	}
}

static void print_loads(u32 dim, const u8 *state, const u32 *before,
			const u32 *after)
{
	char lb[HCUBE_MAX_DIM + 2];
	u32 v;

	printf("loads (vertex: before -> after):\n");
	for (v = 0; v < (1U << dim); v++) {
		if (state[v] == HCUBE_V_HEALTHY)
			printf("  %s: %u -> %u\n", sim_label(lb, dim, v),
			       before[v], after[v]);
		else
			printf("  %s: faulty\n", sim_label(lb, dim, v));
	}
}

/* The plan is MCWA's or CWA's (auto's choice included): it has trees. */
static bool uses_trees(const struct hcube_plan *p)
{
	return p->applied == HCUBE_POLICY_MCWA || p->applied == HCUBE_POLICY_CWA;
}

static void print_text(const struct plan_input *in, const struct hcube_topo *t,
		       const struct hcube_plan *p)
{
	const struct hcube_stats *s = &p->stats;
	char pat[HCUBE_MAX_DIM + 2], a[HCUBE_MAX_DIM + 2], b[HCUBE_MAX_DIM + 2];
	u32 i, v, step = 0;

	printf("policy %s, %u-cube, %u healthy of %u vertices, faulty:",
	       hcube_policy_name(p->policy), in->dim, s->nvertices, 1U << in->dim);
	if (!in->nfaulty)
		printf(" none");
	for (i = 0; i < in->nfaulty; i++)
		printf(" %s", sim_label(a, in->dim, in->faulty[i]));
	printf("\n");
	if (p->policy == HCUBE_POLICY_AUTO)
		printf("auto applied %s (work %llu of budget %llu)\n",
		       hcube_policy_name(p->applied),
		       (unsigned long long)p->work_done,
		       (unsigned long long)p->budget);
	else if (p->policy == HCUBE_POLICY_OPTIMAL)
		printf("optimal: work %llu units\n", (unsigned long long)p->work_done);
	if (p->root != HCUBE_VERTEX_NONE)
		printf("root %s\n", sim_label(a, in->dim, p->root));

	if (uses_trees(p)) {
		printf("balancing subcube %s (%u-cube), tree depth %u, total distance %u, %u candidate%s\n",
		       in->dim ? hcube_pattern(pat, in->dim, t->cb_base, t->cb_mask) : "-",
		       t->cb_dim, t->depth, t->total_dist, t->ncandidates,
		       t->ncandidates == 1 ? "" : "s");
		printf("trees (vertex  load before -> after):\n");
		for (v = 0; v < (1U << t->cb_dim); v++)
			print_tree(t, in, p->after, t->cb_vertex[v], 0);
		for (v = 0; v < (1U << in->dim); v++)
			if (in->state[v] == HCUBE_V_HEALTHY &&
			    t->dist[v] == HCUBE_DIST_NONE)
				printf("    %s detached: no healthy path to C_b, load %u kept\n",
				       sim_label(a, in->dim, v), in->load[v]);
	}

	printf("transfers:\n");
	if (!p->ntransfers)
		printf("  none\n");
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		if (x->step != step) {
			step = x->step;
			printf("%s  step %u:", i ? "\n" : "", step);
		}
		printf(" %s->%s %u", sim_label(a, in->dim, x->from),
		       sim_label(b, in->dim, x->to), x->count);
	}
	if (p->ntransfers)
		printf("\n");
	print_loads(in->dim, in->state, in->load, p->after);
	printf("transfers %u, migrations (task-hops) %llu, moved tasks %u, communication steps %u\n",
	       s->transfers, (unsigned long long)s->migrations, s->moved_tasks,
	       s->comm_steps);
	printf("messages %u, job messages %u, contended %u, imbalance %u\n",
	       s->messages, s->job_messages, s->contended, s->imbalance);
	printf("before: max %u min %u max/avg %.3f; after: max %u min %u max/avg %.3f\n",
	       s->before_max, s->before_min, s->before_ratio_milli / 1000.0,
	       s->after_max, s->after_min, s->after_ratio_milli / 1000.0);
	if (p->stopped_short)
		printf("stopped short: the policy's whole operation would end with a higher maximum\n");
}

static void json_u32_list(struct json *j, const char *key, const u32 *v, u32 n)
{
	u32 i;

	json_arr_open(j, key);
	for (i = 0; i < n; i++)
		json_uint(j, NULL, v[i]);
	json_arr_close(j);
}

static void print_json(const struct plan_input *in, const struct hcube_topo *t,
		       const struct hcube_plan *p)
{
	const struct hcube_stats *s = &p->stats;
	bool trees = uses_trees(p);
	char pat[HCUBE_MAX_DIM + 2];
	u32 n = 1U << in->dim, v, i;
	struct json j;

	json_init(&j, stdout, false);
	json_obj_open(&j, NULL);
	json_str(&j, "policy", hcube_policy_name(p->policy));
	json_str(&j, "applied", hcube_policy_name(p->applied));
	json_uint(&j, "dim", in->dim);
	if (p->root != HCUBE_VERTEX_NONE)
		json_uint(&j, "root", p->root);
	else
		json_null(&j, "root");
	json_uint(&j, "budget", p->budget);
	json_uint(&j, "work_done", p->work_done);
	json_u32_list(&j, "faulty", in->faulty, in->nfaulty);
	if (trees) {
		json_str(&j, "balancing_subcube",
			 hcube_pattern(pat, in->dim, t->cb_base, t->cb_mask));
		json_uint(&j, "tree_depth", t->depth);
		json_uint(&j, "total_distance", t->total_dist);
		json_uint(&j, "candidates", t->ncandidates);
	} else {
		json_null(&j, "balancing_subcube");
		json_null(&j, "tree_depth");
	}
	json_arr_open(&j, "parent");
	for (v = 0; v < n; v++)
		json_int(&j, NULL, trees ? t->parent[v] : -1);
	json_arr_close(&j);
	json_arr_open(&j, "detached");
	for (v = 0; trees && v < n; v++)
		if (in->state[v] == HCUBE_V_HEALTHY && t->dist[v] == HCUBE_DIST_NONE)
			json_uint(&j, NULL, v);
	json_arr_close(&j);
	json_u32_list(&j, "loads_before", in->load, n);
	json_u32_list(&j, "loads_after", p->after, n);
	json_arr_open(&j, "transfers");
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		json_obj_open(&j, NULL);
		json_uint(&j, "step", x->step);
		json_uint(&j, "from", x->from);
		json_uint(&j, "to", x->to);
		json_uint(&j, "count", x->count);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_uint(&j, "steps", p->nsteps);
	json_bool(&j, "stopped_short", p->stopped_short);
	json_uint(&j, "migrations", s->migrations);
	json_uint(&j, "moved_tasks", s->moved_tasks);
	json_uint(&j, "comm_steps", s->comm_steps);
	json_uint(&j, "messages", s->messages);
	json_uint(&j, "job_messages", s->job_messages);
	json_uint(&j, "contended", s->contended);
	json_uint(&j, "imbalance", s->imbalance);
	json_uint(&j, "healthy", s->nvertices);
	json_uint(&j, "total", s->total);
	json_uint(&j, "before_max", s->before_max);
	json_uint(&j, "before_min", s->before_min);
	json_double(&j, "before_max_avg", s->before_ratio_milli / 1000.0);
	json_uint(&j, "after_max", s->after_max);
	json_uint(&j, "after_min", s->after_min);
	json_double(&j, "after_max_avg", s->after_ratio_milli / 1000.0);
	json_obj_close(&j);
	json_end(&j);
}

int cmd_plan(int argc, char **argv)
{
	static struct plan_input in;
	struct hcube_cube cube;
	struct sim_core c;
	int err;

	parse(&in, argc, argv);
	sim_core_init(&c, in.dim);
	cube.dim = in.dim;
	cube.state = in.state;
	cube.load = in.load;
	c.plan.budget = in.budget;
	err = hcube_topo_build(&c.topo, in.dim, in.state, c.work);
	/* only MCWA and CWA need the topology (auto skips MCWA without it) */
	if (!err || (in.policy != HCUBE_POLICY_MCWA && in.policy != HCUBE_POLICY_CWA))
		err = hcube_plan_build(&c.plan, in.policy, &cube, err ? NULL : &c.topo,
				       c.work);
	if (err)
		sim_die("plan: %s", hcube_strerror(err));
	if (in.json)
		print_json(&in, &c.topo, &c.plan);
	else
		print_text(&in, &c.topo, &c.plan);
	sim_core_free(&c);
	return 0;
}
