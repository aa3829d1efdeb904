// SPDX-License-Identifier: GPL-2.0
/*
 * hcube_mincost(), the optimal migration cost, against:
 * - brute force on small cubes (n <= 3, loads 0..3): every way to send the
 *   surplus units to the deficit units, each costing its shortest healthy
 *   distance;
 * - an independent transportation solver (successive shortest paths with
 *   Bellman-Ford between surplus and deficit vertices) up to n = 6;
 * - the plans: no MCWA, DEM or CWA plan takes fewer task-hops than the
 *   optimum for its own final loads, nor do its routes; and the optimum is
 *   at least the fault-free optimum, itself at least the sum over the
 *   dimensions of the tasks that must cross each dimension's cut.
 */
#include <stdio.h>
#include <time.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0
#include "core_util.h"

#define NMAX HCUBE_MAX_VERTICES
#define FAR 0xffffU

/* Shortest healthy distances from every vertex (FAR: unreachable). */
static void all_dist(u32 dim, const u8 *state, u16 (*dist)[64])
{
	u32 n = 1U << dim, s, v, d;
	u16 queue[64];

	for (s = 0; s < n; s++) {
		u32 head = 0, tail = 0;

		for (v = 0; v < n; v++)
			dist[s][v] = FAR;
		if (state[s] != HCUBE_V_HEALTHY)
			continue;
		dist[s][s] = 0;
		queue[tail++] = s;
		while (head < tail) {
			u32 u = queue[head++];

			for (d = 0; d < dim; d++) {
				u32 x = u ^ (1U << d);

				if (state[x] == HCUBE_V_HEALTHY && dist[s][x] == FAR) {
					dist[s][x] = dist[s][u] + 1;
					queue[tail++] = x;
				}
			}
		}
	}
}

/* Brute force: assign surplus units one by one to deficit vertices. */
struct brute {
	u32 nunits, ndef;
	u32 unit_src[64], def_vertex[64], def_left[64];
	u16 (*dist)[64];
	u64 best;
};

static void brute_go(struct brute *b, u32 i, u32 min_j, u64 cost)
{
	u32 j;

	if (cost >= b->best)
		return;
	if (i == b->nunits) {
		b->best = cost;
		return;
	}
	/* units of one source take deficit vertices in non-decreasing order */
	if (i && b->unit_src[i] != b->unit_src[i - 1])
		min_j = 0;
	for (j = min_j; j < b->ndef; j++) {
		u16 d = b->dist[b->unit_src[i]][b->def_vertex[j]];

		if (!b->def_left[j] || d == FAR)
			continue;
		b->def_left[j]--;
		brute_go(b, i + 1, j, cost + d);
		b->def_left[j]++;
	}
}

/* ~0 when infeasible. */
static u64 brute_force(u32 dim, const u8 *state, const u32 *before,
		       const u32 *after)
{
	static u16 dist[64][64];
	struct brute b = { .dist = dist, .best = ~0ULL };
	u32 n = 1U << dim, v, k;

	all_dist(dim, state, dist);
	for (v = 0; v < n; v++) {
		for (k = after[v]; k < before[v]; k++)
			b.unit_src[b.nunits++] = v;
		if (after[v] > before[v]) {
			b.def_vertex[b.ndef] = v;
			b.def_left[b.ndef++] = after[v] - before[v];
		}
	}
	brute_go(&b, 0, 0, 0);
	return b.best;
}

/*
 * Independent solver: the transportation problem between surplus and
 * deficit vertices with healthy distances, by successive shortest paths
 * with Bellman-Ford on the bipartite residual graph. ~0 when infeasible.
 */
