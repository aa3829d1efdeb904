// SPDX-License-Identifier: GPL-2.0
/*
 * Pebble-crunching (S. Gulati, S. S. Iyengar and J. Barhen, "The
 * Pebble-Crunching Model for Fault-tolerant Load Balancing in Hypercube
 * Ensembles", The Computer Journal 33(3), 1990) against the paper, with
 * test vectors (TV-n) derived by hand where it gives no numbers:
 * - the controller (DCC) election of Section 6 (faulty_recovery, a bully
 *   election where the lower address wins): the 3-cube case
 *   TV-7 (000 dies: 001; 001 dead too: 010), no pre-emption when a failed
 *   controller recovers, clusters elected independently;
 * - contention (Fig. 1: receivers in the horizons of several overloaded
 *   owners): several owners, one receiver, which never ends above its
 *   capacity; the empty pebble (an owner with no light neighbour gets the
 *   cluster's light vertices);
 * - line 12 ("perform the minimal-overhead task assignment") resolved by
 *   hcube_assign(), an exact min-cost transportation: TV-6
 *   (greedy 14, exact 13 with a unique optimum) and brute force on small
 *   random instances (as many tasks as the arcs allow, then the cheapest).
 */
#include <stdio.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0x9ebb1e
#include "core_util.h"

#define NONE HCUBE_VERTEX_NONE

TEST(cluster_dimension)
{
	EXPECT_EQ(0, hcube_pebble_cdim(0));
	EXPECT_EQ(2, hcube_pebble_cdim(2));
	EXPECT_EQ(3, hcube_pebble_cdim(3));
	EXPECT_EQ(3, hcube_pebble_cdim(10));
}

/* A vertex state written as a letter: Healthy, Faulty, Offline, Absent. */
static u8 vstate(char c)
{
	return (u8)(strchr("HFOA", c) - "HFOA");
}

/*
 * TV-7: a 3-cube cluster, DCC 000; the lower address wins the election.
 * One election a step, on the states of vertices 0 to 7 (left to right).
 */
TEST(election_three_cube)
{
	static const struct {
		const char *st;
		int elected;	/* what hcube_pebble_elect() returns */
		u16 dcc;	/* the controller after it */
	} step[] = {
		{ "HHHHHHHH", 1, 0 },		/* the first election: 000 */
		{ "HHHHHHHH", 0, 0 },		/* nothing changed */
		{ "FHHHHHHH", 1, 1 },		/* 000 dies: 011, 010 defer to 001 */
		{ "HHHHHHHH", 0, 1 },		/* 000 recovers: no pre-emption */
		{ "HOHHHHHH", 1, 0 },		/* 001 dies: the lowest healthy, 000 */
		{ "FOHHHHHH", 1, 2 },		/* "if 001 is also dead, the new DCC is 010" */
		{ "FFFFFHFF", 1, 5 },		/* everybody but 101 dead: 101 */
		{ "FFFFFAFF", 1, NONE },	/* then nobody */
		{ "FFFFFAFH", 1, 7 },		/* 111 comes up: the only candidate */
		{ "HFFFFAFH", 0, 7 },		/* then 000 too: 111 keeps the role */
	};
	u16 ctrl[1] = { NONE };
	u32 i, v;

	for (i = 0; i < ARRAY_SIZE(step); i++) {
		u8 st[8];

		for (v = 0; v < 8; v++)
			st[v] = vstate(step[i].st[v]);
		EXPECT_EQ(step[i].elected, hcube_pebble_elect(3, 3, st, ctrl))
			TH_LOG("step %u: %s", i, step[i].st);
		EXPECT_EQ(step[i].dcc, ctrl[0]) TH_LOG("step %u: %s", i, step[i].st);
	}
}

/* Clusters (the 3-cubes of the low dimensions) elect independently. */
TEST(election_clusters)
{
	u8 st[32] = { 0 };
	u16 ctrl[4] = { NONE, NONE, NONE, NONE };

	EXPECT_EQ(4, hcube_pebble_elect(5, 3, st, ctrl));
	EXPECT_EQ(0, ctrl[0]);
	EXPECT_EQ(8, ctrl[1]);
	EXPECT_EQ(16, ctrl[2]);
	EXPECT_EQ(24, ctrl[3]);
	st[8] = HCUBE_V_FAULTY;
	st[9] = HCUBE_V_ABSENT;
	st[17] = HCUBE_V_FAULTY;	/* not a controller: nothing changes there */
	EXPECT_EQ(1, hcube_pebble_elect(5, 3, st, ctrl));
	EXPECT_EQ(10, ctrl[1]);
	EXPECT_EQ(16, ctrl[2]);
	/* a stale controller from another cluster is replaced */
	ctrl[3] = 3;
	EXPECT_EQ(1, hcube_pebble_elect(5, 3, st, ctrl));
	EXPECT_EQ(24, ctrl[3]);
	/* bad arguments: nothing done */
	EXPECT_EQ(0, hcube_pebble_elect(5, 6, st, ctrl));
	EXPECT_EQ(0, hcube_pebble_elect(HCUBE_MAX_DIM + 1, 3, st, ctrl));
}

