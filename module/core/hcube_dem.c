// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: DEM, the dimension exchange method (Algorithm 1 of K. Nam,
 * J. Seo, S. Lee and J. Kim, "Synchronous Load Balancing in Hypercube
 * Multicomputers with Faulty Nodes", Journal of Parallel and Distributed
 * Computing 58, 1999).
 *
 * One sweep: at dimension k each pair of healthy neighbours moves half
 * their difference (rounded down) to the lighter one; a vertex whose
 * neighbour is faulty, offline or absent skips the dimension.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

static size_t dem_work_memsize(u32 dim)
{
	return hcube_align(((size_t)1 << dim) * sizeof(u32));
}

static int dem_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	u32 n = 1U << cube->dim, nh = 0;
	u32 *cur = a->work;
	u32 k, u;
	int err;

	for (u = 0; u < n; u++) {
		cur[u] = cube->load[u];
		nh += hcube_usable(cube->state[u]);
	}
	for (k = 0; k < cube->dim; k++) {
		for (u = 0; u < n; u++) {
			u32 v = u | (1U << k), from, to, c;

			if (u == v || !hcube_usable(cube->state[u]) ||
			    !hcube_usable(cube->state[v]))
				continue;
			from = cur[u] > cur[v] ? u : v;
			to = from ^ (1U << k);
			c = (cur[from] - cur[to]) / 2;
			err = hcube_plan_emit(p, k + 1, from, to, c);
			if (err)
				return err;
			cur[from] -= c;
			cur[to] += c;
		}
	}
	p->nsteps = cube->dim;
	/* Per dimension: two steps to exchange loads, one to migrate. */
	p->stats.comm_steps = 3 * cube->dim;
	/* every vertex sends its load along each dimension it uses */
	p->stats.messages = nh * (p->stats.comm_steps - p->nsteps);
	return HCUBE_OK;
}

const struct hcube_policy_ops hcube_dem_ops = {
	.name = "dem",
	.flags = HCUBE_POLICY_F_AUTO_CANDIDATE,
	.auto_rank = 1,
	.work_memsize = dem_work_memsize,
	.plan = dem_plan,
};
