// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the optimal policy (beyond the papers).
 *
 * Inside one kernel the global state is known for free, so the plan can
 * be the exact minimum: hcube_mincost_balanced() chooses the final loads
 * (every healthy vertex at floor or ceil of its component's average, the
 * vertices that get the extra task chosen by the optimisation) and the
 * flow that reaches them with the fewest task-hops. The flow has no cycle
 * (a cycle would cost at least 2 and could be cancelled; the flow engine
 * never lets both directions of an edge carry tasks), so its edges form a
 * directed acyclic graph. A vertex sends everything it sends in one step,
 * once everything it receives has arrived: step = 1 + the longest chain
 * of flow edges ending at the sender (Kahn's algorithm, no recursion).
 * Its out-flow minus its in-flow is before - after <= before, so the
 * replay never goes negative.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

static size_t opt_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return hcube_mincost_memsize(dim) + 3 * hcube_align(n * sizeof(u16));
}

static int opt_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	void *work = a->work;
	struct hcube_carver c = { .pos = (char *)work + hcube_mincost_memsize(cube->dim) };
	u32 dim = cube->dim, n = 1U << dim, dd = dim ? dim : 1;
	u16 *indeg = hcube_carve(&c, (size_t)n * sizeof(u16));
	u16 *depth = hcube_carve(&c, (size_t)n * sizeof(u16));
	u16 *queue = hcube_carve(&c, (size_t)n * sizeof(u16));
	u32 head = 0, tail = 0, v, d, s, maxstep = 0;
	const u32 *flow;
	u64 cost;
	int err;

	err = hcube_mincost_balanced(dim, cube->state, cube->load, p->after,
				     &cost, a->budget, &p->work_done, work);
	if (err)
		return err;
	flow = hcube_mincost_flow(work);
	for (v = 0; v < n; v++) {
		indeg[v] = 0;
		depth[v] = 0;
	}
	for (v = 0; v < n; v++)
		for (d = 0; d < dim; d++)
			if (flow[v * dd + d])
				indeg[v ^ (1U << d)]++;
	for (v = 0; v < n; v++)
		if (!indeg[v])
			queue[tail++] = v;
	while (head < tail) {
		u32 u = queue[head++];

		for (d = 0; d < dim; d++) {
			u32 x = u ^ (1U << d);

			if (!flow[u * dd + d])
				continue;
			if (depth[u] + 1U > depth[x])
				depth[x] = depth[u] + 1;
			if (!--indeg[x])
				queue[tail++] = x;
		}
	}
	if (tail != n)
		return HCUBE_E_INTERNAL;	/* a cycle in the flow */
	for (v = 0; v < n; v++) {
		for (d = 0; d < dim; d++)
			if (flow[v * dd + d] && depth[v] + 1U > maxstep)
				maxstep = depth[v] + 1;
	}
	/* by step, then sender and dimension: the order the replay needs */
	for (s = 1; s <= maxstep; s++) {
		for (v = 0; v < n; v++) {
			if (depth[v] + 1U != s)
				continue;
			for (d = 0; d < dim; d++) {
				err = hcube_plan_emit(p, s, v, v ^ (1U << d),
						      flow[v * dd + d]);
				if (err)
					return err;
			}
		}
	}
	p->nsteps = maxstep;
	/*
	 * Load information: inside one kernel it is free, so no message is
	 * counted; on a multicomputer it would be an all-to-all exchange,
	 * which hcube-sim prices with the AAPC schedule of Masuyama and
	 * Masuyama (2003).
	 */
	p->stats.comm_steps = maxstep;
	return HCUBE_OK;
}

const struct hcube_policy_ops hcube_optimal_ops = {
	.name = "optimal",
	.flags = HCUBE_POLICY_F_AUTO_CANDIDATE,
	.auto_rank = 3,
	.work_memsize = opt_work_memsize,
	.plan = opt_plan,
};
