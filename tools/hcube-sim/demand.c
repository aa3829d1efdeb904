// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim demand: the core's policies by count and by demand (issue
 * 35). Tasks have a demand: sleepers 0, spinners a whole CPU
 * (HCUBE_DEMAND_Q units), and optionally a middle class of half a CPU.
 * They start on random healthy vertices of a cube with random faulty
 * ones. By count a policy plans on the numbers of tasks and its routes
 * move tasks chosen without looking at their demand (uniformly at
 * random); by demand it plans on the sums of demand units, the routes are
 * filled heaviest first (hcube_demand_carry()) and the settle follows
 * (hcube_demand_settle()). Reported per mix and policy: the most spinners
 * on one healthy CPU over ceil(spinners / healthy CPUs) (1.00: as even as
 * spinners can be), the largest demand over the average, and the tasks
 * moved.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

#define DQ	HCUBE_DEMAND_Q
#define DH	HCUBE_DEMAND_HIST
#define DEM_LIST_MAX	32
#define DEM_MAX_TASKS	100000U
#define DEM_SETTLE_ROUNDS	10000U
#define DEM_MOVES_MAX	(1U << 20)

enum { LOAD_COUNT = 1, LOAD_DEMAND = 2 };

struct dem_opts {
	u32 dim, runs, loads, middle;
	u64 seed;
	u32 ns, nt, nf, np;
	u32 spinners[DEM_LIST_MAX], sleepers[DEM_LIST_MAX], faulty[DEM_LIST_MAX];
	u32 pols[__HCUBE_POLICY_MAX];
};

/* One mode's results over the runs of a grid point. */
struct dem_acc {
	double ratio_sum, ratio_max, davg_sum, davg_max, moved_sum;
	u32 runs, at_one;
};

struct dem_ctx {
	struct sim_core core;
	u32 n;
	u8 state[HCUBE_MAX_VERTICES];
	u32 load[HCUBE_MAX_VERTICES];
	u32 *hist, *start;
	struct hcube_route *routes;
	struct hcube_demand_move *moves;
	u32 cap;
	void *settle_work;
	u64 rng;
};

static u32 dem_rnd(struct dem_ctx *c, u32 below)
{
	c->rng ^= c->rng >> 12;
	c->rng ^= c->rng << 25;
	c->rng ^= c->rng >> 27;
	return (u32)((((c->rng * 0x2545F4914F6CDD1DULL) >> 32) * below) >> 32);
}

static void dem_usage(FILE *f)
{
	fputs("usage: hcube-sim demand [--dim N] [--spinners S,...] [--sleepers T,...]\n"
	      "                        [--middle M] [--faulty F,...] [--policy P,...]\n"
	      "                        [--load count|demand|both] [--runs R] [--seed X]\n"
	      "\n"
	      "Compares the core's policies balancing by count (tasks) and by demand\n"
	      "(PELT runnable_avg in 1/32 of a CPU). Each run places S spinners (a\n"
	      "whole CPU each), T sleepers (none) and M middle tasks (half a CPU) on\n"
	      "random healthy vertices of an N-cube (default 3) with F random faulty\n"
	      "vertices, and balances once. By count the routes move tasks chosen\n"
	      "without their demand; by demand they are filled heaviest first and\n"
	      "the settle follows. One markdown row per mix, fault count and policy:\n"
	      "spinners = most spinners on one healthy CPU / ceil(S / healthy CPUs),\n"
	      "mean and worst over the runs, and the share of runs at 1.00;\n"
	      "max/avg = largest demand over the average demand; moved = tasks moved.\n"
	      "Defaults: --spinners 4,8,12 --sleepers 0,16,64 --middle 0 --faulty\n"
	      "0,1,2,3 --policy every policy (cwa only without faults) --load both\n"
	      "--runs 200 --seed 35.\n"
	      "\n"
	      "Exit status: 0 on success, 2 on bad input (one line on stderr).\n", f);
}

