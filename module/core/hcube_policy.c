// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the policies' registry, on top of every policy.
 *
 * hcube_policies[] holds one struct hcube_policy_ops per enum
 * hcube_policy, each defined in its policy's own file. The names, the
 * scratch sizes and the capability checks come from it, and
 * hcube_plan_build() plans any policy the same way: check the cube, start
 * the plan, run the policy's plan function, finish (replay, statistics).
 *
 * auto lives here because it is the one policy made of others: it plans
 * every candidate of the table (HCUBE_POLICY_F_AUTO_CANDIDATE) and keeps
 * the best. Among those that reach the least imbalance, the fewest
 * task-hops wins, then the lower auto_rank (the cheaper to compute: DEM,
 * MCWA, optimal). Candidates run by rank, so that when the last one
 * (optimal) wins its plan is already in place; otherwise the winner is
 * planned again.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

static const struct hcube_policy_ops hcube_auto_ops;

static const struct hcube_policy_ops *const hcube_policies[__HCUBE_POLICY_MAX] = {
	[HCUBE_POLICY_MCWA] = &hcube_mcwa_ops,
	[HCUBE_POLICY_DEM] = &hcube_dem_ops,
	[HCUBE_POLICY_CWA] = &hcube_cwa_ops,
	[HCUBE_POLICY_OPTIMAL] = &hcube_optimal_ops,
	[HCUBE_POLICY_AUTO] = &hcube_auto_ops,
	[HCUBE_POLICY_RID] = &hcube_rid_ops,
	[HCUBE_POLICY_SID] = &hcube_sid_ops,
	[HCUBE_POLICY_SBN] = &hcube_sbn_ops,
	[HCUBE_POLICY_SBN_CUBE] = &hcube_sbn_cube_ops,
	[HCUBE_POLICY_SBN_HEUR] = &hcube_sbn_heur_ops,
	[HCUBE_POLICY_PEBBLE] = &hcube_pebble_ops,
};

const struct hcube_policy_ops *hcube_policy_lookup(u32 policy)
{
	return policy < __HCUBE_POLICY_MAX ? hcube_policies[policy] : NULL;
}

const char *hcube_policy_name(u32 policy)
{
	const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);

	return ops ? ops->name : "?";
}

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int hcube_policy_parse(const char *name)
{
	int i;

	for (i = 0; i < __HCUBE_POLICY_MAX; i++)
		if (str_eq(name, hcube_policies[i]->name))
			return i;
	return -1;
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

size_t hcube_work_memsize(u32 dim)
{
	size_t a;
	u32 i;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	a = hcube_plan_work_memsize(dim);
	a = max_size(a, hcube_topo_work_memsize(dim));
	a = max_size(a, hcube_route_work_memsize(dim));
	for (i = 0; i < __HCUBE_POLICY_MAX; i++)
		a = max_size(a, hcube_policies[i]->work_memsize(dim));
	return a;
}

/* The highest load over the healthy vertices of @cube. */
static u32 healthy_max(const struct hcube_cube *cube, const u32 *load)
{
	u32 n = 1U << cube->dim, v, max = 0;

	for (v = 0; v < n; v++)
		if (hcube_usable(cube->state[v]) && load[v] > max)
			max = load[v];
	return max;
}

/*
 * Never worse: a finished plan whose final maximum is above the cube's is
 * cut after the step that leaves the lowest maximum not above it (the
 * latest such step on a tie; no step at all leaves the cube's own), then
 * finished again.
 */
static int plan_never_worse(struct hcube_plan *p, const struct hcube_cube *cube,
			    void *work)
{
	u32 n = 1U << cube->dim, before = healthy_max(cube, cube->load);
	u32 i, v, best_len = 0, best_max = before;

	if (p->whole || p->stats.after_max <= before)
		return HCUBE_OK;
	for (v = 0; v < n; v++)
		p->after[v] = cube->load[v];
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		u32 max;

		p->after[x->from] -= x->count;
		p->after[x->to] += x->count;
		if (i + 1 < p->ntransfers && p->transfers[i + 1].step == x->step)
			continue;
		max = healthy_max(cube, p->after);
		if (max <= best_max) {
			best_max = max;
			best_len = i + 1;
		}
	}
	p->ntransfers = best_len;
	p->stopped_short = true;
	return hcube_plan_finish(p, cube, work);
}

/* One policy's plan, finished (not a chooser's: it finishes its own). */
static int plan_one(struct hcube_plan *p, u32 policy,
		    const struct hcube_plan_args *a)
{
	const struct hcube_policy_ops *ops = hcube_policies[policy];
	struct hcube_plan_args pa = *a;
	int err;

	hcube_plan_start(p, policy);
	if ((ops->flags & HCUBE_POLICY_F_TREES) &&
	    !hcube_topo_matches(a->topo, a->cube))
		return HCUBE_E_TOPO;
	pa.policy = policy;
	err = ops->plan(p, &pa);
	if (err)
		return err;
	err = hcube_plan_finish(p, a->cube, a->work);
	if (err)
		return err;
	return plan_never_worse(p, a->cube, a->work);
}

