// SPDX-License-Identifier: GPL-2.0
/*
 * RID and SID (Sections 1 and 3.1 of K. Nam, J. Seo, S. Lee and J. Kim,
 * "Synchronous Load Balancing in Hypercube Multicomputers with Faulty
 * Nodes", Journal of Parallel and Distributed Computing 58, 1999), values
 * computed by hand:
 * - the paper's formula: node i asks neighbour k for phi = l_avg * l(k) /
 *   sum l(k), l_avg = sum l(k) / (neighbours + 1). The core asks for
 *   (l_avg - l(i)) * l(k) / sum with l_avg over i and its neighbours ("the
 *   average number of tasks owned by node i and its neighbor nodes"); for
 *   an idle node (l(i) = 0) the two are the same number;
 * - the threshold: RID asks only when l(i) < l_avg, SID sends only when
 *   l(i) > l_avg, to neighbours below l_avg, in proportion to their
 *   deficits;
 * - faulty, offline and absent neighbours are skipped: neither asked nor
 *   counted in d, the sum or l_avg;
 * - rounding down, and a giver never ends below the vertex it gives to.
 */
#include <stdio.h>
#include "kselftest_harness.h"
#include "core_util.h"

/* The paper's phi for an idle asker: l_avg * lk / sum, l_avg = sum / (d + 1). */
TEST(rid_phi_paper_formula)
{
	u32 d, lk, sum;

	/* d = 3, loads 12, 10, 8: l_avg = 7.5, phi = 7.5 * lk / 30 = lk / 4 */
	EXPECT_EQ(3, hcube_rid_phi(3, 30, 0, 12));
	EXPECT_EQ(2, hcube_rid_phi(3, 30, 0, 10));	/* 2.5 */
	EXPECT_EQ(2, hcube_rid_phi(3, 30, 0, 8));
	/* the paper's formula for an idle asker, every small case */
	for (d = 1; d <= 10; d++)
		for (sum = 1; sum <= 40; sum++)
			for (lk = 0; lk <= sum; lk++)
				EXPECT_EQ(lk / (d + 1), hcube_rid_phi(d, sum, 0, lk));
}

TEST(rid_phi_with_own_load)
{
	/* own 2, neighbours 12, 10, 8: l_avg = 32 / 4 = 8, asks 6 * lk / 30 */
	EXPECT_EQ(2, hcube_rid_phi(3, 30, 2, 12));	/* 2.4 */
	EXPECT_EQ(2, hcube_rid_phi(3, 30, 2, 10));	/* 2 */
	EXPECT_EQ(1, hcube_rid_phi(3, 30, 2, 8));	/* 1.6 */
	/* threshold: not below l_avg, nothing asked */
	EXPECT_EQ(0, hcube_rid_phi(3, 24, 8, 12));	/* l_avg = 8 */
	EXPECT_EQ(0, hcube_rid_phi(3, 24, 9, 12));
	EXPECT_EQ(0, hcube_rid_phi(3, 24, 7, 12));	/* (31/4 - 7) * 12 / 24 = 0.375 */
	EXPECT_EQ(1, hcube_rid_phi(3, 24, 4, 12));	/* (28/4 - 4) * 12 / 24 = 1.5 */
	/* no neighbour, no tasks around */
	EXPECT_EQ(0, hcube_rid_phi(0, 0, 0, 0));
	EXPECT_EQ(0, hcube_rid_phi(2, 0, 0, 0));
	/* large values stay exact: l_avg - own = 2^31, half of it from k */
	EXPECT_EQ(1U << 30, hcube_rid_phi(1, 1ULL << 32, 0, 1U << 31));
}

TEST(sid_psi)
{
	u64 h;

	/*
	 * own 20, neighbours 2, 4, 10: l_avg = 36 / 4 = 9, surplus 11;
	 * deficits 7, 5 and none (10 > 9), H = 12: psi = 11 * 7 / 12 = 6.4,
	 * 11 * 5 / 12 = 4.6, 0. The core keeps deficits scaled by d + 1.
	 */
	EXPECT_EQ(28, hcube_sid_deficit(3, 16, 20, 2));
	EXPECT_EQ(20, hcube_sid_deficit(3, 16, 20, 4));
	EXPECT_EQ(0, hcube_sid_deficit(3, 16, 20, 10));
	h = 28 + 20;
	EXPECT_EQ(6, hcube_sid_psi(3, 16, 20, 2, h));
	EXPECT_EQ(4, hcube_sid_psi(3, 16, 20, 4, h));
	EXPECT_EQ(0, hcube_sid_psi(3, 16, 20, 10, h));
	/* threshold: not above l_avg, nothing sent */
	EXPECT_EQ(0, hcube_sid_psi(3, 27, 9, 2, 28));	/* l_avg = 9 */
	EXPECT_EQ(0, hcube_sid_psi(3, 30, 8, 2, 28));
	/* one neighbour below: the whole surplus goes there */
	EXPECT_EQ(4, hcube_sid_psi(1, 0, 8, 0, hcube_sid_deficit(1, 0, 8, 0)));
	/* no deficit anywhere */
	EXPECT_EQ(0, hcube_sid_psi(2, 4, 8, 4, 0));
	/*
	 * big numbers, exact: own M = 2^32 - 1 and nine idle neighbours, H
	 * twice one deficit: psi = (9M/10) * (M/10) / (2M/10) = floor(9M / 20)
	 */
	EXPECT_EQ(1932735282U,
		  hcube_sid_psi(9, 0, 0xffffffffU, 0,
				2 * hcube_sid_deficit(9, 0, 0xffffffffU, 0)));
}

