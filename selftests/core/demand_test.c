// SPDX-License-Identifier: GPL-2.0
/*
 * Balancing on demand units (hcube_core.h, "Demand units"): the quantum,
 * the fill of a transfer from a vertex's tasks, plans on demand loads and
 * the settle carried out on tasks.
 * - the quantum: runnable_avg to units, the values worked out by hand;
 * - the fill: against a one-task-at-a-time model of its rule over the
 *   tasks in heaviest-first order, and its documented closeness bound;
 *   no task of demand 0 is ever taken;
 * - every demand 1: for every policy on random cubes with faulty, offline
 *   and absent vertices, the plan on demand loads is count's plan,
 *   transfer for transfer, and carrying its routes out ends each vertex at
 *   the plan's load;
 * - the settle on random mixes of sleepers (0), spinners (Q) and middle
 *   tasks after a plan: the moves replay, stay in their component, lower
 *   the sum of squared loads each round, never move a sleeper, and end
 *   with max <= avg + u + 1 in every component (u the heaviest vertex's
 *   lightest task above 0).
 */
#define CORE_RNG_SEED 0xde3a4d35ULL
#include "kselftest_harness.h"
#include "core_util.h"

#define Q	HCUBE_DEMAND_Q
#define H	HCUBE_DEMAND_HIST
#define NV_MAX	64	/* dim <= 6 */

TEST(quantum)
{
	/* 1024 / 32 = 32 of runnable_avg per unit, to the nearest, halves up */
	static const u32 in[] = { 0, 15, 16, 47, 48, 512, 1000, 1008, 1024, 5000 };
	static const u32 out[] = { 0, 0, 1, 1, 2, 16, 31, 32, 32, 32 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(in); i++)
		EXPECT_EQ(out[i], hcube_demand_units(in[i])) TH_LOG("%u", in[i]);
	EXPECT_EQ(32U, Q);
	/* the whole cube's tasks at full demand fit the core's total */
	EXPECT_LE((u64)HCUBE_DEMAND_MAX_TASKS * Q, (u64)HCUBE_MAX_TOTAL_LOAD);
	EXPECT_LE(4194304ULL * Q, (u64)HCUBE_MAX_TOTAL_LOAD);
}

/* A random histogram: @ntasks tasks, by one of four mixes. */
static void random_hist(u32 *h, u32 ntasks)
{
	u32 mix = rnd_below(4), i;

	memset(h, 0, H * sizeof(u32));
	for (i = 0; i < ntasks; i++) {
		u32 r = rnd_below(100), d;

		switch (mix) {
		case 0:		/* sleepers and spinners */
			d = r < 50 ? 0 : Q;
			break;
		case 1:		/* anything */
			d = rnd_below(Q + 1);
			break;
		case 2:		/* all one demand */
			d = 1;
			break;
		default:	/* sleepers, spinners and a middle class */
			d = r < 40 ? 0 : r < 70 ? Q : 1 + rnd_below(Q - 1);
			break;
		}
		h[d]++;
	}
}

/*
 * The fill's rule one task at a time: the tasks in heaviest-first order,
 * each taken when it weighs at most twice what is still missing.
 */
static u32 model_fill(const u32 *h, u32 want, u32 *take)
{
	u32 d, i, taken = 0;

	for (d = 0; d <= Q; d++)
		take[d] = 0;
	for (d = Q; d >= 1; d--)
		for (i = 0; i < h[d]; i++)
			if (taken < want && d <= 2 * (want - taken)) {
				take[d]++;
				taken += d;
			}
	return taken;
}