/*
 * Several owners, one receiver (Fig. 1's c): 1, 2 and 4 hold 10 and their
 * only light neighbour is 0 (idle); the rest hold 6. T = 54 on 8: light
 * below 6 (0, room 6), excessive above 7 (3 each, 9 in all). The three
 * pebbles are {0}: 0 is contended; it receives 6, never more, each task
 * one hop, and no owner gives more than its excess.
 */
TEST(contention_one_receiver)
{
	static const u32 ld[8] = { 0, 10, 10, 6, 10, 6, 6, 6 };
	struct ctx c;
	u32 v;

	ASSERT_EQ(HCUBE_OK, ctx_plan_healthy(&c, 3, ld, HCUBE_POLICY_PEBBLE));
	EXPECT_EQ(1, c.plan.stats.contended);
	EXPECT_EQ(6, c.plan.after[0]);
	EXPECT_EQ(6, ctx_moved(&c, 1, 0) + ctx_moved(&c, 2, 0) + ctx_moved(&c, 4, 0));
	EXPECT_LE(ctx_moved(&c, 1, 0), 3);
	EXPECT_LE(ctx_moved(&c, 2, 0), 3);
	EXPECT_LE(ctx_moved(&c, 4, 0), 3);
	EXPECT_EQ(6, c.plan.stats.migrations);
	for (v = 1; v < 8; v++)
		EXPECT_GE(c.plan.after[v], 6);
	/* 3 adverts from 0, 3 pebbles, 2 or 3 closed pebbles */
	EXPECT_GE(c.plan.stats.messages, 8);
	EXPECT_LE(c.plan.stats.messages, 9);

	/* with 4 faulty: T = 44 on 7, band 6..7; 1 and 2 give 3 each */
	c.state[4] = HCUBE_V_FAULTY;
	c.load[4] = 0;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_PEBBLE));
	EXPECT_EQ(3, ctx_moved(&c, 1, 0));
	EXPECT_EQ(3, ctx_moved(&c, 2, 0));
	EXPECT_EQ(0, c.plan.after[4]);
	EXPECT_EQ(1, c.plan.stats.contended);
	ctx_free(&c);
}

/*
 * The empty pebble: 7 (12) has no light neighbour (3, 5, 6 hold the
 * average 6); its domain becomes the cluster's light vertices, here 0
 * (idle), three hops away: 6 tasks, 18 task-hops.
 */
TEST(empty_pebble)
{
	static const u32 ld[8] = { 0, 6, 6, 6, 6, 6, 6, 12 };
	struct ctx c;
	u32 v;

	ASSERT_EQ(HCUBE_OK, ctx_plan_healthy(&c, 3, ld, HCUBE_POLICY_PEBBLE));
	for (v = 0; v < 8; v++)
		EXPECT_EQ(6, c.plan.after[v]);
	EXPECT_EQ(18, c.plan.stats.migrations);
	EXPECT_EQ(0, c.plan.stats.contended);
	ctx_free(&c);
}

/*
 * TV-6: owners 000 (tasks T1-T3) and 011 (U1, U2), receivers 001, 010,
 * 100 (000's only), 111 (011's only), each room 1; a task per source.
 * Greedy gives 14; the exact optimum is 13, uniquely 001 <- T1, 010 <-
 * U2, 100 <- T2, 111 <- U1.
 */
