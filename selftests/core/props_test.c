// SPDX-License-Identifier: GPL-2.0
/*
 * Properties of the hcube core over random instances: n = 1..8 (and a few
 * at 9..10), random faulty/offline/absent sets leaving at least one healthy
 * vertex, loads 0..1000, fixed seeds. Every plan is replayed here, apart
 * from the core's own replay, and a failure prints the instance.
 */
#include <stdio.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0
#include "core_util.h"

/* A random instance; about a quarter of them fault-free. */
static void make_instance(struct ctx *c, u32 max_load)
{
	u32 n = 1U << c->dim, v, nh = 0;
	u32 pct = rnd_below(4) ? rnd_below(60) : 0;

	for (v = 0; v < n; v++) {
		c->state[v] = HCUBE_V_HEALTHY;
		if (rnd_below(100) < pct)
			c->state[v] = 1 + rnd_below(HCUBE_V_NSTATES - 1);
		nh += c->state[v] == HCUBE_V_HEALTHY;
	}
	if (!nh)
		c->state[rnd_below(n)] = HCUBE_V_HEALTHY;
	for (v = 0; v < n; v++)
		c->load[v] = c->state[v] == HCUBE_V_HEALTHY ?
			     rnd_below(max_load + 1) : 0;
}

static void dump(struct __test_metadata *_metadata, const struct ctx *c,
		 const char *policy, u64 seed, u32 iter)
{
	char buf[8192];
	int len = 0;
	u32 v;

	for (v = 0; v < (1U << c->dim) && len < 8000; v++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u%s",
				v ? "," : "", c->load[v],
				c->state[v] ? "F" : "");
	TH_LOG("policy %s seed %llu instance %u dim %u loads (F = unusable) %s",
	       policy, (unsigned long long)seed, iter, c->dim, buf);
}

/* Replay independently; returns a description of the first broken rule. */
static const char *replay(const struct ctx *c, s64 *cur)
{
	const struct hcube_plan *p = &c->plan;
	u32 n = 1U << c->dim, i, v;
	u64 before = 0, after = 0, hops = 0, moved = 0;

	for (v = 0; v < n; v++) {
		cur[v] = c->load[v];
		before += c->load[v];
	}
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		if (x->from >= n || x->to >= n)
			return "vertex out of range";
		if (__builtin_popcount(x->from ^ x->to) != 1)
			return "transfer not along one edge";
		if (c->state[x->from] != HCUBE_V_HEALTHY ||
		    c->state[x->to] != HCUBE_V_HEALTHY)
			return "transfer touches an unusable vertex";
		if (i && x->step < p->transfers[i - 1].step)
			return "steps out of order";
		cur[x->from] -= x->count;
		cur[x->to] += x->count;
		if (cur[x->from] < 0)
			return "negative load on replay";
		hops += x->count;
	}
	for (v = 0; v < n; v++) {
		if (cur[v] != p->after[v])
			return "after[] differs from the replay";
		after += cur[v];
		if (c->load[v] > cur[v])
			moved += c->load[v] - cur[v];
	}
	if (before != after)
		return "tasks not conserved";
	if (hops != p->stats.migrations)
		return "migrations statistic wrong";
	if (moved != p->stats.moved_tasks)
		return "moved_tasks statistic wrong";
	if (p->ntransfers != p->stats.transfers)
		return "transfers statistic wrong";
	return NULL;
}

/* Spread (max - min) of the final loads over the vertices selected. */
static u32 spread(const struct ctx *c, const s64 *cur, bool attached_only)
{
	u32 n = 1U << c->dim, v;
	s64 max = -1, min = -1;

	for (v = 0; v < n; v++) {
		if (c->state[v] != HCUBE_V_HEALTHY)
			continue;
		if (attached_only && c->topo.dist[v] == HCUBE_DIST_NONE)
			continue;
		if (max < 0 || cur[v] > max)
			max = cur[v];
		if (min < 0 || cur[v] < min)
			min = cur[v];
	}
	return (u32)(max - min);
}

