// SPDX-License-Identifier: GPL-2.0
/*
 * optimal and auto:
 * - hcube_mincost_balanced() and the optimal policy against brute force on
 *   small cubes (n <= 3 with random faults and loads 0..3, and n = 4): every
 *   floor/ceil assignment of each healthy component (c vertices, T tasks:
 *   T mod c of them end with floor(T/c) + 1), each priced by hcube_mincost(),
 *   the cheapest is what optimal must cost; its final loads are one of them;
 * - auto (DEM, MCWA and optimal within a work bound): with a tiny bound,
 *   optimal is skipped and the plan is DEM's or MCWA's, whichever balances
 *   better and then moves fewer task-hops; with the default bound, auto
 *   reaches the least imbalance of the three and, at that imbalance, no
 *   more task-hops than any of them.
 */
#include <stdio.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0x0971ULL
#include "core_util.h"

/* Components of healthy vertices: comp[v] (or -1), sizes and totals. */
static u32 components(u32 dim, const u8 *state, const u32 *load, int *comp,
		      u32 *size, u32 *total)
{
	u32 n = 1U << dim, v, d, nc = 0, q[1024];

	for (v = 0; v < n; v++)
		comp[v] = -1;
	for (v = 0; v < n; v++) {
		u32 head = 0, tail = 0;

		if (state[v] != HCUBE_V_HEALTHY || comp[v] >= 0)
			continue;
		comp[v] = nc;
		size[nc] = total[nc] = 0;
		q[tail++] = v;
		while (head < tail) {
			u32 u = q[head++];

			size[nc]++;
			total[nc] += load[u];
			for (d = 0; d < dim; d++) {
				u32 x = u ^ (1U << d);

				if (state[x] == HCUBE_V_HEALTHY && comp[x] < 0) {
					comp[x] = nc;
					q[tail++] = x;
				}
			}
		}
		nc++;
	}
	return nc;
}

struct brute {
	u64 best;
	u32 nvalid;
	u32 valid_mask[1 << 8];	/* n <= 3: every valid extra-task mask */
};

/*
 * Every balanced final load vector (as the mask of healthy vertices that
 * get the extra task), priced by hcube_mincost(). Returns the cheapest.
 */
static int brute_force(u32 dim, const u8 *state, const u32 *load, void *mw,
		       struct brute *b, u32 *after)
{
	u32 n = 1U << dim, size[256], total[256], cnt[256], nc, v, mask, c;
	int comp[256];

	nc = components(dim, state, load, comp, size, total);
	b->best = ~0ULL;
	b->nvalid = 0;
	for (mask = 0; mask < (1U << n); mask++) {
		u64 cost;
		bool ok = true;

		for (c = 0; c < nc; c++)
			cnt[c] = 0;
		for (v = 0; v < n && ok; v++) {
			if (!(mask & (1U << v)))
				continue;
			if (comp[v] < 0)
				ok = false;
			else
				cnt[comp[v]]++;
		}
		for (c = 0; c < nc && ok; c++)
			if (cnt[c] != total[c] % size[c])
				ok = false;
		if (!ok)
			continue;
		for (v = 0; v < n; v++)
			after[v] = comp[v] < 0 ? 0 : total[comp[v]] / size[comp[v]] +
						     !!(mask & (1U << v));
		if (hcube_mincost(dim, state, load, after, &cost, mw))
			return -1;
		if (b->nvalid < ARRAY_SIZE(b->valid_mask))
			b->valid_mask[b->nvalid++] = mask;
		if (cost < b->best)
			b->best = cost;
	}
	return 0;
}