static u64 transport(u32 dim, const u8 *state, const u32 *before,
		     const u32 *after)
{
	static u16 dist[64][64];
	static s64 x[64][64];
	u32 n = 1U << dim, ns = 0, nd = 0, i, j, it;
	u32 src[64], dst[64];
	s64 sup[64], dem[64], cost = 0;

	all_dist(dim, state, dist);
	for (i = 0; i < n; i++) {
		if (before[i] > after[i]) {
			src[ns] = i;
			sup[ns++] = before[i] - after[i];
		} else if (after[i] > before[i]) {
			dst[nd] = i;
			dem[nd++] = after[i] - before[i];
		}
	}
	for (i = 0; i < ns; i++)
		for (j = 0; j < nd; j++)
			x[i][j] = 0;
	for (;;) {
		/* nodes: 0..ns-1 sources, ns..ns+nd-1 sinks */
		s64 d[128];
		int pred[128];
		s64 best = -1, amount;
		int bj = -1, changed = 1;

		for (i = 0; i < ns + nd; i++) {
			d[i] = i < ns && sup[i] > 0 ? 0 : (s64)1 << 40;
			pred[i] = -1;
		}
		for (it = 0; it < ns + nd && changed; it++) {
			changed = 0;
			for (i = 0; i < ns; i++)
				for (j = 0; j < nd; j++) {
					s64 c = dist[src[i]][dst[j]];

					if (c == FAR)
						continue;
					if (d[i] + c < d[ns + j]) {
						d[ns + j] = d[i] + c;
						pred[ns + j] = i;
						changed = 1;
					}
					if (x[i][j] > 0 && d[ns + j] - c < d[i]) {
						d[i] = d[ns + j] - c;
						pred[i] = ns + j;
						changed = 1;
					}
				}
		}
		for (j = 0; j < nd; j++)
			if (dem[j] > 0 && d[ns + j] < ((s64)1 << 40) &&
			    (bj < 0 || d[ns + j] < best)) {
				best = d[ns + j];
				bj = j;
			}
		if (bj < 0)
			break;
		/* bottleneck along the path back to a source */
		amount = dem[bj];
		for (i = ns + bj; pred[i] >= 0; i = pred[i])
			if (i < ns && x[i][pred[i] - ns] < amount)
				amount = x[i][pred[i] - ns];
		if (sup[i] < amount)
			amount = sup[i];
		sup[i] -= amount;
		dem[bj] -= amount;
		for (i = ns + bj; pred[i] >= 0; i = pred[i]) {
			if (i >= ns)
				x[pred[i]][i - ns] += amount;
			else
				x[i][pred[i] - ns] -= amount;
		}
		cost += best * amount;
	}
	for (j = 0; j < nd; j++)
		if (dem[j])
			return ~0ULL;
	return (u64)cost;
}

/* Random states (about a third of the cubes with faults) and loads. */
static void random_states(u32 dim, u8 *state, u32 pct)
{
	u32 n = 1U << dim, v, nh = 0;

	for (v = 0; v < n; v++) {
		state[v] = rnd_below(100) < pct ? 1 + rnd_below(HCUBE_V_NSTATES - 1) :
			   HCUBE_V_HEALTHY;
		nh += state[v] == HCUBE_V_HEALTHY;
	}
	if (!nh)
		state[rnd_below(n)] = HCUBE_V_HEALTHY;
}

/*
 * @after: the same total as @before, spread at random over the healthy
 * vertices. When the healthy vertices form several components this is
 * often infeasible, and the test expects the error then.
 */
static void random_loads(u32 dim, const u8 *state, u32 max, u32 *before,
			 u32 *after)
{
	u32 n = 1U << dim, v, total = 0, healthy[NMAX], nh = 0;

	for (v = 0; v < n; v++) {
		before[v] = 0;
		after[v] = 0;
		if (state[v] != HCUBE_V_HEALTHY)
			continue;
		healthy[nh++] = v;
		before[v] = rnd_below(max + 1);
		total += before[v];
	}
	while (total--)
		after[healthy[rnd_below(nh)]]++;
}

static void *flow_mem(u32 dim)
{
	return malloc(hcube_mincost_memsize(dim));
}

