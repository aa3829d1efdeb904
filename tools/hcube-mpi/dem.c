// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: DEM (Algorithm 1 of K. Nam, J. Seo, S. Lee and J. Kim,
 * "Synchronous Load Balancing in Hypercube Multicomputers with Faulty
 * Nodes", Journal of Parallel and Distributed Computing 58, 1999) as
 * message passing. For each dimension k = 0 .. n-1 a healthy rank and its
 * healthy partner across k exchange their loads (lines 2-3) and the heavier
 * sends half the difference, rounded down, to the lighter (lines 4-7). A
 * rank whose partner is faulty or absent skips the dimension (Section 6).
 * Ties send nothing; the step of dimension k is k + 1, as in the core's
 * plan.
 *
 * By weight the loads are weights and the heavier asks pack_weight() for
 * half the difference; both carry on with what actually went.
 */
#include "hm.h"

void hm_dem(struct hcube_mpi *h)
{
	u32 me = (u32)h->rank, k;
	s64 cur = (s64)hm_load(h, NULL);

	/* two steps to exchange loads and one to migrate, per dimension */
	h->rep.steps = 3 * h->dim;
	if (!hm_healthy(h, me))
		return;
	for (k = 0; k < h->dim; k++) {
		u32 partner = me ^ (1U << k);
		struct hm_msg m;
		s64 other, c;

		if (!hm_healthy(h, partner))
			continue;
		hm_send_step(h, partner, HM_TAG_LOAD, &cur, 1, 0, 0);
		hm_recv(h, partner, HM_TAG_LOAD, &m);
		other = m.val[0];
		hm_msg_free(&m);
		/* half the difference, rounded down; equal loads move nothing */
		c = (cur > other ? cur - other : other - cur) / 2;
		if (!c)
			continue;
		if (cur > other) {
			cur -= (s64)hm_send_step(h, partner, HM_TAG_DEM, NULL, 0, (u64)c, k + 1);
		} else {
			hm_recv(h, partner, HM_TAG_DEM, &m);
			if (!h->by_weight && m.hdr.units != (u32)c)
				hm_fatal(h, "internal: DEM got %u units, %lld expected",
					 m.hdr.units, (long long)c);
			cur += (s64)hm_take(h, &m);
			hm_msg_free(&m);
		}
	}
}