/* Is @after balanced: each component at floor or floor + 1, right count? */
static bool balanced(u32 dim, const u8 *state, const u32 *before,
		     const u32 *after)
{
	u32 n = 1U << dim, size[1024], total[1024], cnt[1024] = { 0 }, v;
	int comp[1024];

	components(dim, state, before, comp, size, total);
	for (v = 0; v < n; v++) {
		u32 lo;

		if (comp[v] < 0) {
			if (after[v])
				return false;
			continue;
		}
		lo = total[comp[v]] / size[comp[v]];
		if (after[v] == lo + 1)
			cnt[comp[v]]++;
		else if (after[v] != lo)
			return false;
	}
	for (v = 0; v < n; v++)
		if (comp[v] >= 0 && cnt[comp[v]] != total[comp[v]] % size[comp[v]])
			return false;
	return true;
}

static void random_cube(struct ctx *c, u32 maxload, u32 maxfaults)
{
	u32 n = 1U << c->dim, v, nf = rnd_below(maxfaults + 1);

	for (v = 0; v < n; v++) {
		c->state[v] = HCUBE_V_HEALTHY;
		c->load[v] = rnd_below(maxload + 1);
	}
	for (v = 0; v < nf; v++) {
		u32 x = rnd_below(n);

		c->state[x] = 1 + rnd_below(3);
		c->load[x] = 0;
	}
}

TEST(optimal_vs_brute_force)
{
	static struct brute b;
	u32 dim, rep, after[256], mine[256], checked = 0;
	void *mw = malloc(hcube_mincost_memsize(4));

	ASSERT_TRUE(mw != NULL);
	for (dim = 0; dim <= 4; dim++) {
		struct ctx c;

		ASSERT_EQ(0, ctx_init(&c, dim));
		for (rep = 0; rep < (dim == 4 ? 12 : 800); rep++) {
			u64 cost, again;
			u32 v, healthy = 0;

			random_cube(&c, dim == 4 ? 2 : 3, dim == 4 ? 3 : dim);
			for (v = 0; v < (1U << dim); v++)
				healthy += c.state[v] == HCUBE_V_HEALTHY;
			if (!healthy)
				continue;
			ASSERT_EQ(0, brute_force(dim, c.state, c.load, mw, &b, after));
			ASSERT_EQ(HCUBE_OK,
				  hcube_mincost_balanced(dim, c.state, c.load, mine,
							 &cost, 0, NULL, mw));
			EXPECT_EQ(b.best, cost) TH_LOG("n %u rep %u", dim, rep);
			EXPECT_TRUE(balanced(dim, c.state, c.load, mine));
			ASSERT_EQ(HCUBE_OK, hcube_mincost(dim, c.state, c.load, mine,
							  &again, mw));
			EXPECT_EQ(cost, again);
			/* the optimal policy: the same cost, balanced */
			ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_OPTIMAL));
			EXPECT_EQ(b.best, c.plan.stats.migrations);
			EXPECT_EQ(0, c.plan.stats.imbalance);
			EXPECT_TRUE(balanced(dim, c.state, c.load, c.plan.after));
			checked++;
		}
		ctx_free(&c);
	}
	TH_LOG("%u cubes checked against brute force", checked);
	free(mw);
}

struct cand {
	u32 imb;
	u64 hops;
	bool ok;
};

static struct cand run(struct ctx *c, enum hcube_policy pol, u64 budget)
{
	struct cand r = { 0 };

	c->plan.budget = budget;
	if (ctx_plan(c, pol) != HCUBE_OK)
		return r;
	r.ok = true;
	r.imb = c->plan.stats.imbalance;
	r.hops = c->plan.stats.migrations;
	return r;
}

static bool topo_ok(struct ctx *c)
{
	return hcube_topo_build(&c->topo, c->dim, c->state, c->work) == HCUBE_OK;
}