/* The flow behind the optimum realises it: edges, conservation, cost. */
static const char *check_flow(u32 dim, const u8 *state, const u32 *before,
			      const u32 *after, u64 cost, const u32 *flow)
{
	static s64 net[NMAX];
	u32 n = 1U << dim, v, d;
	u64 sum = 0;

	for (v = 0; v < n; v++)
		net[v] = 0;
	for (v = 0; v < n; v++) {
		for (d = 0; d < dim; d++) {
			u32 f = flow[v * dim + d], x = v ^ (1U << d);

			if (!f)
				continue;
			if (state[v] != HCUBE_V_HEALTHY || state[x] != HCUBE_V_HEALTHY)
				return "flow on an edge of an unusable vertex";
			if (flow[x * dim + d])
				return "flow both ways on one edge";
			net[v] += f;
			net[x] -= f;
			sum += f;
		}
	}
	for (v = 0; v < n; v++)
		if (net[v] != (s64)before[v] - (s64)after[v])
			return "flow does not take before to after";
	return sum == cost ? NULL : "flow does not sum to the cost";
}

TEST(brute_force_small_cubes)
{
	static u32 before[8], after[8];
	static u8 state[8];
	void *work = flow_mem(3);
	u32 iter, feasible = 0, infeasible = 0, nonzero = 0;

	ASSERT_NE(NULL, work);
	rng_state = 0x600dcafeULL;
	for (iter = 0; iter < 20000; iter++) {
		u32 dim = rnd_below(4);
		u64 got, want;
		int err;

		random_states(dim, state, rnd_below(3) ? 30 : 0);
		random_loads(dim, state, 3, before, after);
		want = brute_force(dim, state, before, after);
		err = hcube_mincost(dim, state, before, after, &got, work);
		if (want == ~0ULL) {
			EXPECT_EQ(HCUBE_E_FLOW_UNREACHABLE, err) TH_LOG("iter %u", iter);
			infeasible++;
			continue;
		}
		ASSERT_EQ(HCUBE_OK, err) TH_LOG("iter %u: %s", iter,
						hcube_strerror(err));
		EXPECT_EQ(want, got) TH_LOG("iter %u dim %u", iter, dim);
		EXPECT_EQ(want, transport(dim, state, before, after));
		EXPECT_EQ(NULL, check_flow(dim, state, before, after, got,
					   hcube_mincost_flow(work)));
		feasible++;
		nonzero += got > 0;
		if (_metadata->passed == 0)
			break;
	}
	TH_LOG("%u feasible (%u with moves), %u infeasible instances", feasible,
	       nonzero, infeasible);
	EXPECT_GT(nonzero, 10000);
	EXPECT_GT(infeasible, 100);
	free(work);
}

TEST(transport_solver_up_to_6)
{
	static u32 before[64], after[64];
	static u8 state[64];
	void *work = flow_mem(6);
	u32 iter;

	ASSERT_NE(NULL, work);
	rng_state = 0xdeadbeefULL;
	for (iter = 0; iter < 1500; iter++) {
		u32 dim = 4 + rnd_below(3);
		u64 got, want;
		int err;

		random_states(dim, state, rnd_below(3) ? rnd_below(40) : 0);
		random_loads(dim, state, 1 + rnd_below(60), before, after);
		want = transport(dim, state, before, after);
		err = hcube_mincost(dim, state, before, after, &got, work);
		if (want == ~0ULL) {
			EXPECT_EQ(HCUBE_E_FLOW_UNREACHABLE, err) TH_LOG("iter %u", iter);
			continue;
		}
		ASSERT_EQ(HCUBE_OK, err) TH_LOG("iter %u", iter);
		EXPECT_EQ(want, got) TH_LOG("iter %u dim %u", iter, dim);
		if (_metadata->passed == 0)
			break;
	}
	free(work);
}

TEST(fault_free_single_pairs)
{
	static u32 before[NMAX], after[NMAX];
	static u8 state[NMAX];
	void *work = flow_mem(HCUBE_MAX_DIM);
	u32 dim, a, b;

	ASSERT_NE(NULL, work);
	for (dim = 0; dim <= HCUBE_MAX_DIM; dim++) {
		u32 n = 1U << dim;

		for (a = 0; a < n; a++) {
			state[a] = HCUBE_V_HEALTHY;
			before[a] = 7;
			after[a] = 7;
		}
		for (a = 0; a < n; a += 1 + n / 8) {
			for (b = 0; b < n; b += 1 + n / 16) {
				u64 got;

				before[a] += 1000;
				after[b] += 1000;
				ASSERT_EQ(HCUBE_OK, hcube_mincost(dim, state, before,
								  after, &got, work));
				EXPECT_EQ(1000ULL * __builtin_popcount(a ^ b), got);
				before[a] -= 1000;
				after[b] -= 1000;
			}
		}
	}
	free(work);
}