static bool fault_free(const struct ctx *c)
{
	u32 v;

	for (v = 0; v < (1U << c->dim); v++)
		if (c->state[v] != HCUBE_V_HEALTHY)
			return false;
	return true;
}

static s64 cur[HCUBE_MAX_VERTICES];
static struct hcube_route routes[HCUBE_MAX_DIM * HCUBE_MAX_VERTICES +
				 10 * HCUBE_MAX_VERTICES];

/* The plan's routes: every task moves once, as many as the net count. */
static const char *check_routes(struct ctx *c)
{
	static s64 out[HCUBE_MAX_VERTICES], in[HCUBE_MAX_VERTICES];
	u32 n = 1U << c->dim, nr, i, v;
	u64 sum = 0, hops = 0;

	if (hcube_routes_max(c->dim) > ARRAY_SIZE(routes))
		return "routes_max larger than expected";
	if (hcube_plan_routes(&c->plan, c->load, routes, hcube_routes_max(c->dim),
			      &nr, c->work))
		return "hcube_plan_routes failed";
	for (v = 0; v < n; v++)
		out[v] = in[v] = 0;
	for (i = 0; i < nr; i++) {
		const struct hcube_route *r = &routes[i];

		if (r->from >= n || r->to >= n || r->from == r->to || !r->count)
			return "bad route";
		if (c->state[r->from] != HCUBE_V_HEALTHY ||
		    c->state[r->to] != HCUBE_V_HEALTHY)
			return "route touches an unusable vertex";
		if (r->hops < __builtin_popcount(r->from ^ r->to))
			return "route shorter than the Hamming distance";
		out[r->from] += r->count;
		in[r->to] += r->count;
		sum += r->count;
		hops += (u64)r->count * r->hops;
	}
	for (v = 0; v < n; v++) {
		s64 net = (s64)c->load[v] - (s64)c->plan.after[v];

		if (out[v] && in[v])
			return "a vertex both sends and receives";
		if (out[v] - in[v] != net)
			return "routes do not realise the final loads";
	}
	if (sum != c->plan.stats.moved_tasks)
		return "routes do not sum to moved_tasks";
	if (hops > c->plan.stats.migrations)
		return "routes take more hops than the plan";
	return NULL;
}

/* Healthy neighbours' count and load sum of @v in the cube of @c. */
static u32 nbr_sum(const struct ctx *c, u32 v, u64 *sum)
{
	u32 d, k = 0;

	*sum = 0;
	for (d = 0; d < c->dim; d++) {
		u32 x = v ^ (1U << d);

		if (c->state[x] == HCUBE_V_HEALTHY) {
			k++;
			*sum += c->load[x];
		}
	}
	return k;
}

/*
 * RID and SID: who may send to whom and how much. RID: only a vertex
 * below its neighbourhood average receives, never more in all than
 * floor(l_avg - l), each time from a heavier neighbour and at most half
 * the difference. SID: mirrored.
 */
static const char *check_diffusion(const struct ctx *c, bool sender)
{
	static u64 got[HCUBE_MAX_VERTICES], sent[HCUBE_MAX_VERTICES];
	const struct hcube_plan *p = &c->plan;
	u32 n = 1U << c->dim, i, v;

	for (v = 0; v < n; v++)
		got[v] = sent[v] = 0;
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		if (x->step != 1)
			return "diffusion transfer not in step 1";
		if (c->load[x->from] <= c->load[x->to])
			return "diffusion transfer from a vertex not heavier";
		if (x->count > (c->load[x->from] - c->load[x->to]) / 2)
			return "diffusion transfer above half the difference";
		got[x->to] += x->count;
		sent[x->from] += x->count;
	}
	for (v = 0; v < n; v++) {
		u64 sum;
		u32 d = nbr_sum(c, v, &sum);
		u64 all = sum + c->load[v];

		if (!sender) {
			if (got[v] && (u64)(d + 1) * c->load[v] >= all)
				return "RID: a vertex not below l_avg received";
			/* got <= (l_avg - l) = (all - (d + 1) l) / (d + 1) */
			if (got[v] && got[v] * (d + 1) > all - (u64)(d + 1) * c->load[v])
				return "RID: received more than l_avg - l";
		} else {
			if (sent[v] && (u64)(d + 1) * c->load[v] <= all)
				return "SID: a vertex not above l_avg sent";
			if (sent[v] && sent[v] * (d + 1) > (u64)(d + 1) * c->load[v] - all)
				return "SID: sent more than l - l_avg";
		}
	}
	return NULL;
}