TEST(fill_rule_and_bound)
{
	u32 h[H], take[H], mt[H], iter, d;

	for (iter = 0; iter < 20000; iter++) {
		u32 n = rnd_below(200), load, want, t, mtt, sum = 0;

		random_hist(h, n);
		load = hcube_demand_load(h);
		want = rnd_below(load + Q + 2);
		t = hcube_demand_fill(h, want, take);
		mtt = model_fill(h, want, mt);
		ASSERT_EQ(mtt, t) TH_LOG("iter %u want %u", iter, want);
		ASSERT_EQ(0, memcmp(mt, take, sizeof(take)));
		ASSERT_EQ(0U, take[0]);
		for (d = 1; d <= Q; d++) {
			ASSERT_LE(take[d], h[d]);
			sum += d * take[d];
		}
		ASSERT_EQ(sum, t);
		if (t < want) {
			/* every task left is heavier than twice what is missing */
			for (d = 1; d <= Q; d++)
				if (take[d] < h[d])
					ASSERT_GT(d, 2 * (want - t))
						TH_LOG("iter %u: a task of %u left, %u missing",
						       iter, d, want - t);
		} else if (t > want) {
			u32 light = 0;

			for (d = 1; d <= Q && !light; d++)
				if (take[d])
					light = d;
			/* the lightest taken went last: at most half of it over */
			ASSERT_LE(2 * (t - want), light);
		}
		if (h[1] == n)	/* every demand 1: exact */
			ASSERT_EQ(want < load ? want : load, t);
		if (want && t == 0)	/* nothing taken: nothing light enough */
			for (d = 1; d <= Q && d <= 2 * want; d++)
				ASSERT_EQ(0U, h[d]);
	}
}

/* Random states with faulty, offline and absent vertices, some healthy. */
static void random_states(struct ctx *c, u32 pct)
{
	u32 n = 1U << c->dim, v, nh = 0;

	for (v = 0; v < n; v++) {
		c->state[v] = rnd_below(100) >= pct ? HCUBE_V_HEALTHY :
			      (u8)(HCUBE_V_FAULTY + rnd_below(3));
		nh += c->state[v] == HCUBE_V_HEALTHY;
	}
	if (!nh)
		c->state[rnd_below(n)] = HCUBE_V_HEALTHY;
}

static u32 hist[NV_MAX * H], hist0[NV_MAX * H];
static struct hcube_demand_move moves[1 << 16];
static struct hcube_route routes[4096];

TEST(every_demand_one_is_count)
{
	struct ctx cnt, dem;
	u32 dim, iter, pol, v, checked = 0;

	for (dim = 1; dim <= 6; dim++) {
		ASSERT_EQ(0, ctx_init(&cnt, dim));
		ASSERT_EQ(0, ctx_init(&dem, dim));
		for (iter = 0; iter < 60; iter++) {
			u32 n = 1U << dim;

			random_states(&cnt, rnd_below(40));
			memset(hist, 0, sizeof(hist));
			for (v = 0; v < n; v++) {
				dem.state[v] = cnt.state[v];
				cnt.load[v] = cnt.state[v] == HCUBE_V_HEALTHY ?
					      rnd_below(100) : 0;
				hist[v * H + 1] = cnt.load[v];
				dem.load[v] = hcube_demand_load(&hist[v * H]);
			}
			for (pol = 0; pol < __HCUBE_POLICY_MAX; pol++) {
				u32 nr, nm, i;
				int err;

				err = ctx_plan(&cnt, pol);
				ASSERT_EQ(err, ctx_plan(&dem, pol));
				if (err)
					continue;
				ASSERT_EQ(cnt.plan.ntransfers, dem.plan.ntransfers)
					TH_LOG("%s", hcube_policy_name(pol));
				ASSERT_EQ(0, memcmp(cnt.plan.transfers, dem.plan.transfers,
						    cnt.plan.ntransfers *
						    sizeof(struct hcube_transfer)));
				ASSERT_EQ(0, memcmp(cnt.plan.after, dem.plan.after,
						    n * sizeof(u32)));
				/* carried out on the tasks: the plan's loads */
				ASSERT_EQ(HCUBE_OK,
					  hcube_plan_routes(&dem.plan, dem.load, routes,
							    ARRAY_SIZE(routes), &nr, dem.work));
				memcpy(hist0, hist, sizeof(hist));
				ASSERT_EQ(HCUBE_OK, hcube_demand_carry(routes, nr, hist0,
								       moves, ARRAY_SIZE(moves), &nm));
				for (v = 0; v < n; v++)
					ASSERT_EQ(dem.plan.after[v], hist0[v * H + 1])
						TH_LOG("%s: vertex %u", hcube_policy_name(pol), v);
				for (i = 0; i < nm; i++)
					ASSERT_EQ(1, moves[i].demand);
				checked++;
			}
		}
		ctx_free(&cnt);
		ctx_free(&dem);
	}
	EXPECT_LT(2000U, checked);
}