/* A detour: 00 -> 11 on a 2-cube with 01 faulty goes through 10; with 10
 * faulty as well the two are cut off.
 */
TEST(detour_and_errors)
{
	u32 before[4] = { 5, 0, 0, 0 }, after[4] = { 0, 0, 0, 5 };
	u8 state[4] = { 0, HCUBE_V_FAULTY, 0, 0 };
	void *work = flow_mem(HCUBE_MAX_DIM);
	u64 cost = 99;

	ASSERT_NE(NULL, work);
	EXPECT_EQ(HCUBE_OK, hcube_mincost(2, state, before, after, &cost, work));
	EXPECT_EQ(10, cost);
	state[2] = HCUBE_V_OFFLINE;
	EXPECT_EQ(HCUBE_E_FLOW_UNREACHABLE,
		  hcube_mincost(2, state, before, after, &cost, work));
	EXPECT_EQ(0, cost);
	state[2] = HCUBE_V_HEALTHY;
	after[3] = 4;
	EXPECT_EQ(HCUBE_E_FLOW_TOTAL,
		  hcube_mincost(2, state, before, after, &cost, work));
	after[3] = 4;
	after[1] = 1;
	EXPECT_EQ(HCUBE_E_FAULTY_LOAD,
		  hcube_mincost(2, state, before, after, &cost, work));
	after[1] = 0;
	after[3] = 5;
	state[1] = 9;
	EXPECT_EQ(HCUBE_E_STATE, hcube_mincost(2, state, before, after, &cost, work));
	state[1] = HCUBE_V_FAULTY;
	EXPECT_EQ(HCUBE_E_DIM, hcube_mincost(11, state, before, after, &cost, work));
	before[0] = 0x7fffffffU;
	before[2] = 1;
	after[3] = 0x80000000U;
	EXPECT_EQ(HCUBE_E_OVERFLOW, hcube_mincost(2, state, before, after, &cost, work));
	EXPECT_EQ(0, hcube_mincost_memsize(11));
	EXPECT_STREQ("a vertex that needs tasks has no healthy path from one that has them",
		     hcube_strerror(HCUBE_E_FLOW_UNREACHABLE));
	EXPECT_STREQ("unknown policy", hcube_strerror(HCUBE_E_POLICY));
	free(work);
}

/* Tasks that must cross the cut of each dimension: a lower bound. */
static u64 cut_bound(u32 dim, const u32 *before, const u32 *after)
{
	u32 n = 1U << dim, d, v;
	u64 sum = 0;

	for (d = 0; d < dim; d++) {
		s64 delta = 0;

		for (v = 0; v < n; v++)
			if (!(v & (1U << d)))
				delta += (s64)before[v] - (s64)after[v];
		sum += delta < 0 ? -delta : delta;
	}
	return sum;
}

static struct hcube_route routes[HCUBE_MAX_DIM * HCUBE_MAX_VERTICES / 2 +
				 3 * HCUBE_MAX_VERTICES];