/* pebble: receivers stay within capacity, owners keep their share. */
static const char *check_pebble(const struct ctx *c, const s64 *cur)
{
	u32 n = 1U << c->dim, v, h = 0, fl, ce;
	u64 total = 0;

	for (v = 0; v < n; v++) {
		if (c->state[v] != HCUBE_V_HEALTHY)
			continue;
		h++;
		total += c->load[v];
	}
	fl = (u32)(total / h);
	ce = fl + (total % h ? 1 : 0);
	for (v = 0; v < n; v++) {
		if (c->state[v] != HCUBE_V_HEALTHY)
			continue;
		if (c->load[v] < fl && (cur[v] < c->load[v] || cur[v] > fl))
			return "pebble: a light vertex ended above its capacity or lost tasks";
		if (c->load[v] > ce && (cur[v] > c->load[v] || cur[v] < ce))
			return "pebble: an owner gained tasks or gave beyond its excess";
		if (c->load[v] >= fl && c->load[v] <= ce && cur[v] != c->load[v])
			return "pebble: a vertex neither light nor excessive changed";
	}
	return NULL;
}

/* The least-loaded healthy vertex (lowest label), the SBN initiator. */
static u32 least_loaded(const struct ctx *c)
{
	u32 v, best = ~0U;

	for (v = 0; v < (1U << c->dim); v++)
		if (c->state[v] == HCUBE_V_HEALTHY &&
		    (best == ~0U || c->load[v] < c->load[best]))
			best = v;
	return best;
}

static u64 cand_hops[__HCUBE_POLICY_MAX];
static u32 cand_imb[__HCUBE_POLICY_MAX];
static bool cand_ok[__HCUBE_POLICY_MAX];
static u8 flow_mem[1 << 20];
static u32 plan_count[__HCUBE_POLICY_MAX];

