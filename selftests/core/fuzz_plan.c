// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the planners' inputs: dimension, policy, vertex
 * states (invalid ones included), loads (huge ones included) and a forced
 * balancing subcube. Whatever the input, the core must return an error or a
 * plan that keeps every rule; a broken rule aborts.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "hcube_core_ext.h"

/* Sized at the first call for the largest cube. */
static void *topo_mem, *plan_mem, *work_mem;
static struct hcube_route *routes;
static u8 state[HCUBE_MAX_VERTICES];
static u32 load[HCUBE_MAX_VERTICES];
static s64 cur[HCUBE_MAX_VERTICES];
static u32 out[HCUBE_MAX_VERTICES];

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void check_plan(const struct hcube_plan *p, const struct hcube_cube *c,
		       const struct hcube_topo *t, int policy)
{
	u32 n = 1U << c->dim, i, v;
	s64 before = 0, after = 0, max = -1, min = -1;
	bool exact = policy == HCUBE_POLICY_MCWA || policy == HCUBE_POLICY_CWA;

	for (v = 0; v < n; v++) {
		cur[v] = c->load[v];
		before += c->load[v];
	}
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		CHECK(x->from < n && x->to < n);
		CHECK(__builtin_popcount(x->from ^ x->to) == 1);
		CHECK(hcube_usable(c->state[x->from]) && hcube_usable(c->state[x->to]));
		CHECK(x->count > 0);
		cur[x->from] -= x->count;
		cur[x->to] += x->count;
		CHECK(cur[x->from] >= 0);
	}
	for (v = 0; v < n; v++) {
		CHECK(cur[v] == p->after[v]);
		after += cur[v];
		if (!exact || !hcube_usable(c->state[v]))
			continue;
		if (t->dist[v] == HCUBE_DIST_NONE) {
			CHECK(cur[v] == c->load[v]);
			continue;
		}
		if (max < 0 || cur[v] > max)
			max = cur[v];
		if (min < 0 || cur[v] < min)
			min = cur[v];
	}
	CHECK(before == after);
	if (exact)
		CHECK(max - min <= 1);
	/* optimal balances every component; auto does at least as well */
	CHECK(p->stats.imbalance == hcube_imbalance(c->dim, c->state, p->after, work_mem));
	if (policy == HCUBE_POLICY_OPTIMAL)
		CHECK(p->stats.imbalance == 0);

	/* The routes realise the plan, each task moving once. */
	{
		u32 nr;
		u64 sum = 0;

		CHECK(hcube_plan_routes(p, c->load, routes, hcube_routes_max(c->dim),
					&nr, work_mem) == HCUBE_OK);
		for (i = 0; i < nr; i++) {
			CHECK(routes[i].count && routes[i].from != routes[i].to);
			sum += routes[i].count;
		}
		CHECK(sum == p->stats.moved_tasks);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct hcube_topo topo;
	struct hcube_plan plan;
	struct hcube_cube cube;
	u32 dim, n, v, base, mask;
	int policy, terr, err;
	size_t pos = 6;

	if (size < 6)
		return 0;
	if (!work_mem) {
		topo_mem = malloc(hcube_topo_memsize(HCUBE_MAX_DIM));
		plan_mem = malloc(hcube_plan_memsize(HCUBE_MAX_DIM));
		work_mem = malloc(hcube_work_memsize(HCUBE_MAX_DIM));
		routes = malloc(hcube_routes_max(HCUBE_MAX_DIM) * sizeof(*routes));
		CHECK(topo_mem && plan_mem && work_mem && routes);
	}
	dim = data[0] % (HCUBE_MAX_DIM + 1);
	policy = data[1] % (__HCUBE_POLICY_MAX + 1);
	base = data[2] | (u32)data[3] << 8;
	mask = data[4] | (u32)data[5] << 8;
	n = 1U << dim;
	CHECK(hcube_topo_memsize(dim) <= hcube_topo_memsize(HCUBE_MAX_DIM));
	CHECK(hcube_plan_memsize(dim) <= hcube_plan_memsize(HCUBE_MAX_DIM));
	CHECK(hcube_work_memsize(dim) <= hcube_work_memsize(HCUBE_MAX_DIM));
	CHECK(hcube_topo_init(&topo, dim, topo_mem) == HCUBE_OK);
	CHECK(hcube_plan_init(&plan, dim, plan_mem) == HCUBE_OK);

	/* One byte per vertex: state in the low bits, load class in the high. */
	for (v = 0; v < n; v++) {
		u8 b = pos < size ? data[pos++] : 0;

		state[v] = (b & 7) < 5 ? ((b & 7) < 3 ? HCUBE_V_HEALTHY : (b & 7) - 2) :
			   (b & 7);
		switch (b >> 6) {
		case 0:
			load[v] = 0;
			break;
		case 1:
			load[v] = (b >> 3) & 7;
			break;
		case 2:
			load[v] = pos < size ? data[pos++] * 4 : 1000;
			break;
		default:
			load[v] = 0x10000000U >> ((b >> 3) & 7);
			break;
		}
		/* Mostly keep the precondition, sometimes break it. */
		if (!hcube_usable(state[v]) && (b & 0x38) != 0x38)
			load[v] = 0;
	}
	cube.dim = dim;
	cube.state = state;
	cube.load = load;

	terr = hcube_topo_build(&topo, dim, state, work_mem);
	err = hcube_plan_build(&plan, policy, &cube, terr ? NULL : &topo, work_mem);
	CHECK(err != HCUBE_E_INTERNAL);
	if (err == HCUBE_OK)
		check_plan(&plan, &cube, &topo, policy);

	/* Evacuating a vertex: every task lands on a healthy vertex. */
	if (n > 1) {
		u32 from = base & (n - 1), count = mask & 0xfff, got = 0;

		for (v = 0; v < n; v++)
			out[v] = 0;
		if (hcube_evacuate(dim, state, load, from, count, out) == HCUBE_OK) {
			for (v = 0; v < n; v++) {
				CHECK(!out[v] || (v != from && hcube_usable(state[v])));
				got += out[v];
			}
			CHECK(got == count);
		}
	}

	/* A forced C_b: either refused or a consistent topology. */
	if (hcube_topo_build_cb(&topo, dim, state, base & (n - 1), mask & (n - 1),
				work_mem) == HCUBE_OK) {
		for (v = 0; v < n; v++)
			if (topo.parent[v] >= 0)
				CHECK(topo.dist[topo.parent[v]] + 1 == topo.dist[v]);
		err = hcube_plan_build(&plan, HCUBE_POLICY_MCWA, &cube, &topo, work_mem);
		CHECK(err != HCUBE_E_INTERNAL);
		if (err == HCUBE_OK)
			check_plan(&plan, &cube, &topo, HCUBE_POLICY_MCWA);
	}
	return 0;
}
