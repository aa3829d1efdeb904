// SPDX-License-Identifier: GPL-2.0
/*
 * The policy table (hcube_policy_lookup()): one entry per enum
 * hcube_policy, names that parse back, scratch within
 * hcube_work_memsize(), and capability flags that say what the plans do:
 * - F_FAULT_FREE: only cwa (Nam et al. 1999: CWA needs every node), falling
 *   back to mcwa; refused on a faulty cube, planned on a fault-free one;
 * - F_TREES: mcwa and cwa, which need the topology (HCUBE_E_TOPO without
 *   it, or with one of other states); the other policies plan without;
 * - F_CONTENTION: only pebble counts contended receivers;
 * - F_AUTO_CANDIDATE: dem, mcwa, optimal in that order of rank (the
 *   documented order of auto: the cheaper to compute first); auto, the
 *   one F_CHOOSER, only ever applies a candidate.
 */
#define CORE_RNG_SEED 0x7ab1eULL
#include "kselftest_harness.h"
#include "core_util.h"

#define F_ALL (HCUBE_POLICY_F_FAULT_FREE | HCUBE_POLICY_F_TREES | \
	       HCUBE_POLICY_F_CONTENTION | HCUBE_POLICY_F_AUTO_CANDIDATE | \
	       HCUBE_POLICY_F_CHOOSER)

static u32 flags(u32 policy)
{
	return hcube_policy_lookup(policy)->flags;
}

/* Random loads on healthy vertices, about @pct percent of them faulty. */
static void random_cube(struct ctx *c, u32 pct)
{
	u32 n = 1U << c->dim, v, nh = 0;

	for (v = 0; v < n; v++) {
		c->state[v] = rnd_below(100) < pct ? HCUBE_V_FAULTY :
			      HCUBE_V_HEALTHY;
		nh += c->state[v] == HCUBE_V_HEALTHY;
	}
	if (!nh)
		c->state[rnd_below(n)] = HCUBE_V_HEALTHY;
	for (v = 0; v < n; v++)
		c->load[v] = c->state[v] == HCUBE_V_HEALTHY ? rnd_below(200) : 0;
}

TEST(one_entry_per_policy)
{
	/* the uAPI's names, in the order of enum hcube_policy */
	static const char expect[] =
		"mcwa dem cwa optimal auto rid sid sbn sbn-cube sbn-heur pebble";
	char names[sizeof(expect) + 16] = "";
	u32 i, dim;

	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(i);

		ASSERT_NE(NULL, ops);
		ASSERT_LT(strlen(names) + strlen(ops->name) + 1, sizeof(names));
		if (i)
			strcat(names, " ");
		strcat(names, ops->name);
		EXPECT_STREQ(ops->name, hcube_policy_name(i));
		EXPECT_EQ((int)i, hcube_policy_parse(ops->name));
		EXPECT_NE(NULL, ops->plan);
		ASSERT_NE(NULL, ops->work_memsize);
		EXPECT_EQ(0, ops->flags & ~F_ALL);
		for (dim = 0; dim <= HCUBE_MAX_DIM; dim++)
			EXPECT_LE(ops->work_memsize(dim), hcube_work_memsize(dim))
				TH_LOG("%s, n = %u", ops->name, dim);
	}
	EXPECT_STREQ(expect, names);
	EXPECT_EQ(NULL, hcube_policy_lookup(__HCUBE_POLICY_MAX));
	EXPECT_EQ(NULL, hcube_policy_lookup(~0U));
	EXPECT_STREQ("?", hcube_policy_name(__HCUBE_POLICY_MAX));
	EXPECT_EQ(-1, hcube_policy_parse("sbn_cube"));
	EXPECT_EQ(-1, hcube_policy_parse("MCWA"));
	EXPECT_EQ(-1, hcube_policy_parse(""));
}

TEST(fault_free_and_its_fallback)
{
	struct ctx c;
	u32 i;

	ASSERT_EQ(0, ctx_init(&c, 3));
	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		bool ff = flags(i) & HCUBE_POLICY_F_FAULT_FREE;
		u32 fb = hcube_policy_lookup(i)->fallback;
		int err;

		EXPECT_EQ(i == HCUBE_POLICY_CWA, ff) TH_LOG("%s", hcube_policy_name(i));
		if (ff) {
			ASSERT_EQ(HCUBE_POLICY_MCWA, fb);
			EXPECT_FALSE(flags(fb) & HCUBE_POLICY_F_FAULT_FREE);
		}
		/* Nam et al. (1999), Example 1: fault-free, every policy plans */
		memcpy(c.load, (u32[]){ 19, 11, 2, 9, 0, 9, 10, 4 }, sizeof(u32) * 8);
		memset(c.state, HCUBE_V_HEALTHY, 8);
		EXPECT_EQ(HCUBE_OK, ctx_plan(&c, i)) TH_LOG("%s", hcube_policy_name(i));
		/* vertex 100 faulty (it holds no task): cwa is refused */
		c.state[4] = HCUBE_V_FAULTY;
		err = ctx_plan(&c, i);
		EXPECT_EQ(ff ? HCUBE_E_NEED_MCWA : HCUBE_OK, err)
			TH_LOG("%s: %s", hcube_policy_name(i), hcube_strerror(err));
		if (ff)
			EXPECT_EQ(HCUBE_OK, ctx_plan(&c, fb));
	}
	ctx_free(&c);
}