static void run_instances(struct __test_metadata *_metadata, u64 seed,
			  u32 count, u32 dmin, u32 dmax)
{
	static struct ctx ctxs[HCUBE_MAX_DIM + 1];
	u32 iter, d, i;

	for (d = dmin; d <= dmax; d++)
		ASSERT_EQ(0, ctx_init(&ctxs[d], d));
	rng_state = seed;
	for (iter = 0; iter < count; iter++) {
		struct ctx *c = &ctxs[dmin + rnd_below(dmax - dmin + 1)];

		make_instance(c, 1000);
		/* every policy of the table, in the order of enum hcube_policy */
		for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
			enum hcube_policy pol = i;
			u32 flags = hcube_policy_lookup(pol)->flags;
			const char *name = hcube_policy_name(pol);
			const char *bad;
			int err;

			cand_ok[pol] = false;
			err = ctx_plan(c, pol);
			if ((flags & HCUBE_POLICY_F_FAULT_FREE) && !fault_free(c)) {
				EXPECT_EQ(HCUBE_E_NEED_MCWA, err)
					dump(_metadata, c, name, seed, iter);
				continue;
			}
			if (err != HCUBE_OK) {
				EXPECT_EQ(HCUBE_OK, err)
					dump(_metadata, c, name, seed, iter);
				continue;
			}
			bad = replay(c, cur);
			if (!bad)
				bad = check_routes(c);
			if (!bad && (pol == HCUBE_POLICY_RID || pol == HCUBE_POLICY_SID))
				bad = check_diffusion(c, pol == HCUBE_POLICY_SID);
			if (!bad && pol == HCUBE_POLICY_PEBBLE)
				bad = check_pebble(c, cur);
			if (!bad && hcube_imbalance(c->dim, c->state, c->plan.after,
						    c->work) != c->plan.stats.imbalance)
				bad = "imbalance statistic wrong";
			if (bad) {
				EXPECT_EQ(NULL, bad)
					dump(_metadata, c, name, seed, iter);
				TH_LOG("%s", bad);
				continue;
			}
			plan_count[pol]++;
			cand_ok[pol] = true;
			cand_hops[pol] = c->plan.stats.migrations;
			cand_imb[pol] = c->plan.stats.imbalance;
			if (pol == HCUBE_POLICY_OPTIMAL) {
				u64 opt;

				/* balanced, and optimal for its own final loads */
				EXPECT_EQ(0, c->plan.stats.imbalance)
					dump(_metadata, c, name, seed, iter);
				ASSERT_EQ(HCUBE_OK, hcube_mincost(c->dim, c->state, c->load,
								  c->plan.after, &opt,
								  flow_mem));
				EXPECT_EQ(opt, c->plan.stats.migrations)
					dump(_metadata, c, name, seed, iter);
				/* never more than a balanced MCWA plan */
				if (cand_ok[HCUBE_POLICY_MCWA] && !cand_imb[HCUBE_POLICY_MCWA])
					EXPECT_LE(opt, cand_hops[HCUBE_POLICY_MCWA])
						dump(_metadata, c, name, seed, iter);
				continue;
			}
			if (flags & HCUBE_POLICY_F_CHOOSER) {
				u32 k;

				/* the least imbalance, then the fewest task-hops */
				for (k = 0; k < __HCUBE_POLICY_MAX; k++) {
					if (!cand_ok[k] ||
					    !(hcube_policy_lookup(k)->flags &
					      HCUBE_POLICY_F_AUTO_CANDIDATE))
						continue;
					EXPECT_LE(c->plan.stats.imbalance, cand_imb[k])
						dump(_metadata, c, name, seed, iter);
					if (c->plan.stats.imbalance == cand_imb[k])
						EXPECT_LE(c->plan.stats.migrations, cand_hops[k])
							dump(_metadata, c, name, seed, iter);
				}
				continue;
			}
			if (pol == HCUBE_POLICY_SBN || pol == HCUBE_POLICY_SBN_CUBE ||
			    pol == HCUBE_POLICY_SBN_HEUR) {
				EXPECT_EQ(least_loaded(c), c->plan.root)
					dump(_metadata, c, name, seed, iter);
				if (pol == HCUBE_POLICY_SBN && fault_free(c) && c->dim)
					EXPECT_EQ(3 * ((1U << c->dim) - 1),
						  c->plan.stats.messages -
						  c->plan.stats.job_messages);
				if (pol == HCUBE_POLICY_SBN_CUBE && fault_free(c) && c->dim)
					EXPECT_EQ(3 * (1U << c->dim) - 4,
						  c->plan.stats.messages -
						  c->plan.stats.job_messages);
				continue;
			}
			if (pol != HCUBE_POLICY_MCWA && pol != HCUBE_POLICY_CWA &&
			    pol != HCUBE_POLICY_DEM)
				continue;
			if (pol == HCUBE_POLICY_DEM) {
				if (fault_free(c))
					EXPECT_LE(spread(c, cur, false), c->dim)
						dump(_metadata, c, name, seed, iter);
				continue;
			}
			/* MCWA and CWA: exact balance over the attached vertices. */
			EXPECT_LE(spread(c, cur, true), 1)
				dump(_metadata, c, name, seed, iter);
			for (d = 0; d < (1U << c->dim); d++) {
				if (c->state[d] == HCUBE_V_HEALTHY &&
				    c->topo.dist[d] == HCUBE_DIST_NONE)
					EXPECT_EQ(c->load[d], cur[d])
						dump(_metadata, c, name, seed, iter);
			}
			EXPECT_EQ(4 * c->topo.depth + 3 * c->topo.cb_dim,
				  c->plan.stats.comm_steps);
		}
		if (_metadata->passed == 0)
			break;
	}
	for (d = dmin; d <= dmax; d++)
		ctx_free(&ctxs[d]);
}

TEST(plans_small_cubes)
{
	u32 k;

	run_instances(_metadata, 0x1234567ULL, 12000, 1, 8);
	for (k = 0; k < __HCUBE_POLICY_MAX; k++)
		TH_LOG("%s: %u plans checked", hcube_policy_name(k), plan_count[k]);
}