TEST(assign_tv6)
{
	const u32 X = HCUBE_NO_ARC;
	static u32 supply[5] = { 1, 1, 1, 1, 1 }, cap[4] = { 1, 1, 1, 1 };
	const u32 cost[5 * 4] = {
		/* 001 010 100 111 */
		3, 5, 6, X,	/* T1 */
		4, 5, 6, X,	/* T2 */
		6, 7, 8, X,	/* T3 */
		2, 4, X, 1,	/* U1 */
		7, 3, X, 2,	/* U2 */
	};
	static const u32 want[5 * 4] = {
		1, 0, 0, 0,
		0, 0, 1, 0,
		0, 0, 0, 0,
		0, 0, 0, 1,
		0, 1, 0, 0,
	};
	u32 flow[5 * 4], i;
	void *work = malloc(hcube_assign_memsize(5, 4));
	u64 total;

	ASSERT_TRUE(work != NULL);
	ASSERT_EQ(HCUBE_OK, hcube_assign(5, 4, supply, cap, cost, flow, &total, work));
	EXPECT_EQ(13, total);
	for (i = 0; i < 20; i++)
		EXPECT_EQ(want[i], flow[i]) TH_LOG("entry %u", i);
	free(work);
}

/* ---- brute force ---- */

struct bf {
	u32 ns, nr, supply[3], cap[3], cost[9];
	u32 flow[9], best_flow, n;
	u64 best_cost;
};

static void bf_rec(struct bf *b, u32 cell, u32 *left_s, u32 *left_c, u32 fl,
		   u64 cost)
{
	u32 i, j, k, m;

	if (cell == b->ns * b->nr) {
		b->n++;
		if (fl > b->best_flow || (fl == b->best_flow && cost < b->best_cost)) {
			b->best_flow = fl;
			b->best_cost = cost;
		}
		return;
	}
	i = cell / b->nr;
	j = cell % b->nr;
	m = left_s[i] < left_c[j] ? left_s[i] : left_c[j];
	if (b->cost[cell] == HCUBE_NO_ARC)
		m = 0;
	for (k = 0; k <= m; k++) {
		left_s[i] -= k;
		left_c[j] -= k;
		bf_rec(b, cell + 1, left_s, left_c, fl + k,
		       cost + (u64)k * (k ? b->cost[cell] : 0));
		left_s[i] += k;
		left_c[j] += k;
	}
}

TEST(assign_brute_force)
{
	void *work = malloc(hcube_assign_memsize(3, 3));
	u32 rep, i, j, checked = 0;

	ASSERT_TRUE(work != NULL);
	for (rep = 0; rep < 3000; rep++) {
		struct bf b = { .ns = 1 + rnd_below(3), .nr = 1 + rnd_below(3) };
		u32 ls[3], lc[3], flow[9], sent[3] = { 0 }, got[3] = { 0 }, fl = 0;
		u64 total, c = 0;

		for (i = 0; i < b.ns; i++)
			ls[i] = b.supply[i] = rnd_below(4);
		for (j = 0; j < b.nr; j++)
			lc[j] = b.cap[j] = rnd_below(4);
		for (i = 0; i < b.ns * b.nr; i++)
			b.cost[i] = rnd_below(5) ? rnd_below(6) : HCUBE_NO_ARC;
		b.best_cost = ~0ULL;
		bf_rec(&b, 0, ls, lc, 0, 0);
		ASSERT_EQ(HCUBE_OK, hcube_assign(b.ns, b.nr, b.supply, b.cap,
						 b.cost, flow, &total, work));
		for (i = 0; i < b.ns; i++) {
			for (j = 0; j < b.nr; j++) {
				u32 f = flow[i * b.nr + j];

				if (f)
					EXPECT_NE(HCUBE_NO_ARC, b.cost[i * b.nr + j]);
				sent[i] += f;
				got[j] += f;
				fl += f;
				if (f)
					c += (u64)f * b.cost[i * b.nr + j];
			}
		}
		for (i = 0; i < b.ns; i++)
			EXPECT_LE(sent[i], b.supply[i]);
		for (j = 0; j < b.nr; j++)
			EXPECT_LE(got[j], b.cap[j]);
		EXPECT_EQ(b.best_flow, fl) TH_LOG("rep %u", rep);
		EXPECT_EQ(b.best_cost, total) TH_LOG("rep %u", rep);
		EXPECT_EQ(c, total);
		checked++;
	}
	TH_LOG("%u instances checked against brute force", checked);
	free(work);
}

/*
 * Larger instances (pebble's sizes: up to 8 owners and 8 * (n + 1)
 * receivers, big supplies): the flow is feasible, maximum (no augmenting
 * path left in the residual graph) and cheapest (no negative cycle in the
 * residual graph), checked here with plain Bellman-Ford.
 */
#define LS 8
#define LR 88