/* auto's candidates by increasing rank; returns their number. */
static u32 auto_candidates(u32 *cand)
{
	u32 i, j, nc = 0;

	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		if (!(hcube_policies[i]->flags & HCUBE_POLICY_F_AUTO_CANDIDATE))
			continue;
		for (j = nc++; j > 0 &&
		     hcube_policies[cand[j - 1]]->auto_rank >
		     hcube_policies[i]->auto_rank; j--)
			cand[j] = cand[j - 1];
		cand[j] = i;
	}
	return nc;
}

static size_t auto_work_memsize(u32 dim)
{
	u32 cand[__HCUBE_POLICY_MAX], nc, i;
	size_t a = 0;

	nc = auto_candidates(cand);
	for (i = 0; i < nc; i++)
		a = max_size(a, hcube_policies[cand[i]]->work_memsize(dim));
	return a;
}

static int auto_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	u32 cand[__HCUBE_POLICY_MAX], nc, i, best = __HCUBE_POLICY_MAX;
	struct hcube_plan_args ca = *a;
	u32 best_imb = 0;
	u64 best_hops = 0, spent = 0;
	int err;

	ca.budget = p->budget;
	nc = auto_candidates(cand);
	for (i = 0; i < nc; i++) {
		const struct hcube_policy_ops *ops = hcube_policies[cand[i]];

		if ((ops->flags & HCUBE_POLICY_F_TREES) &&
		    !hcube_topo_matches(a->topo, a->cube))
			continue;
		err = plan_one(p, cand[i], &ca);
		spent += p->work_done;
		if (err == HCUBE_E_BUDGET || err == HCUBE_E_PLAN_SIZE)
			continue;
		if (err)
			return err;
		if (best == __HCUBE_POLICY_MAX || p->stats.imbalance < best_imb ||
		    (p->stats.imbalance == best_imb &&
		     p->stats.migrations < best_hops)) {
			best = cand[i];
			best_imb = p->stats.imbalance;
			best_hops = p->stats.migrations;
		}
	}
	if (best == __HCUBE_POLICY_MAX)
		return HCUBE_E_BUDGET;
	if (p->applied != best) {
		ca.budget = 0;
		err = plan_one(p, best, &ca);
		if (err)
			return err;
	}
	p->policy = HCUBE_POLICY_AUTO;
	p->work_done = spent;
	return HCUBE_OK;
}

static const struct hcube_policy_ops hcube_auto_ops = {
	.name = "auto",
	.flags = HCUBE_POLICY_F_CHOOSER,
	.work_memsize = auto_work_memsize,
	.plan = auto_plan,
};

/* The cube's states and loads: the errors every policy shares. */
static int check_cube(const struct hcube_cube *cube, u32 *nhealthy)
{
	u32 n = 1U << cube->dim, v;
	u64 total = 0;

	*nhealthy = 0;
	for (v = 0; v < n; v++) {
		if (cube->state[v] >= HCUBE_V_NSTATES)
			return HCUBE_E_STATE;
		if (hcube_usable(cube->state[v]))
			(*nhealthy)++;
		else if (cube->load[v])
			return HCUBE_E_FAULTY_LOAD;
		total += cube->load[v];
	}
	if (!*nhealthy)
		return HCUBE_E_NO_HEALTHY;
	if (total > HCUBE_MAX_TOTAL_LOAD)
		return HCUBE_E_OVERFLOW;
	return HCUBE_OK;
}

int hcube_policy_check(u32 policy, u32 nhealthy, u32 nvertices)
{
	const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);

	if (!ops)
		return HCUBE_E_POLICY;
	if ((ops->flags & HCUBE_POLICY_F_FAULT_FREE) && nhealthy != nvertices)
		return HCUBE_E_NEED_MCWA;
	return HCUBE_OK;
}

int hcube_plan_build(struct hcube_plan *p, enum hcube_policy policy,
		     const struct hcube_cube *cube, const struct hcube_topo *t,
		     void *work)
{
	const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);
	struct hcube_plan_args a = {
		.policy = policy, .cube = cube, .topo = t, .budget = 0,
		.work = work,
	};
	u32 nhealthy;
	int err;

	if (cube->dim > HCUBE_MAX_DIM || cube->dim != p->dim)
		return HCUBE_E_DIM;
	if (!ops)
		return HCUBE_E_POLICY;
	err = check_cube(cube, &nhealthy);
	if (err)
		return err;
	err = hcube_policy_check(policy, nhealthy, 1U << cube->dim);
	if (err)
		return err;
	if (ops->flags & HCUBE_POLICY_F_CHOOSER)
		return ops->plan(p, &a);
	return plan_one(p, policy, &a);
}