/*
 * Evacuation: every task goes to a healthy vertex at the smallest Hamming
 * distance, and the targets end level (within one of each other, except
 * those already above the level).
 */
TEST(evacuation)
{
	static struct ctx ctxs[9];
	static u32 out[HCUBE_MAX_VERTICES];
	u32 iter, d;

	for (d = 1; d <= 8; d++)
		ASSERT_EQ(0, ctx_init(&ctxs[d], d));
	rng_state = 0x5eed5eedULL;
	for (iter = 0; iter < 10000; iter++) {
		u32 dim = 1 + rnd_below(8), n = 1U << dim, v, from, best = 99;
		struct ctx *c = &ctxs[dim];
		u32 count = rnd_below(4) ? rnd_below(3000) : 0;
		u64 total = 0, lo_final = ~0ULL, hi_got = 0;
		int err;

		make_instance(c, 100);
		from = rnd_below(n);
		c->load[from] = 0;
		for (v = 0; v < n; v++) {
			out[v] = 0;
			if (v != from && c->state[v] == HCUBE_V_HEALTHY &&
			    (u32)__builtin_popcount(v ^ from) < best)
				best = __builtin_popcount(v ^ from);
		}
		err = hcube_evacuate(dim, c->state, c->load, from, count, out);
		if (best == 99) {
			EXPECT_EQ(HCUBE_E_NO_HEALTHY, err);
			continue;
		}
		ASSERT_EQ(HCUBE_OK, err);
		for (v = 0; v < n; v++) {
			u64 fin = (u64)c->load[v] + out[v];

			total += out[v];
			if (out[v]) {
				EXPECT_EQ(HCUBE_V_HEALTHY, c->state[v]);
				EXPECT_EQ(best, (u32)__builtin_popcount(v ^ from))
					TH_LOG("iter %u", iter);
				if (fin > hi_got)
					hi_got = fin;
			}
			if (v != from && c->state[v] == HCUBE_V_HEALTHY &&
			    (u32)__builtin_popcount(v ^ from) == best && fin < lo_final)
				lo_final = fin;
		}
		EXPECT_EQ(count, total) TH_LOG("iter %u", iter);
		if (count)
			EXPECT_LE(hi_got, lo_final + 1) TH_LOG("iter %u", iter);
		if (_metadata->passed == 0)
			break;
	}
	for (d = 1; d <= 8; d++)
		ctx_free(&ctxs[d]);
}

TEST(plans_large_cubes)
{
	run_instances(_metadata, 0xfeedbeefULL, 300, 9, 10);
}

/*
 * The chosen C_b: a maximum-size healthy subcube, no candidate of the same
 * component with a smaller (depth, total distance), and every healthy vertex
 * of its component attached with a parent one step closer. Theorem 1: a
 * candidate that Algorithm 4 accepts has tree depth at most n - k and
 * attaches every healthy vertex.
 */