static u32 parse_list(const char *what, const char *s, u32 max, u32 *out)
{
	return (u32)sim_parse_list(what, s, max, out, DEM_LIST_MAX);
}

static void dem_parse(struct dem_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dim", required_argument, NULL, 'd' },
		{ "spinners", required_argument, NULL, 's' },
		{ "sleepers", required_argument, NULL, 't' },
		{ "middle", required_argument, NULL, 'm' },
		{ "faulty", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' },
		{ "load", required_argument, NULL, 'l' },
		{ "runs", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spin = "4,8,12", *sleep = "0,16,64", *faulty = "0,1,2,3";
	const char *pols = NULL;
	u32 i;
	int c;

	memset(o, 0, sizeof(*o));
	o->dim = 3;
	o->runs = 200;
	o->seed = 35;
	o->loads = LOAD_COUNT | LOAD_DEMAND;
	while ((c = sim_getopt(argc, argv, opts, "demand", dem_usage)) != -1) {
		switch (c) {
		case 'd':
			o->dim = (u32)sim_parse_uint("--dim", optarg, 6);
			break;
		case 's':
			spin = optarg;
			break;
		case 't':
			sleep = optarg;
			break;
		case 'm':
			o->middle = (u32)sim_parse_uint("--middle", optarg, DEM_MAX_TASKS);
			break;
		case 'f':
			faulty = optarg;
			break;
		case 'p':
			pols = optarg;
			break;
		case 'l':
			if (!strcmp(optarg, "count"))
				o->loads = LOAD_COUNT;
			else if (!strcmp(optarg, "demand"))
				o->loads = LOAD_DEMAND;
			else if (!strcmp(optarg, "both"))
				o->loads = LOAD_COUNT | LOAD_DEMAND;
			else
				sim_die("--load: '%s' is none of count, demand, both", optarg);
			break;
		case 'r':
			o->runs = (u32)sim_parse_uint("--runs", optarg, 1000000);
			if (!o->runs)
				sim_die("--runs: must be at least 1");
			break;
		case 'S':
			o->seed = sim_parse_uint("--seed", optarg, ~0ULL);
			break;
		}
	}
	o->ns = parse_list("--spinners", spin, DEM_MAX_TASKS, o->spinners);
	o->nt = parse_list("--sleepers", sleep, DEM_MAX_TASKS, o->sleepers);
	o->nf = parse_list("--faulty", faulty, (1U << o->dim) - 1, o->faulty);
	if (!pols) {
		for (i = 0; i < __HCUBE_POLICY_MAX; i++)
			o->pols[o->np++] = i;
		return;
	}
	while (*pols) {
		char name[32];
		size_t len = strcspn(pols, ",");
		int p;

		if (len >= sizeof(name) || o->np == __HCUBE_POLICY_MAX)
			sim_die("--policy: bad list '%s'", pols);
		memcpy(name, pols, len);
		name[len] = 0;
		p = hcube_policy_parse(name);
		if (p < 0)
			sim_die("--policy: unknown policy '%s' (%s)", name,
				sim_core_policies());
		o->pols[o->np++] = (u32)p;
		pols += len + !!pols[len];
	}
}

/* Random faulty vertices, then the tasks on random healthy ones. */
static void dem_place(struct dem_ctx *c, u32 nf, u32 s, u32 t, u32 m)
{
	u32 v, i, nh = c->n - nf, healthy[HCUBE_MAX_VERTICES];

	memset(c->state, HCUBE_V_HEALTHY, c->n);
	for (i = 0; i < nf; i++) {
		do
			v = dem_rnd(c, c->n);
		while (c->state[v] != HCUBE_V_HEALTHY);
		c->state[v] = HCUBE_V_FAULTY;
	}
	for (v = 0, i = 0; v < c->n; v++)
		if (c->state[v] == HCUBE_V_HEALTHY)
			healthy[i++] = v;
	memset(c->start, 0, (size_t)c->n * DH * sizeof(u32));
	for (i = 0; i < s + t + m; i++) {
		u32 d = i < s ? DQ : i < s + t ? 0 : DQ / 2;

		c->start[healthy[dem_rnd(c, nh)] * DH + d]++;
	}
}

/* By count: @count tasks of @from, chosen blind to their demand, go to @to. */
static void move_blind(struct dem_ctx *c, u32 from, u32 to, u32 count)
{
	u32 *hf = c->hist + from * DH, *ht = c->hist + to * DH;
	u32 i, d, all = 0, pick;

	for (d = 0; d < DH; d++)
		all += hf[d];
	for (i = 0; i < count && all; i++, all--) {
		pick = dem_rnd(c, all);
		for (d = 0; pick >= hf[d]; d++)
			pick -= hf[d];
		hf[d]--;
		ht[d]++;
	}
}

/* Balance once; returns the tasks moved, or -1 when the policy does not plan. */
static long dem_balance(struct dem_ctx *c, u32 pol, int mode)
{
	u32 v, nr, nm, rounds, i;
	long moved = 0;
	int err;

	memcpy(c->hist, c->start, (size_t)c->n * DH * sizeof(u32));
	for (v = 0; v < c->n; v++) {
		const u32 *h = c->hist + v * DH;
		u32 d;

		c->load[v] = 0;
		if (mode == LOAD_DEMAND)
			c->load[v] = hcube_demand_load(h);
		else
			for (d = 0; d < DH; d++)
				c->load[v] += h[d];
	}
	err = hcube_topo_build(&c->core.topo, c->core.dim, c->state, c->core.work);
	if (err)
		sim_die("topology: %s", hcube_strerror(err));
	err = hcube_plan_build(&c->core.plan, pol,
			       &(struct hcube_cube){ c->core.dim, c->state, c->load },
			       &c->core.topo, c->core.work);
	if (err == HCUBE_E_NEED_MCWA)
		return -1;
	if (err)
		sim_die("%s: %s", hcube_policy_name(pol), hcube_strerror(err));
	err = hcube_plan_routes(&c->core.plan, c->load, c->routes,
				hcube_routes_max(c->core.dim), &nr, c->core.work);
	if (err)
		sim_die("routes: %s", hcube_strerror(err));
	if (mode == LOAD_COUNT) {
		for (i = 0; i < nr; i++) {
			move_blind(c, c->routes[i].from, c->routes[i].to,
				   c->routes[i].count);
			moved += c->routes[i].count;
		}
		return moved;
	}
	err = hcube_demand_carry(c->routes, nr, c->hist, c->moves, c->cap, &nm);
	if (err)
		sim_die("carry: %s", hcube_strerror(err));
	for (i = 0; i < nm; i++)
		moved += c->moves[i].count;
	err = hcube_demand_settle(c->core.dim, c->state, c->hist, DEM_SETTLE_ROUNDS,
				  c->moves, c->cap, &nm, &rounds, c->settle_work);
	if (err)
		sim_die("settle: %s", hcube_strerror(err));
	for (i = 0; i < nm; i++)
		moved += c->moves[i].count;
	return moved;
}

static void dem_measure(const struct dem_ctx *c, u32 s, u32 nh, long moved,
			struct dem_acc *a)
{
	u32 v, top = 0, dmax = 0, dsum = 0, ceil_s = (s + nh - 1) / nh;
	double ratio, davg;

	for (v = 0; v < c->n; v++) {
		const u32 *h = c->hist + v * DH;
		u32 l;

		if (c->state[v] != HCUBE_V_HEALTHY)
			continue;
		l = hcube_demand_load(h);
		top = h[DQ] > top ? h[DQ] : top;
		dmax = l > dmax ? l : dmax;
		dsum += l;
	}
	ratio = ceil_s ? (double)top / ceil_s : 1.0;
	davg = dsum ? (double)dmax * nh / dsum : 1.0;
	a->ratio_sum += ratio;
	a->ratio_max = ratio > a->ratio_max ? ratio : a->ratio_max;
	a->at_one += top <= ceil_s;
	a->davg_sum += davg;
	a->davg_max = davg > a->davg_max ? davg : a->davg_max;
	a->moved_sum += (double)moved;
	a->runs++;
}

static void dem_cell(const struct dem_acc *a)
{
	if (!a->runs) {
		printf(" - | - | - | - |");
		return;
	}
	printf(" %.2f / %.2f | %.0f%% | %.2f / %.2f | %.1f |",
	       a->ratio_sum / a->runs, a->ratio_max, 100.0 * a->at_one / a->runs,
	       a->davg_sum / a->runs, a->davg_max, a->moved_sum / a->runs);
}

int cmd_demand(int argc, char **argv)
{
	struct dem_opts o;
	struct dem_ctx c;
	u32 si, ti, fi, pi, run, mode;

	dem_parse(&o, argc, argv);
	memset(&c, 0, sizeof(c));
	sim_core_init(&c.core, o.dim);
	c.n = 1U << o.dim;
	c.hist = calloc((size_t)c.n * DH, sizeof(u32));
	c.start = calloc((size_t)c.n * DH, sizeof(u32));
	c.routes = calloc(hcube_routes_max(o.dim), sizeof(*c.routes));
	c.cap = DEM_MOVES_MAX;
	c.moves = calloc(c.cap, sizeof(*c.moves));
	c.settle_work = malloc(hcube_demand_settle_memsize(o.dim));
	if (!c.hist || !c.start || !c.routes || !c.moves || !c.settle_work)
		sim_die("out of memory");
	printf("| spinners | sleepers | middle | faulty | policy |");
	for (mode = LOAD_COUNT; mode <= LOAD_DEMAND; mode++)
		if (o.loads & mode)
			printf(" %s: spinners mean / worst | at 1.00 | max/avg mean / worst | moved |",
			       mode == LOAD_COUNT ? "count" : "demand");
	printf("\n|---|---|---|---|---|");
	for (mode = LOAD_COUNT; mode <= LOAD_DEMAND; mode++)
		if (o.loads & mode)
			printf("---|---|---|---|");
	printf("\n");
	for (si = 0; si < o.ns; si++)
	for (ti = 0; ti < o.nt; ti++)
	for (fi = 0; fi < o.nf; fi++)
	for (pi = 0; pi < o.np; pi++) {
		struct dem_acc acc[3];
		u32 s = o.spinners[si], t = o.sleepers[ti], f = o.faulty[fi];

		memset(acc, 0, sizeof(acc));
		/* the same placements for every policy and both modes */
		c.rng = o.seed * 0x9E3779B97F4A7C15ULL + (u64)si * 1000003 +
			(u64)ti * 10007 + fi * 101 + 1;
		for (run = 0; run < o.runs; run++) {
			dem_place(&c, f, s, t, o.middle);
			for (mode = LOAD_COUNT; mode <= LOAD_DEMAND; mode++) {
				long moved;

				if (!(o.loads & mode))
					continue;
				moved = dem_balance(&c, o.pols[pi], (int)mode);
				if (moved >= 0)
					dem_measure(&c, s, c.n - f, moved, &acc[mode]);
			}
		}
		printf("| %u | %u | %u | %u | %s |", s, t, o.middle, f,
		       hcube_policy_name(o.pols[pi]));
		for (mode = LOAD_COUNT; mode <= LOAD_DEMAND; mode++)
			if (o.loads & mode)
				dem_cell(&acc[mode]);
		printf("\n");
	}
	free(c.hist);
	free(c.start);
	free(c.routes);
	free(c.moves);
	free(c.settle_work);
	sim_core_free(&c.core);
	return 0;
}