/* A tiny bound: optimal is skipped; the better of DEM and MCWA. */
TEST(auto_budget_fallback)
{
	u32 dim, rep;

	for (dim = 2; dim <= 8; dim++) {
		struct ctx c;

		ASSERT_EQ(0, ctx_init(&c, dim));
		for (rep = 0; rep < 30; rep++) {
			struct cand dem, mcwa, a;
			u32 want;

			random_cube(&c, 1000, dim);
			c.load[0] = c.state[0] == HCUBE_V_HEALTHY ? 5000 : 0;
			dem = run(&c, HCUBE_POLICY_DEM, 0);
			mcwa = topo_ok(&c) ? run(&c, HCUBE_POLICY_MCWA, 0) : (struct cand){ 0 };
			a = run(&c, HCUBE_POLICY_AUTO, 1);
			if (!dem.ok && !mcwa.ok)
				continue;
			ASSERT_TRUE(a.ok);
			EXPECT_NE(HCUBE_POLICY_OPTIMAL, c.plan.applied);
			EXPECT_EQ(HCUBE_POLICY_AUTO, c.plan.policy);
			want = HCUBE_POLICY_DEM;
			if (!dem.ok || (mcwa.ok && (mcwa.imb < dem.imb ||
				       (mcwa.imb == dem.imb && mcwa.hops < dem.hops))))
				want = HCUBE_POLICY_MCWA;
			EXPECT_EQ(want, c.plan.applied) TH_LOG("n %u rep %u", dim, rep);
			EXPECT_EQ(want == HCUBE_POLICY_DEM ? dem.imb : mcwa.imb, a.imb);
			EXPECT_EQ(want == HCUBE_POLICY_DEM ? dem.hops : mcwa.hops, a.hops);
			/* it tried optimal: some work was spent on it */
			EXPECT_GE(c.plan.work_done, 1);
		}
		ctx_free(&c);
	}
}

/*
 * The default bound: auto reaches the least imbalance of its candidates,
 * and no more task-hops than any candidate at that imbalance.
 */
TEST(auto_no_worse_than_candidates)
{
	u32 dim, rep, picked[__HCUBE_POLICY_MAX] = { 0 };

	for (dim = 1; dim <= 7; dim++) {
		struct ctx c;

		ASSERT_EQ(0, ctx_init(&c, dim));
		for (rep = 0; rep < 40; rep++) {
			struct cand cd[3], a;
			static const u32 pol[3] = {
				HCUBE_POLICY_DEM, HCUBE_POLICY_MCWA, HCUBE_POLICY_OPTIMAL
			};
			u32 i, best_imb = ~0U;

			random_cube(&c, rep & 1 ? 20 : 500, dim);
			for (i = 0; i < 3; i++) {
				if (pol[i] == HCUBE_POLICY_MCWA && !topo_ok(&c)) {
					cd[i].ok = false;
					continue;
				}
				cd[i] = run(&c, pol[i], 0);
				if (cd[i].ok && cd[i].imb < best_imb)
					best_imb = cd[i].imb;
			}
			if (best_imb == ~0U)
				continue;
			a = run(&c, HCUBE_POLICY_AUTO, HCUBE_AUTO_BUDGET);
			ASSERT_TRUE(a.ok);
			picked[c.plan.applied]++;
			EXPECT_EQ(best_imb, a.imb) TH_LOG("n %u rep %u", dim, rep);
			for (i = 0; i < 3; i++)
				if (cd[i].ok && cd[i].imb == a.imb)
					EXPECT_LE(a.hops, cd[i].hops)
						TH_LOG("n %u rep %u vs %s", dim, rep,
						       hcube_policy_name(pol[i]));
			/* optimal always balances, and is never beaten on hops */
			if (cd[2].ok) {
				EXPECT_EQ(0, a.imb);
				EXPECT_EQ(cd[2].hops, a.hops);
			}
		}
		ctx_free(&c);
	}
	TH_LOG("auto chose dem %u, mcwa %u, optimal %u times",
	       picked[HCUBE_POLICY_DEM], picked[HCUBE_POLICY_MCWA],
	       picked[HCUBE_POLICY_OPTIMAL]);
}

TEST_HARNESS_MAIN