TEST(topology_choice_and_theorem1)
{
	static struct ctx ctxs[9], probe[9];
	u32 iter, accepted = 0, checked = 0;

	for (iter = 1; iter <= 8; iter++) {
		ASSERT_EQ(0, ctx_init(&ctxs[iter], iter));
		ASSERT_EQ(0, ctx_init(&probe[iter], iter));
	}
	rng_state = 0xabcdef01ULL;
	for (iter = 0; iter < 10000; iter++) {
		u32 dim = 1 + rnd_below(8), n = 1U << dim, all = n - 1;
		struct ctx *c = &ctxs[dim], *p = &probe[dim];
		struct hcube_topo *t = &c->topo;
		u32 k, mask, v;

		make_instance(c, 0);
		ASSERT_EQ(HCUBE_OK, hcube_topo_build(t, dim, c->state, c->work));
		k = t->cb_dim;
		for (v = 0; v < n; v++) {
			bool cb = (v & ~t->cb_mask) == t->cb_base;

			if (cb) {
				EXPECT_EQ(HCUBE_V_HEALTHY, c->state[v]);
				EXPECT_EQ(0, t->dist[v]);
				EXPECT_EQ(-1, t->parent[v]);
				continue;
			}
			if (t->dist[v] == HCUBE_DIST_NONE) {
				EXPECT_EQ(-1, t->parent[v]);
				continue;
			}
			ASSERT_GE(t->parent[v], 0);
			EXPECT_EQ(1, __builtin_popcount(v ^ (u32)t->parent[v]));
			EXPECT_EQ(t->dist[v], t->dist[t->parent[v]] + 1);
			EXPECT_LE(t->dist[v], t->depth);
		}
		for (mask = 0; mask <= all; mask++) {
			u32 base = 0;

			if ((u32)__builtin_popcount(mask) < k + 1)
				continue;
			/* no healthy subcube larger than C_b */
			do {
				u32 s = 0;
				bool ok = true;

				do {
					ok &= c->state[base | s] == HCUBE_V_HEALTHY;
					s = (s - mask) & mask;
				} while (s);
				EXPECT_FALSE(ok) TH_LOG("iter %u larger healthy subcube", iter);
				base = ((base | mask) + 1) & ~mask & all;
			} while (base);
		}
		for (mask = 0; mask <= all; mask++) {
			u32 base = 0;

			if ((u32)__builtin_popcount(mask) != k)
				continue;
			do {
				if (hcube_topo_build_cb(&p->topo, dim, c->state, base,
							mask, p->work) == HCUBE_OK) {
					checked++;
					if (p->topo.nattached == t->nattached &&
					    p->topo.depth == t->depth)
						EXPECT_GE(p->topo.total_dist, t->total_dist)
							TH_LOG("iter %u", iter);
					if (p->topo.nattached == t->nattached)
						EXPECT_GE(p->topo.depth, t->depth)
							TH_LOG("iter %u", iter);
					EXPECT_LE(p->topo.nattached, t->nattached);
					if (hcube_alg4_accepts(dim, c->state, base, mask)) {
						accepted++;
						EXPECT_LE(p->topo.depth, dim - k)
							TH_LOG("iter %u base %u mask %u",
							       iter, base, mask);
						/* "all nodes are connected to Q_k" */
						EXPECT_EQ(p->topo.nhealthy,
							  p->topo.nattached)
							TH_LOG("iter %u base %u mask %u",
							       iter, base, mask);
					}
				}
				base = ((base | mask) + 1) & ~mask & all;
			} while (base);
		}
		if (_metadata->passed == 0)
			break;
	}
	TH_LOG("candidates checked %u, accepted by Algorithm 4 %u", checked, accepted);
	EXPECT_GT(accepted, 1000);
	for (iter = 1; iter <= 8; iter++) {
		ctx_free(&ctxs[iter]);
		ctx_free(&probe[iter]);
	}
}

/* The highest load over the healthy vertices. */
static u32 healthy_max(const struct ctx *c, const u32 *load)
{
	u32 v, max = 0;

	for (v = 0; v < (1U << c->dim); v++)
		if (c->state[v] == HCUBE_V_HEALTHY && load[v] > max)
			max = load[v];
	return max;
}

/*
 * Never worse: no policy's plan ends with a higher maximum than the cube
 * had, on random cubes with faulty, offline and absent vertices, loads by
 * count (0..30) and heavy-tailed (0..1000). A plan that stops short says
 * so, is a prefix of the policy's whole operation, and that operation
 * (plan.whole) would have ended higher; one that does not is the whole
 * operation.
 */
