// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_test by weight. For every scenario and policy, with units whose
 * weights follow the scenario's kind (tq.c: all 1; uniform 1..1000;
 * mostly 1..10 and one in ten 200..5000; 0..3; 2^36..2^37):
 *   - hcube_mpi_plan() by weight moves nothing and lists the core's plan
 *     and evacuation on the weights (shifted right until the total fits
 *     the core's 2^31 - 1 - 1024, amounts shifted back);
 *   - after the balance every unit is there once, intact, none on a
 *     faulty rank;
 *   - the bound, from the units themselves: in every component of healthy
 *     ranks (W their weight, H their number, U the heaviest unit there)
 *     every rank holds between floor(W / H) - U and ceil(W / H) + U, and
 *     the report says the settle ended;
 *   - the report's weights and imbalances, by weight and by count;
 *   - with units of weight 1, the evacuation and the policy's own
 *     transfers are the core's plan, transfer for transfer: the weight
 *     code of every protocol against the oracle; the settle's transfers
 *     come after them, between ranks of one component.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_test.h"

static struct {
	u64 balances, settle_rounds, max_rounds, zero_units, big_units, shifted;
} wcov;

void weight_coverage(void)
{
	printf("# weight coverage: balances %llu settle_rounds %llu zero_units %llu big_units %llu shifted %llu\n",
	       (unsigned long long)wcov.balances, (unsigned long long)wcov.settle_rounds,
	       (unsigned long long)wcov.zero_units, (unsigned long long)wcov.big_units,
	       (unsigned long long)wcov.shifted);
	printf("# settle: %llu rounds at most in one balance\n",
	       (unsigned long long)wcov.max_rounds);
}

/* The library's rule (Documentation/mpi.md): the core plans on weight >> shift. */
static u32 shift_for(u64 total)
{
	u32 s = 0;

	while ((total >> s) > HCUBE_MAX_TOTAL_LOAD - MAXV)
		s++;
	return s;
}

static u64 my_weight(u64 *heaviest)
{
	return q_weight_of(&Q, heaviest);
}

/*
 * The bound in every component, from every rank's weight @w and heaviest
 * unit @top (rank 0).
 */
static bool within_bound(const u64 *w, const u64 *top, char *why, size_t len)
{
	u64 W[MAXV] = { 0 }, U[MAXV] = { 0 }, H[MAXV] = { 0 };
	u16 comp[MAXV];
	u32 v;

	components(O.state, comp);
	for (v = 0; v < (u32)size; v++) {
		if (comp[v] == 0xffff)
			continue;
		W[comp[v]] += w[v];
		H[comp[v]]++;
		if (top[v] > U[comp[v]])
			U[comp[v]] = top[v];
	}
	for (v = 0; v < (u32)size; v++) {
		u32 c = comp[v];
		u64 lo, hi;

		if (c == 0xffff)
			continue;
		lo = W[c] / H[c] > U[c] ? W[c] / H[c] - U[c] : 0;
		hi = (W[c] + H[c] - 1) / H[c] + U[c];
		if (w[v] < lo || w[v] > hi) {
			snprintf(why, len, "rank %u holds %llu, outside [%llu, %llu] (component of %llu ranks, weight %llu, heaviest unit %llu)",
				 v, (unsigned long long)w[v], (unsigned long long)lo,
				 (unsigned long long)hi, (unsigned long long)H[c],
				 (unsigned long long)W[c], (unsigned long long)U[c]);
			return false;
		}
	}
	return true;
}

/*
 * Units of weight 1: @got holds the core's plan (@want) and, after its
 * last step, only transfers between healthy ranks of one component.
 */
bool plan_then_settle(struct hcube_mpi_xfer *got, u32 ngot,
			     struct hcube_mpi_xfer *want, u32 nwant, char *why,
			     size_t len)
{
	u32 i, j, last = 0;
	u16 comp[MAXV];
	bool *used = calloc(ngot + 1, 1);

	components(O.state, comp);
	for (i = 0; i < nwant; i++) {
		want[i].count = (u32)want[i].weight;
		if (want[i].step > last)
			last = want[i].step;
		for (j = 0; j < ngot; j++)
			if (!used[j] && !memcmp(&got[j], &want[i], sizeof(*got)))
				break;
		if (j == ngot) {
			snprintf(why, len, "the core's %u:%u->%u x%u is missing", want[i].step,
				 want[i].from, want[i].to, want[i].count);
			free(used);
			return false;
		}
		used[j] = true;
	}
	for (j = 0; j < ngot; j++) {
		const struct hcube_mpi_xfer *x = &got[j];

		if (used[j])
			continue;
		if (x->step <= last || comp[x->from] == 0xffff || comp[x->from] != comp[x->to]) {
			snprintf(why, len, "%u:%u->%u x%u is neither the core's nor the settle's",
				 x->step, x->from, x->to, x->count);
			free(used);
			return false;
		}
	}
	free(used);
	return true;
}

/* hcube_mpi_plan() by weight: the core's plan on the shifted weights. */
static void check_plan(struct hcube_mpi *hw, u32 idx, u32 pol, u32 shift)
{
	struct hcube_mpi_report prep;
	struct hcube_mpi_xfer *xf, *ev, *core;
	u32 nx = 0, ne = 0, before = Q.n;
	char why[256] = "";
	bool pass = false;
	int err;

	err = hcube_mpi_plan(hw, pname(pol), &prep);
	xf = gatherv(prep.xfers, prep.nxfers, sizeof(*xf), &nx);
	ev = gatherv(prep.evacs, prep.nevacs, sizeof(*ev), &ne);
	if (!rank) {
		core = oracle_xfers(true, shift);
		pass = same_xfers(xf, nx, core, O.plan.ntransfers, why, sizeof(why)) &&
		       same_xfers(ev, ne, O.evac, O.nevac, why, sizeof(why));
		free(core);
	}
	result(shared(pass) && all(!err && Q.n == before && !prep.msgs_sent && prep.by_weight),
	       "P=%d scenario %u %s by weight: plan moves nothing and lists the core's %u transfers on the weights (shift %u)%s%s",
	       size, idx, pname(pol), O.plan.ntransfers, shift, *why ? ": " : "", why);
	free(xf);
	free(ev);
}

void run_weights(struct hcube_mpi *hw, const struct scen *s, u32 idx, u32 pol)
{
	u64 base = (u64)rank << 32 | 1ULL << 30, wb[MAXV], wa[MAXV], ta[MAXV], cb[MAXV];
	u64 ca[MAXV], total = 0, units = 0, *g64, mine_w, top, *ids;
	u32 scaled[MAXV], count[MAXV], *g, v, shift = 0, nid = 0, nx = 0, ne = 0;
	struct hcube_mpi_report rep;
	struct hcube_mpi_xfer *xf, *ev;
	double ib[2] = { 0 }, ia[2] = { 0 };
	char why[256] = "";
	bool pass = false;
	int err;

	weight_kind = idx % WEIGHT_KINDS;
	err = start_scenario(hw, s, base, NULL);
	fill(&Q, base | 0x80000000U, s->late[rank]);
	mine_w = my_weight(&top);
	g = gather_u32(Q.n);
	if (!rank)
		memcpy(count, g, size * sizeof(u32));
	g64 = gather_u64(mine_w);
	if (!rank) {
		for (v = 0; v < (u32)size; v++) {
			wb[v] = g64[v];
			cb[v] = count[v];
			total += wb[v];
			units += count[v];
		}
		shift = shift_for(total);
		for (v = 0; v < (u32)size; v++)
			scaled[v] = (u32)(wb[v] >> shift);
		oracle_states(s);
		oracle_evacuate(scaled, count, true, shift);
		err = err ? err : oracle_plan(pol);
		ib[0] = imbalance_of(cb, healthy_in(s));
		ib[1] = imbalance_of(wb, healthy_in(s));
	}
	MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (err) {
		struct hcube_mpi_report prep;
		int ep = hcube_mpi_plan(hw, pname(pol), &prep);
		int e = hcube_mpi_balance(hw, pname(pol), &rep);

		result(all(e == HCUBE_MPI_E_NEED_MCWA && ep == e && rep.nxfers == 0 &&
			   Q.n == rep.before),
		       "P=%d scenario %u %s by weight: plan and balance refused like the core (%s), nothing moved",
		       size, idx, pname(pol), hcube_mpi_strerror(e));
		return;
	}
	check_plan(hw, idx, pol, shift);
	err = hcube_mpi_balance(hw, pname(pol), &rep);
	result(all(!err && rep.by_weight && rep.settled),
	       "P=%d scenario %u %s by weight (kind %u): balance returns %s, the settle ended in %u rounds",
	       size, idx, pname(pol), weight_kind, hcube_mpi_strerror(err), rep.settle_rounds);

	/* every unit once, intact, none on a faulty rank */
	ids = gather_ids(&nid);
	pass = all_intact(q_intact(&Q) && !(s->faulty[rank] && Q.n));
	if (!rank) {
		qsort(ids, nid, sizeof(u64), cmp_u64);
		for (v = 1; v < nid && ids[v] != ids[v - 1]; v++)
			;
		pass = pass && nid == units && v >= nid;
	}
	result(shared(pass), "P=%d scenario %u %s by weight: %llu units, each once, intact, none on a faulty rank",
	       size, idx, pname(pol), (unsigned long long)units);
	free(ids);

	/* the bound and the report; the units that weigh nothing, counted */
	{
		unsigned long long zero = 0, all_zero = 0;

		for (v = 0; v < Q.n; v++)
			zero += !Q.u[v].weight;
		MPI_Reduce(&zero, &all_zero, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
			   MPI_COMM_WORLD);
		wcov.zero_units += all_zero;
	}
	mine_w = my_weight(&top);
	g64 = gather_u64(mine_w);
	if (!rank)
		memcpy(wa, g64, size * sizeof(u64));
	g64 = gather_u64(top);
	if (!rank)
		memcpy(ta, g64, size * sizeof(u64));
	g = gather_u32(Q.n);
	*why = '\0';
	pass = false;
	if (!rank) {
		for (v = 0; v < (u32)size; v++) {
			ca[v] = g[v];
			if (ta[v] > top)
				top = ta[v];

		}
		pass = within_bound(wa, ta, why, sizeof(why));
		ia[0] = imbalance_of(ca, healthy_in(s));
		ia[1] = imbalance_of(wa, healthy_in(s));
		wcov.balances++;
		wcov.settle_rounds += rep.settle_rounds;
		if (rep.settle_rounds > wcov.max_rounds)
			wcov.max_rounds = rep.settle_rounds;
		wcov.big_units += weight_kind == 2;
		wcov.shifted += shift > 0;
	}
	result(shared(pass), "P=%d scenario %u %s by weight: every rank within the heaviest unit of its component's average%s%s",
	       size, idx, pname(pol), *why ? ": " : "", why);
	MPI_Bcast(ib, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Bcast(ia, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Bcast(&total, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	MPI_Bcast(&top, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	result(all(rep.weight_after == mine_w && rep.after == Q.n && rep.total_weight == total &&
		   rep.heaviest == top && rep.imbalance_before == ib[0] &&
		   rep.weight_imbalance_before == ib[1] && rep.imbalance_after == ia[0] &&
		   rep.weight_imbalance_after == ia[1]),
	       "P=%d scenario %u %s by weight: the report: weight %llu, imbalance by weight %.3f before and %.3f after",
	       size, idx, pname(pol), (unsigned long long)total, ib[1], ia[1]);
	*why = '\0';
	result(imports_match(&rep, why, sizeof(why)),
	       "P=%d scenario %u %s by weight: the transfers to each rank are the transfers from the others%s%s",
	       size, idx, pname(pol), *why ? ": " : "", why);

	/* units of weight 1: the core's transfers, then the settle's */
	if (weight_kind)
		return;
	xf = gatherv(rep.xfers, rep.nxfers, sizeof(*xf), &nx);
	ev = gatherv(rep.evacs, rep.nevacs, sizeof(*ev), &ne);
	*why = '\0';
	pass = false;
	if (!rank) {
		struct hcube_mpi_xfer *core = oracle_xfers(true, 0);

		for (v = 0; v < O.nevac; v++)
			O.evac[v].count = (u32)O.evac[v].weight;
		pass = same_xfers(ev, ne, O.evac, O.nevac, why, sizeof(why)) &&
		       plan_then_settle(xf, nx, core, O.plan.ntransfers, why, sizeof(why));
		free(core);
	}
	result(shared(pass), "P=%d scenario %u %s by weight, every unit of weight 1: the evacuation and the %u transfers are the core's, then the settle's%s%s",
	       size, idx, pname(pol), O.plan.ntransfers, *why ? ": " : "", why);
	free(xf);
	free(ev);
}