static u64 sumsq(u32 n, const u8 *state, const u32 *h)
{
	u64 s = 0, l;
	u32 v;

	for (v = 0; v < n; v++) {
		if (state[v] != HCUBE_V_HEALTHY)
			continue;
		l = hcube_demand_load(&h[v * H]);
		s += l * l;
	}
	return s;
}

/* The component of each vertex (healthy vertices joined by edges). */
static void components(u32 dim, const u8 *state, u32 *comp)
{
	u32 n = 1U << dim, v, k, changed;

	for (v = 0; v < n; v++)
		comp[v] = state[v] == HCUBE_V_HEALTHY ? v : ~0U;
	do {	/* the lowest label of each component, by relaxation */
		changed = 0;
		for (v = 0; v < n; v++)
			for (k = 0; k < dim && comp[v] != ~0U; k++) {
				u32 w = v ^ (1U << k);

				if (comp[w] != ~0U && comp[w] < comp[v]) {
					comp[v] = comp[w];
					changed = 1;
				}
			}
	} while (changed);
}

TEST(settle_after_a_plan)
{
	static u32 before[NV_MAX * H], replay[NV_MAX * H];
	struct ctx c;
	void *work = malloc(hcube_demand_settle_memsize(6));
	u32 dim, iter, v, d, i, comp[NV_MAX], settled_some = 0;

	ASSERT_NE(NULL, work);
	EXPECT_EQ(0U, hcube_demand_settle_memsize(HCUBE_MAX_DIM + 1));
	for (dim = 1; dim <= 6; dim++) {
		ASSERT_EQ(0, ctx_init(&c, dim));
		for (iter = 0; iter < 300; iter++) {
			u32 n = 1U << dim, nr = 0, nm, rounds, pol, last = 0;
			bool ones = iter % 5 == 4;
			u64 sq;

			random_states(&c, rnd_below(40));
			memset(hist, 0, sizeof(hist));
			for (v = 0; v < n; v++) {
				if (c.state[v] != HCUBE_V_HEALTHY)
					continue;
				/* a few vertices hold most of the tasks */
				random_hist(&hist[v * H], rnd_below(8) ? rnd_below(6) :
					    rnd_below(60));
				if (ones) {
					u32 all = 0;

					for (d = 0; d <= Q; d++)
						all += hist[v * H + d];
					memset(&hist[v * H], 0, H * sizeof(u32));
					hist[v * H + 1] = all;
				}
				c.load[v] = hcube_demand_load(&hist[v * H]);
			}
			for (v = 0; v < n; v++)
				if (c.state[v] != HCUBE_V_HEALTHY)
					c.load[v] = 0;
			/* a policy's plan on the demand loads, carried out */
			pol = rnd_below(__HCUBE_POLICY_MAX);
			memcpy(before, hist, sizeof(hist));
			if (!ctx_plan(&c, pol)) {
				ASSERT_EQ(HCUBE_OK,
					  hcube_plan_routes(&c.plan, c.load, routes,
							    ARRAY_SIZE(routes), &nr, c.work));
				ASSERT_EQ(HCUBE_OK, hcube_demand_carry(routes, nr, hist,
								       moves, ARRAY_SIZE(moves), &nm));
				for (i = 0; i < nm; i++)
					ASSERT_NE(0, moves[i].demand);
			}
			/* the settle */
			memcpy(replay, hist, sizeof(hist));
			sq = sumsq(n, c.state, hist);
			ASSERT_EQ(HCUBE_OK,
				  hcube_demand_settle(dim, c.state, hist, 100000, moves,
						      ARRAY_SIZE(moves), &nm, &rounds, work))
				TH_LOG("dim %u iter %u", dim, iter);
			settled_some += rounds > 0;
			components(dim, c.state, comp);
			for (i = 0; i <= nm; i++) {
				const struct hcube_demand_move *m = &moves[i];

				/* each round lowers the sum of squared loads */
				if (i == nm || m->step != last) {
					u64 now = sumsq(n, c.state, replay);

					if (last)
						ASSERT_LT(now, sq) TH_LOG("round %u", last);
					sq = now;
					if (i == nm)
						break;
					ASSERT_EQ(last + 1, m->step);
					last = m->step;
				}
				ASSERT_NE(0, m->demand);
				ASSERT_LT(m->from, n);
				ASSERT_LT(m->to, n);
				ASSERT_EQ(HCUBE_V_HEALTHY, c.state[m->from]);
				ASSERT_EQ(comp[m->from], comp[m->to]);
				ASSERT_LE(m->count, replay[m->from * H + m->demand]);
				replay[m->from * H + m->demand] -= m->count;
				replay[m->to * H + m->demand] += m->count;
			}
			ASSERT_EQ(rounds, last);
			ASSERT_EQ(0, memcmp(replay, hist, sizeof(hist)));
			for (v = 0; v < n; v++)	/* the sleepers stay */
				ASSERT_EQ(before[v * H], hist[v * H]);
			/* the bound, component by component */
			for (v = 0; v < n; v++) {
				u64 w = 0, nh = 0, max = 0, min = ~0ULL, l;
				u32 top = v, x, u = 0;

				if (comp[v] != v)
					continue;
				for (x = 0; x < n; x++) {
					if (comp[x] != v)
						continue;
					l = hcube_demand_load(&hist[x * H]);
					w += l;
					nh++;
					if (l > max)
						max = l, top = x;
					min = l < min ? l : min;
				}
				for (d = 1; d <= Q && !u; d++)
					if (hist[top * H + d])
						u = d;
				/* max <= avg + u + 1 */
				ASSERT_LE(max * nh, w + nh * (u + 1))
					TH_LOG("dim %u iter %u: max %llu of %llu over %llu, u %u",
					       dim, iter, (unsigned long long)max,
					       (unsigned long long)w,
					       (unsigned long long)nh, u);
				if (ones)
					ASSERT_LE(max - min, 2);
				/*
				 * no exchange of one task for one lighter task
				 * is left between the heaviest (lowest label)
				 * and a lighter vertex that leaves both strictly
				 * between their loads
				 */
				for (x = 0; x < n; x++) {
					u32 dist, t, b, sw;

					if (comp[x] != v)
						continue;
					l = hcube_demand_load(&hist[x * H]);
					if (l >= max)
						continue;
					dist = (u32)(max - l);
					for (t = 1, sw = 0; t <= Q && !sw; t++)
						for (b = 1; b < t && !sw; b++)
							if (hist[top * H + t] && hist[x * H + b] &&
							    b + dist > t)
								sw = t << 8 | b;
					ASSERT_EQ(0U, sw)
						TH_LOG("dim %u iter %u: %u (%llu) and %u (%llu) may swap %u for %u",
						       dim, iter, top, (unsigned long long)max, x,
						       (unsigned long long)l, sw >> 8, sw & 0xff);
				}
			}
		}
		ctx_free(&c);
	}
	EXPECT_LT(100U, settled_some);
	free(work);
}

/*
 * Two spinners on one CPU, two half-CPU tasks on the other: no single
 * task may move (each would only swap the loads), an exchange of a
 * spinner for a half-CPU task ends both at 48.
 */
TEST(exchange_when_no_single_move)
{
	static const u8 state[2] = { HCUBE_V_HEALTHY, HCUBE_V_HEALTHY };
	u32 h[2 * H] = { 0 }, nm, rounds;
	void *work = malloc(hcube_demand_settle_memsize(1));

	ASSERT_NE(NULL, work);
	h[Q] = 2;
	h[H + Q / 2] = 2;
	h[H] = 3;	/* sleepers stay */
	ASSERT_EQ(HCUBE_OK, hcube_demand_settle(1, state, h, 100, moves,
						ARRAY_SIZE(moves), &nm, &rounds, work));
	EXPECT_EQ(48U, hcube_demand_load(h));
	EXPECT_EQ(48U, hcube_demand_load(h + H));
	EXPECT_EQ(1U, rounds);
	EXPECT_EQ(2U, nm);
	EXPECT_EQ(3U, h[H]);
	free(work);
}

TEST_HARNESS_MAIN