TEST(never_worse)
{
	static struct ctx ctxs[9];
	static struct hcube_transfer whole[HCUBE_MAX_DIM * HCUBE_MAX_VERTICES +
					   8 * HCUBE_MAX_VERTICES];
	u32 iter, d, i, stopped[__HCUBE_POLICY_MAX] = { 0 };

	for (d = 1; d <= 8; d++)
		ASSERT_EQ(0, ctx_init(&ctxs[d], d));
	rng_state = 0x5e771eULL;
	for (iter = 0; iter < 2000; iter++) {
		struct ctx *c = &ctxs[1 + rnd_below(8)];

		make_instance(c, iter % 2 ? 30 : 1000);
		for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
			const char *name = hcube_policy_name(i);
			u32 before = healthy_max(c, c->load), n, k;
			bool cut;

			c->plan.whole = false;
			if (ctx_plan(c, i) != HCUBE_OK)
				continue;
			EXPECT_LE(c->plan.stats.after_max, before)
				dump(_metadata, c, name, 0x5e771eULL, iter);
			EXPECT_EQ(healthy_max(c, c->plan.after), c->plan.stats.after_max);
			cut = c->plan.stopped_short;
			n = c->plan.ntransfers;
			memcpy(whole, c->plan.transfers, n * sizeof(*whole));
			c->plan.whole = true;
			ASSERT_EQ(HCUBE_OK, ctx_plan(c, i));
			EXPECT_FALSE(c->plan.stopped_short);
			if (cut) {
				stopped[i]++;
				EXPECT_GT(c->plan.stats.after_max, before)
					dump(_metadata, c, name, 0x5e771eULL, iter);
				EXPECT_LT(n, c->plan.ntransfers);
			} else {
				EXPECT_EQ(n, c->plan.ntransfers)
					dump(_metadata, c, name, 0x5e771eULL, iter);
			}
			for (k = 0; k < n && k < c->plan.ntransfers; k++)
				EXPECT_EQ(0, memcmp(&whole[k], &c->plan.transfers[k],
						    sizeof(*whole)));
			c->plan.whole = false;
		}
		if (_metadata->passed == 0)
			break;
	}
	for (i = 0; i < __HCUBE_POLICY_MAX; i++)
		TH_LOG("%s: stopped short in %u of 2000", hcube_policy_name(i), stopped[i]);
	/* the instances reach the guard: SBN's operation raises the maximum */
	EXPECT_GT(stopped[HCUBE_POLICY_SBN_CUBE], 0);
	for (d = 1; d <= 8; d++)
		ctx_free(&ctxs[d]);
}

/*
 * The settle (hcube_settle_round()) on random vertices holding units of
 * heavy-tailed weights (90% 1..10, 3% 500..1000, the rest 11..499), some
 * vertices faulty or absent (no part), several components. Each round's
 * senders take units as the rule says, in a random order. Checked: every
 * round that moves lowers the sum of squared weights and no vertex rises
 * above the largest weight before the round; the rounds end; at the end,
 * in every component, the heaviest vertex holds no unit lighter than its
 * distance to the lightest minus one, so max <= avg + that unit + 1. By
 * count (every unit of weight 1, @exact), every component ends within one.
 */
#define ST_V	64
#define ST_U	4096
static u64 st_w[ST_U];
static u16 st_at[ST_U];

static u64 unit_weight(void)
{
	u32 r = rnd_below(100);

	if (r < 90)
		return 1 + rnd_below(10);
	if (r < 93)
		return 500 + rnd_below(501);
	return 11 + rnd_below(489);
}