static bool residual_arc(u32 ns, u32 nr, const u32 *supply, const u32 *cap,
			 const u32 *cost, const u32 *flow, const u32 *sent,
			 const u32 *got, u32 u, u32 x, s64 *c)
{
	u32 s = 0, t = ns + nr + 1;

	*c = 0;
	if (u == s)
		return x >= 1 && x <= ns && sent[x - 1] < supply[x - 1];
	if (u >= 1 && u <= ns) {
		if (x == s)
			return sent[u - 1] > 0;		/* i -> S cancels */
		if (x <= ns || x == t || cost[(u - 1) * nr + x - ns - 1] == HCUBE_NO_ARC)
			return false;
		*c = cost[(u - 1) * nr + x - ns - 1];
		return true;
	}
	if (u == t)
		return x > ns && x < t && got[x - ns - 1];	/* T -> j cancels */
	if (x == t)
		return got[u - ns - 1] < cap[u - ns - 1];
	if (x == s)
		return false;
	if (x >= 1 && x <= ns && flow[(x - 1) * nr + u - ns - 1]) {
		*c = -(s64)cost[(x - 1) * nr + u - ns - 1];
		return true;
	}
	return false;
}

TEST(assign_large_optimality)
{
	static u32 supply[LS], cap[LR], cost[LS * LR], flow[LS * LR];
	static s64 dist[LS + LR + 2];
	void *work = malloc(hcube_assign_memsize(LS, LR));
	u32 rep;

	ASSERT_TRUE(work != NULL);
	for (rep = 0; rep < 60; rep++) {
		u32 ns = 1 + rnd_below(LS), nr = 1 + rnd_below(LR), nv = ns + nr + 2;
		u32 sent[LS] = { 0 }, got[LR] = { 0 }, i, j, u, x, it;
		u64 total, c = 0;
		bool changed = true, reach_t;

		for (i = 0; i < ns; i++)
			supply[i] = rnd_below(rep & 1 ? 1000 : 10);
		for (j = 0; j < nr; j++)
			cap[j] = rnd_below(rep & 1 ? 300 : 4);
		for (i = 0; i < ns * nr; i++)
			cost[i] = rnd_below(4) ? 1 + rnd_below(10) : HCUBE_NO_ARC;
		ASSERT_EQ(HCUBE_OK, hcube_assign(ns, nr, supply, cap, cost, flow,
						 &total, work));
		for (i = 0; i < ns; i++)
			for (j = 0; j < nr; j++) {
				sent[i] += flow[i * nr + j];
				got[j] += flow[i * nr + j];
				if (flow[i * nr + j])
					c += (u64)flow[i * nr + j] * cost[i * nr + j];
			}
		EXPECT_EQ(c, total);
		for (i = 0; i < ns; i++)
			EXPECT_LE(sent[i], supply[i]);
		for (j = 0; j < nr; j++)
			EXPECT_LE(got[j], cap[j]);
		/* maximum: T not reachable from S in the residual graph */
		for (u = 0; u < nv; u++)
			dist[u] = u ? -1 : 0;
		while (changed) {
			changed = false;
			for (u = 0; u < nv; u++) {
				if (dist[u] < 0)
					continue;
				for (x = 0; x < nv; x++) {
					s64 cc;

					if (dist[x] < 0 &&
					    residual_arc(ns, nr, supply, cap, cost, flow,
							 sent, got, u, x, &cc)) {
						dist[x] = 0;
						changed = true;
					}
				}
			}
		}
		reach_t = dist[ns + nr + 1] >= 0;
		EXPECT_FALSE(reach_t) TH_LOG("rep %u: augmenting path left", rep);
		/* cheapest: no negative cycle (Bellman-Ford from all nodes at 0) */
		for (u = 0; u < nv; u++)
			dist[u] = 0;
		for (it = 0; it <= nv; it++) {
			changed = false;
			for (u = 0; u < nv; u++)
				for (x = 0; x < nv; x++) {
					s64 cc;

					if (residual_arc(ns, nr, supply, cap, cost, flow,
							 sent, got, u, x, &cc) &&
					    dist[u] + cc < dist[x]) {
						dist[x] = dist[u] + cc;
						changed = true;
					}
				}
			if (!changed)
				break;
		}
		EXPECT_FALSE(changed) TH_LOG("rep %u: negative cycle", rep);
	}
	free(work);
}

/* The size bound. */
TEST(assign_too_big)
{
	u32 s = 1, cp = 1, cost = 1, flow = 0;
	u64 total;
	void *work = malloc(hcube_assign_memsize(1, 1));

	ASSERT_TRUE(work != NULL);
	EXPECT_EQ(HCUBE_E_DIM, hcube_assign(HCUBE_ASSIGN_MAX + 1, 1, &s, &cp,
					    &cost, &flow, &total, work));
	free(work);
}

TEST_HARNESS_MAIN