TEST(trees_need_the_topology)
{
	struct ctx c, other;
	u32 i;

	ASSERT_EQ(0, ctx_init(&c, 4));
	ASSERT_EQ(0, ctx_init(&other, 4));
	random_cube(&c, 0);
	memset(other.state, HCUBE_V_HEALTHY, 16);
	other.state[5] = HCUBE_V_FAULTY;
	ASSERT_EQ(HCUBE_OK, hcube_topo_build(&other.topo, 4, other.state, other.work));
	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		bool trees = flags(i) & HCUBE_POLICY_F_TREES;
		int err;

		EXPECT_EQ(i == HCUBE_POLICY_MCWA || i == HCUBE_POLICY_CWA, trees)
			TH_LOG("%s", hcube_policy_name(i));
		/* no topology */
		err = hcube_plan_build(&c.plan, i, &c.cube, NULL, c.work);
		EXPECT_EQ(trees ? HCUBE_E_TOPO : HCUBE_OK, err)
			TH_LOG("%s: %s", hcube_policy_name(i), hcube_strerror(err));
		if (i == HCUBE_POLICY_AUTO && !err)
			EXPECT_FALSE(flags(c.plan.applied) & HCUBE_POLICY_F_TREES);
		/* the topology of other states (vertex 0101 faulty) */
		err = hcube_plan_build(&c.plan, i, &c.cube, &other.topo, c.work);
		EXPECT_EQ(trees ? HCUBE_E_TOPO : HCUBE_OK, err)
			TH_LOG("%s: %s", hcube_policy_name(i), hcube_strerror(err));
		/* its own */
		EXPECT_EQ(HCUBE_OK, ctx_plan(&c, i)) TH_LOG("%s", hcube_policy_name(i));
	}
	ctx_free(&c);
	ctx_free(&other);
}

TEST(only_pebble_counts_contention)
{
	struct ctx c;
	u32 iter, i, seen = 0;

	ASSERT_EQ(0, ctx_init(&c, 5));
	for (i = 0; i < __HCUBE_POLICY_MAX; i++)
		EXPECT_EQ(i == HCUBE_POLICY_PEBBLE,
			  !!(flags(i) & HCUBE_POLICY_F_CONTENTION));
	for (iter = 0; iter < 300; iter++) {
		random_cube(&c, rnd_below(30));
		for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
			if ((flags(i) & HCUBE_POLICY_F_FAULT_FREE) &&
			    memchr(c.state, HCUBE_V_FAULTY, 32))
				continue;
			ASSERT_EQ(HCUBE_OK, ctx_plan(&c, i));
			if (flags(i) & HCUBE_POLICY_F_CONTENTION)
				seen += c.plan.stats.contended > 0;
			else
				ASSERT_EQ(0, c.plan.stats.contended)
					TH_LOG("%s", hcube_policy_name(i));
		}
	}
	/* the flag is not idle: some random cube has a contended receiver */
	EXPECT_LT(0, seen);
	ctx_free(&c);
}

TEST(auto_chooses_among_its_candidates)
{
	static const u32 expect[] = {
		HCUBE_POLICY_DEM, HCUBE_POLICY_MCWA, HCUBE_POLICY_OPTIMAL
	};
	struct ctx c;
	u32 i, j, iter, nc = 0;

	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(i);
		bool cand = ops->flags & HCUBE_POLICY_F_AUTO_CANDIDATE;

		EXPECT_EQ(i == HCUBE_POLICY_AUTO,
			  !!(ops->flags & HCUBE_POLICY_F_CHOOSER));
		if (!cand) {
			EXPECT_EQ(0, ops->auto_rank) TH_LOG("%s", ops->name);
			continue;
		}
		nc++;
		EXPECT_LT(0, ops->auto_rank) TH_LOG("%s", ops->name);
	}
	ASSERT_EQ(ARRAY_SIZE(expect), nc);
	for (j = 1; j < ARRAY_SIZE(expect); j++)
		EXPECT_LT(hcube_policy_lookup(expect[j - 1])->auto_rank,
			  hcube_policy_lookup(expect[j])->auto_rank);

	ASSERT_EQ(0, ctx_init(&c, 4));
	for (iter = 0; iter < 200; iter++) {
		random_cube(&c, rnd_below(40));
		ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_AUTO));
		EXPECT_EQ(HCUBE_POLICY_AUTO, c.plan.policy);
		EXPECT_TRUE(flags(c.plan.applied) & HCUBE_POLICY_F_AUTO_CANDIDATE)
			TH_LOG("applied %s", hcube_policy_name(c.plan.applied));
	}
	/* equal loads: every candidate plans nothing, the lowest rank wins */
	for (i = 0; i < 16; i++) {
		c.state[i] = HCUBE_V_HEALTHY;
		c.load[i] = 7;
	}
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_AUTO));
	EXPECT_EQ(HCUBE_POLICY_DEM, c.plan.applied);
	EXPECT_EQ(0, c.plan.ntransfers);
	ctx_free(&c);
}

TEST_HARNESS_MAIN