TEST(settle_reaches_its_stopping_rule)
{
	static u16 comp[ST_V], order[ST_V], to[ST_V];
	static u64 load[ST_V], least[ST_V], ask[ST_V], taken[ST_V];
	u32 iter, maxrounds = 0;

	rng_state = 0x5e771e2ULL;
	for (iter = 0; iter < 2000; iter++) {
		u32 n = 2 + rnd_below(ST_V - 1), nu = rnd_below(ST_U), v, u, round;
		u32 ncomp = 1 + rnd_below(3);
		bool exact = iter % 4 == 3;	/* by count: every unit weighs 1 */
		u64 sq = 0;

		for (v = 0; v < n; v++) {
			comp[v] = rnd_below(8) ? (u16)rnd_below(ncomp) : HCUBE_COMP_NONE;
			load[v] = 0;
		}
		for (u = 0; u < nu; u++) {
			/* units may start anywhere in their vertex's component */
			do
				st_at[u] = (u16)rnd_below(n);
			while (comp[st_at[u]] == HCUBE_COMP_NONE && n > 1 &&
			       rnd_below(50));
			st_w[u] = exact ? 1 : unit_weight();
			if (comp[st_at[u]] == HCUBE_COMP_NONE)
				st_w[u] = 0, st_at[u] = 0xffff;
			else
				load[st_at[u]] += st_w[u];
		}
		for (v = 0; v < n; v++) {
			least[v] = load[v] ? 1 : 0;
			sq += load[v] * load[v];
		}
		for (round = 0;; round++) {
			u64 top = 0, s = 0;
			u32 pairs;

			ASSERT_LT(round, 10000U) TH_LOG("iter %u: the rounds do not end", iter);
			pairs = hcube_settle_round(n, comp, load, least, exact, order, to, ask);
			if (!pairs)
				break;
			for (v = 0; v < n; v++) {
				top = load[v] > top ? load[v] : top;
				taken[v] = 0;
				if (to[v] != HCUBE_VERTEX_NONE) {
					ASSERT_EQ(comp[v], comp[to[v]]);
					ASSERT_LT(load[to[v]], load[v]);
				}
			}
			/* the senders take units by the rule, in a random order */
			for (u = rnd_below(nu + 1); nu && u < 2 * nu; u++) {
				u32 x = u % nu, f = st_at[x];

				if (f >= n || to[f] == HCUBE_VERTEX_NONE ||
				    taken[f] > ask[f] || st_w[x] > 2 * (ask[f] - taken[f]))
					continue;
				taken[f] += st_w[x];
				st_at[x] = 0xfffe;	/* in flight */
				st_w[x] |= (u64)f << 48 | (u64)to[f] << 32;
			}
			for (u = 0; u < nu; u++) {
				u32 f, t;

				if (st_at[u] != 0xfffe)
					continue;
				f = (u32)(st_w[u] >> 48);
				t = (u32)(st_w[u] >> 32) & 0xffff;
				st_w[u] &= 0xffffffffULL;
				load[f] -= st_w[u];
				load[t] += st_w[u];
				st_at[u] = (u16)t;
				least[t] = 1;
			}
			for (v = 0; v < n; v++) {
				if (to[v] != HCUBE_VERTEX_NONE && !taken[v])
					least[v] = 2 * ask[v] + 1;
				EXPECT_LE(load[v], top) TH_LOG("iter %u round %u", iter, round);
				s += load[v] * load[v];
			}
			for (v = 0; v < n; v++)
				if (to[v] != HCUBE_VERTEX_NONE && taken[v])
					break;
			if (v < n)
				EXPECT_LT(s, sq) TH_LOG("iter %u round %u", iter, round);
			sq = s;
		}
		maxrounds = round > maxrounds ? round : maxrounds;
		/* the stopping rule, from the units themselves */
		for (v = 0; v < n; v++) {
			u64 hi = 0, lo = ~0ULL, total = 0, light = ~0ULL, cnt = 0;
			u32 w, heavy = v;

			if (comp[v] == HCUBE_COMP_NONE)
				continue;
			for (w = 0; w < n; w++) {
				if (comp[w] != comp[v])
					continue;
				if (w < v)
					break;
				cnt++;
				total += load[w];
				if (load[w] > hi)
					hi = load[w], heavy = w;
				lo = load[w] < lo ? load[w] : lo;
			}
			if (w < n && comp[w] == comp[v] && w < v)
				continue;	/* the component was checked at its lowest vertex */
			for (u = 0; u < nu; u++)
				if (st_at[u] == heavy && st_w[u] < light)
					light = st_w[u];
			if (exact)
				EXPECT_LE(hi - lo, 1) TH_LOG("iter %u: by count %llu apart", iter,
							      (unsigned long long)(hi - lo));
			if (cnt < 2 || hi == lo)
				continue;
			EXPECT_GE(light + 1, hi - lo)
				TH_LOG("iter %u: the heaviest holds a unit of %llu, %llu above the lightest",
				       iter, (unsigned long long)light,
				       (unsigned long long)(hi - lo));
			EXPECT_LE(hi * cnt, total + (light + 1) * cnt) TH_LOG("iter %u", iter);
		}
		if (_metadata->passed == 0)
			break;
	}
	TH_LOG("the most rounds: %u", maxrounds);
}

TEST_HARNESS_MAIN
