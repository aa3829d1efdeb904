// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: receiver- and sender-initiated diffusion (Sections 1 and 3.1
 * of K. Nam, J. Seo, S. Lee and J. Kim, "Synchronous Load Balancing in
 * Hypercube Multicomputers with Faulty Nodes", Journal of Parallel and
 * Distributed Computing 58, 1999), one synchronous round on a snapshot of
 * the loads.
 *
 * Vertex i with d healthy neighbours holding S tasks in all has the
 * neighbourhood average l_avg = (S + l(i)) / (d + 1) (i included, as the
 * paper's "average number of tasks owned by node i and its neighbor
 * nodes"). Faulty, offline and absent neighbours are skipped: they are
 * neither asked nor counted.
 *
 * RID. Threshold: i is underloaded, and asks, when l(i) < l_avg. From each
 * healthy neighbour k it asks phi_k = (l_avg - l(i)) * l(k) / S, rounded
 * down (the paper's formula with l_avg taken over i and its neighbours).
 * A neighbour gives at most half its lead over the asker, floor((l(k) -
 * l(i)) / 2), so that it never ends below the vertex it gives to, and in
 * all no more than it has; requests are served in label order.
 *
 * SID, the mirror. Threshold: i is overloaded, and sends, when l(i) >
 * l_avg. It sends each neighbour k below l_avg its share of the surplus,
 * psi_k = (l(i) - l_avg) * (l_avg - l(k)) / H, H = the sum of (l_avg -
 * l(j)) over those neighbours, rounded down, and at most floor((l(i) -
 * l(k)) / 2).
 *
 * Every value comes from the snapshot; all transfers are step 1. A round
 * costs three communication steps (request or load query, reply, tasks)
 * and two messages per asking vertex and neighbour.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

u32 hcube_rid_phi(u32 d, u64 sum, u32 own, u32 lk)
{
	u64 num, den;

	/* l_avg - own = (sum - d * own) / (d + 1) */
	if (!d || !sum || sum <= (u64)d * own)
		return 0;
	num = (sum - (u64)d * own) * lk;
	den = (u64)(d + 1) * sum;
	return (u32)div64_u64(num, den);
}

u64 hcube_sid_deficit(u32 d, u64 sum, u32 own, u32 lk)
{
	u64 all = sum + own;	/* (d + 1) * l_avg */

	return all > (u64)(d + 1) * lk ? all - (u64)(d + 1) * lk : 0;
}

/*
 * floor(a * b / c) exactly for a < 2^40, b < 2^32, c < 2^40: b is split
 * into 16-bit halves so that no product passes 2^64.
 */
static u64 muldiv(u64 a, u64 b, u64 c)
{
	u64 bh = b >> 16, bl = b & 0xffff, q1, r1;

	q1 = div64_u64(a * bh, c);
	r1 = a * bh - q1 * c;
	return (q1 << 16) + div64_u64((r1 << 16) + a * bl, c);
}

u32 hcube_sid_psi(u32 d, u64 sum, u32 own, u32 lk, u64 hsum)
{
	u64 q;

	/* (d + 1) * (own - l_avg) = d * own - sum */
	if (!d || !hsum || (u64)d * own <= sum)
		return 0;
	q = muldiv((u64)d * own - sum, hcube_sid_deficit(d, sum, own, lk),
		   (u64)(d + 1) * hsum);
	return q > 0xffffffffULL ? 0xffffffffU : (u32)q;
}

static size_t diffuse_work_memsize(u32 dim)
{
	return hcube_align(((size_t)1 << dim) * sizeof(u32));
}

/*
 * @want tasks from @from to @to, a lighter neighbour, at most half their
 * difference and what @from can still give this round (@left).
 */
static int diffuse_move(struct hcube_plan *p, const u32 *l, u32 *left,
			u32 from, u32 to, u32 want)
{
	u32 cap = (l[from] - l[to]) / 2;
	int err;

	if (want > cap)
		want = cap;
	if (want > left[from])
		want = left[from];
	err = hcube_plan_emit(p, 1, from, to, want);
	if (!err)
		left[from] -= want;
	return err;
}

/* rid and sid: the receivers ask, or the senders send */
static int diffuse_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	bool sender = a->policy == HCUBE_POLICY_SID;
	void *work = a->work;
	struct hcube_carver c = { .pos = work };
	u32 dim = cube->dim, n = 1U << dim, i, k;
	u32 *left = hcube_carve(&c, (size_t)n * sizeof(u32));
	const u32 *l = cube->load;
	int err;

	/* what each vertex can still give this round */
	for (i = 0; i < n; i++)
		left[i] = l[i];
	for (i = 0; i < n; i++) {
		u32 d = 0;
		u64 sum = 0, hsum = 0;

		if (!hcube_usable(cube->state[i]))
			continue;
		for (k = 0; k < dim; k++) {
			u32 x = i ^ (1U << k);

			if (!hcube_usable(cube->state[x]))
				continue;
			d++;
			sum += l[x];
		}
		if (!d)
			continue;
		if (!sender) {
			/* RID: underloaded when (d + 1) * l(i) < S + l(i) */
			if ((u64)d * l[i] >= sum)
				continue;
			p->stats.messages += 2 * d;
			for (k = 0; k < dim; k++) {
				u32 x = i ^ (1U << k);

				if (!hcube_usable(cube->state[x]) || l[x] <= l[i])
					continue;
				err = diffuse_move(p, l, left, x, i,
						   hcube_rid_phi(d, sum, l[i], l[x]));
				if (err)
					return err;
			}
			continue;
		}
		/* SID: overloaded when (d + 1) * l(i) > S + l(i) */
		if ((u64)d * l[i] <= sum)
			continue;
		p->stats.messages += 2 * d;
		for (k = 0; k < dim; k++) {
			u32 x = i ^ (1U << k);

			if (hcube_usable(cube->state[x]))
				hsum += hcube_sid_deficit(d, sum, l[i], l[x]);
		}
		for (k = 0; k < dim; k++) {
			u32 x = i ^ (1U << k);

			if (!hcube_usable(cube->state[x]) || l[x] >= l[i])
				continue;
			err = diffuse_move(p, l, left, i, x,
					   hcube_sid_psi(d, sum, l[i], l[x], hsum));
			if (err)
				return err;
		}
	}
	p->nsteps = 1;
	p->stats.comm_steps = 3;
	return HCUBE_OK;
}

const struct hcube_policy_ops hcube_rid_ops = {
	.name = "rid",
	.work_memsize = diffuse_work_memsize,
	.plan = diffuse_plan,
};

const struct hcube_policy_ops hcube_sid_ops = {
	.name = "sid",
	.work_memsize = diffuse_work_memsize,
	.plan = diffuse_plan,
};
