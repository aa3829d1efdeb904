// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the policies without a distributed form here (optimal,
 * auto, rid, sid, sbn-cube, sbn-heur, pebble). The loads are gathered to
 * the lowest healthy rank, which plans with the core
 * (hcube_plan_build()) and broadcasts the plan; then every rank carries
 * out the transfers it takes part in, in the plan's order, so a relay
 * forwards units only after they reached it.
 */
#include <stdlib.h>
#include <string.h>
#include "hm.h"

int hm_gathered(struct hcube_mpi *h, u32 policy)
{
	u32 me = (u32)h->rank, mine = h->ops->count(h->queue), planner = 0, i;
	u32 *loads = NULL, meta[4] = { 0 };
	struct hcube_plan *p = &h->plan;

	while (!hm_healthy(h, planner))
		planner++;
	if (me == planner)
		loads = hm_alloc(h, h->nv * sizeof(u32));
	MPI_Gather(&mine, 1, MPI_UINT32_T, loads, 1, MPI_UINT32_T, (int)planner,
		   h->comm);
	if (me == planner) {
		struct hcube_cube cube = {
			.dim = h->dim, .state = h->state, .load = loads,
		};
		int err = hcube_plan_build(p, policy, &cube, &h->topo, h->work);

		if (err)
			hm_fatal(h, "internal: the core's %s plan failed: %s",
				 hcube_policy_name(policy), hcube_strerror(err));
		meta[0] = p->ntransfers;
		meta[1] = p->nsteps;
		meta[2] = p->applied;
		meta[3] = p->stats.comm_steps;
		free(loads);
	}
	MPI_Bcast(meta, 4, MPI_UINT32_T, (int)planner, h->comm);
	p->ntransfers = meta[0];
	if (p->ntransfers > p->cap)
		hm_fatal(h, "internal: a plan of %u transfers", p->ntransfers);
	MPI_Bcast(p->transfers, (int)(p->ntransfers * sizeof(*p->transfers)),
		  MPI_BYTE, (int)planner, h->comm);
	h->rep.collectives += 3;
	h->rep.steps = meta[1];
	h->rep.applied = (int)meta[2];

	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		struct hm_msg m;

		if (x->from == me) {
			hm_send_step(h, x->to, HM_TAG_PLAN, NULL, 0, x->count, x->step);
		} else if (x->to == me) {
			hm_recv(h, x->from, HM_TAG_PLAN, &m);
			if (m.hdr.units != x->count)
				hm_fatal(h, "internal: %u units from %u, %u planned",
					 m.hdr.units, x->from, x->count);
			hm_take(h, &m);
			hm_msg_free(&m);
		}
	}
	return HCUBE_MPI_OK;
}