/*
 * A 2-cube with 2 faulty: 0 (load 0) and 3 (4) see only 1 (8); 1 sees 0
 * and 3.
 */
FIXTURE(faulty_neighbour) {
	struct ctx c;
};

FIXTURE_SETUP(faulty_neighbour)
{
	static const u32 ld[4] = { 0, 8, 0, 4 };

	ASSERT_EQ(0, ctx_init(&self->c, 2));
	memcpy(self->c.load, ld, sizeof(ld));
	self->c.state[2] = HCUBE_V_FAULTY;
}

FIXTURE_TEARDOWN(faulty_neighbour)
{
	ctx_free(&self->c);
}

/*
 * RID: 0 sees only 1: d = 1, l_avg = 4, asks 4 * 8 / 8 = 4, within half
 * the lead (4). 3 sees only 1: l_avg 6, asks 2 * 8 / 8 = 2. 1 (8;
 * neighbours 0 and 3, sum 4) asks nothing. Had the faulty 2 counted as an
 * idle neighbour, 0 would have asked 8/3.
 */
TEST_F(faulty_neighbour, rid_skips_it)
{
	struct ctx *c = &self->c;

	ASSERT_EQ(HCUBE_OK, ctx_plan(c, HCUBE_POLICY_RID));
	EXPECT_EQ(4, ctx_moved(c, 1, 0));
	EXPECT_EQ(2, ctx_moved(c, 1, 3));
	EXPECT_EQ(2, c->plan.ntransfers);
	EXPECT_EQ(4, c->plan.after[0]);
	EXPECT_EQ(2, c->plan.after[1]);
	EXPECT_EQ(6, c->plan.after[3]);
	/* 2 messages (request, reply) per asking vertex and healthy neighbour */
	EXPECT_EQ(4, c->plan.stats.messages);

	/* the same with 2 absent and offline: the same plan */
	c->state[2] = HCUBE_V_ABSENT;
	ASSERT_EQ(HCUBE_OK, ctx_plan(c, HCUBE_POLICY_RID));
	EXPECT_EQ(4, ctx_moved(c, 1, 0));
	c->state[2] = HCUBE_V_OFFLINE;
	ASSERT_EQ(HCUBE_OK, ctx_plan(c, HCUBE_POLICY_RID));
	EXPECT_EQ(2, ctx_moved(c, 1, 3));
}

/*
 * SID: 1 (8) sees 0 (0) and 3 (4): l_avg = 4, surplus 4, deficits 4 and
 * 0: sends 4 to 0. 3 (4, sees 1 only: l_avg 6) sends nothing; 2 is never
 * sent to.
 */
TEST_F(faulty_neighbour, sid_skips_it)
{
	struct ctx *c = &self->c;

	ASSERT_EQ(HCUBE_OK, ctx_plan(c, HCUBE_POLICY_SID));
	EXPECT_EQ(1, c->plan.ntransfers);
	EXPECT_EQ(4, ctx_moved(c, 1, 0));
	EXPECT_EQ(4, c->plan.after[0]);
	EXPECT_EQ(4, c->plan.after[1]);
	EXPECT_EQ(4, c->plan.after[3]);
	EXPECT_EQ(4, c->plan.stats.messages);
}

/*
 * A 3-cube, RID: 0 idle with neighbours 1 (12), 2 (10), 4 (8): l_avg 7.5,
 * asks 3, 2, 2 (the paper's own formula). 3 (9; neighbours 10, 12, 9:
 * l_avg 10) and 5 (9; 8, 9, 12: l_avg 9.5) are below their averages and
 * ask too, but their shares round down to 0: (10 - 9) * 12 / 31 and
 * (9.5 - 9) * 12 / 29. 1, 2, 4, 6, 7 are not below theirs.
 */
TEST(rid_plan_three_cube)
{
	static const u32 ld[8] = { 0, 12, 10, 9, 8, 9, 9, 9 };
	struct ctx c;

	ASSERT_EQ(HCUBE_OK, ctx_plan_healthy(&c, 3, ld, HCUBE_POLICY_RID));
	EXPECT_EQ(3, ctx_moved(&c, 1, 0));
	EXPECT_EQ(2, ctx_moved(&c, 2, 0));
	EXPECT_EQ(2, ctx_moved(&c, 4, 0));
	EXPECT_EQ(3, c.plan.ntransfers);
	/* three askers, each 2 messages per healthy neighbour */
	EXPECT_EQ(18, c.plan.stats.messages);
	EXPECT_EQ(7, c.plan.after[0]);
	ctx_free(&c);
}

TEST_HARNESS_MAIN