TEST(plans_never_beat_the_optimum)
{
	static const enum hcube_policy pols[] = {
		HCUBE_POLICY_MCWA, HCUBE_POLICY_DEM, HCUBE_POLICY_CWA
	};
	static struct ctx ctxs[9];
	static u8 all_healthy[NMAX];
	void *work = flow_mem(8);
	u32 iter, d, i, strict = 0, equal = 0, plans = 0;

	ASSERT_NE(NULL, work);
	for (d = 1; d <= 8; d++)
		ASSERT_EQ(0, ctx_init(&ctxs[d], d));
	rng_state = 0x0ddba11ULL;
	for (iter = 0; iter < 4000; iter++) {
		u32 dim = 1 + rnd_below(8), n = 1U << dim, v;
		struct ctx *c = &ctxs[dim];
		u64 free_opt;

		random_states(dim, c->state, rnd_below(4) ? rnd_below(50) : 0);
		for (v = 0; v < n; v++) {
			c->load[v] = c->state[v] == HCUBE_V_HEALTHY ?
				     rnd_below(1001) : 0;
			all_healthy[v] = HCUBE_V_HEALTHY;
		}
		for (i = 0; i < ARRAY_SIZE(pols); i++) {
			const struct hcube_plan *p = &c->plan;
			u64 opt, hops = 0;
			u32 nr, r;
			int err;

			err = ctx_plan(c, pols[i]);
			if (err == HCUBE_E_NEED_MCWA)
				continue;
			ASSERT_EQ(HCUBE_OK, err);
			err = hcube_mincost(dim, c->state, c->load, p->after, &opt,
					    work);
			ASSERT_EQ(HCUBE_OK, err) TH_LOG("iter %u %s: %s", iter,
							hcube_policy_name(pols[i]),
							hcube_strerror(err));
			plans++;
			EXPECT_LE(opt, p->stats.migrations) TH_LOG("iter %u", iter);
			EXPECT_EQ(NULL, check_flow(dim, c->state, c->load, p->after,
						   opt, hcube_mincost_flow(work)))
				TH_LOG("iter %u", iter);
			strict += opt < p->stats.migrations;
			equal += opt == p->stats.migrations;
			ASSERT_EQ(HCUBE_OK, hcube_plan_routes(p, c->load, routes,
							      ARRAY_SIZE(routes), &nr,
							      c->work));
			for (r = 0; r < nr; r++)
				hops += (u64)routes[r].count * routes[r].hops;
			EXPECT_LE(opt, hops) TH_LOG("iter %u", iter);
			EXPECT_GE(opt, p->stats.moved_tasks);
			ASSERT_EQ(HCUBE_OK, hcube_mincost(dim, all_healthy, c->load,
							  p->after, &free_opt, work));
			EXPECT_LE(free_opt, opt) TH_LOG("iter %u", iter);
			EXPECT_LE(cut_bound(dim, c->load, p->after), free_opt)
				TH_LOG("iter %u", iter);
		}
		if (_metadata->passed == 0)
			break;
	}
	TH_LOG("%u plans: %u above the optimum, %u at it", plans, strict, equal);
	EXPECT_GT(strict, 1000);
	for (d = 1; d <= 8; d++)
		ctx_free(&ctxs[d]);
	free(work);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* n = 10, loads 0..1000, up to 30% unusable: the time is logged. */
TEST(large_cubes_time)
{
	static u32 before[NMAX], after[NMAX];
	static u8 state[NMAX];
	void *work = flow_mem(HCUBE_MAX_DIM);
	double worst = 0, sum = 0;
	u32 iter, ok = 0;

	ASSERT_NE(NULL, work);
	rng_state = 0xb16b00b5ULL;
	for (iter = 0; iter < 40; iter++) {
		double t0, dt;
		u64 cost;
		int err;

		random_states(HCUBE_MAX_DIM, state, iter % 2 ? rnd_below(30) : 0);
		random_loads(HCUBE_MAX_DIM, state, 1000, before, after);
		t0 = now();
		err = hcube_mincost(HCUBE_MAX_DIM, state, before, after, &cost, work);
		dt = now() - t0;
		if (err == HCUBE_E_FLOW_UNREACHABLE)
			continue;
		ASSERT_EQ(HCUBE_OK, err);
		EXPECT_LE(cut_bound(HCUBE_MAX_DIM, before, after), cost);
		ok++;
		sum += dt;
		worst = dt > worst ? dt : worst;
	}
	TH_LOG("n = 10: %u instances, mean %.1f ms, worst %.1f ms", ok,
	       1e3 * sum / (ok ? ok : 1), 1e3 * worst);
	free(work);
}

TEST_HARNESS_MAIN
