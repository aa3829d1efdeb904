// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi against its oracle, the hcube core, on the ranks of
 * MPI_COMM_WORLD (any size 1..1024; run.sh runs 1..16).
 *
 * By count (this file), for random fault sets and loads (fixed seeds) and
 * every policy, rank 0 computes what must happen with the core alone: the
 * evacuation of the faulty ranks' units (hcube_evacuate(), faulty ranks in
 * label order, as the module does), then hcube_topo_build() and
 * hcube_plan_build() on the loads left. It gathers what the ranks
 * actually did and checks:
 *   - hcube_mpi_plan() first: it moves nothing and lists the core's
 *     transfers and evacuation, and the steps the balance then reports;
 *   - the transfers carried out equal the plan's, (step, from, to, count)
 *     for each, and the evacuation's; what the ranks list as received is
 *     what they list as sent;
 *   - every unit arrives exactly once with its payload intact (each unit
 *     carries a hash of its id and a pattern of variable length), none on
 *     a faulty rank, every rank ends with the plan's final load;
 *   - the messages every rank sent and received: for DEM, CWA and MCWA the
 *     counts their protocols imply on the core's topology and plan (the
 *     theta messages from the core's own delta vectors, through its CWA
 *     observer); for SBN the core's 3(P - 1) + J logical messages; every
 *     unit message is one transfer of the plan;
 *   - the steps: 3 log N for CWA and DEM, 4T + 3k for MCWA (3 log N + T
 *     where k = n - T), the core's count for SBN;
 *   - the report: units before and after, the total, the imbalance (max /
 *     avg) before and after.
 * By weight (weight_test.c): the bound, the evacuation, and every policy's
 * transfers with units of weight 1. Then the API (api_test.c): bad input
 * (every rank returns the same error and the same text, and nothing has
 * changed; the handle still works afterwards), the tolerance,
 * MPI_COMM_NULL, intercommunicators, every error's text.
 *
 * Output: TAP from rank 0. Exit status 1 if any check failed.
 * usage: mpi_test [--seed S] [--scenarios N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_test.h"

/* What the scenarios exercised (rank 0), printed for run.sh to check. */
static struct {
	u64 transfers, relayed, evac_mark, evac_balance, theta, sbn_jobs, sbn_settled;
	u32 trees, detached, components;
} cov;

static void observe(struct hcube_cwa_observer *obs, const struct hcube_cwa *c,
		    u32 kk)
{
	u32 v, k = hcube_cwa_dim(c);

	(void)obs;
	for (v = 0; v < (1U << k); v++) {
		if (hcube_cwa_value(c, HCUBE_CWA_DELTA, kk, v) <= 0)
			continue;
		/* v's half is the overloaded one: v sends its partner a theta vector */
		O.th_sent[hcube_cwa_vertex(c, v)]++;
		O.th_recv[hcube_cwa_vertex(c, v ^ (1U << kk))]++;
	}
}


/* Messages rank @r must send and receive, unit messages it must send. */
static void expected_msgs(u32 policy, u32 r, u32 *sent, u32 *recv, u32 *usent)
{
	const struct hcube_topo *t = &O.topo;
	const struct hcube_plan *p = &O.plan;
	u32 i, j, from = 0, to = 0, up_from = 0, up_to = 0, down_from = 0, down_to = 0;

	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		bool up = x->to == (u32)t->parent[x->from] && t->dist[x->from] != 0;
		bool down = x->from == (u32)t->parent[x->to] && t->dist[x->to] != 0;

		from += x->from == r;
		to += x->to == r;
		up_from += up && x->from == r;
		up_to += up && x->to == r;
		down_from += down && x->from == r;
		down_to += down && x->to == r;
	}
	for (i = 0; i < O.nevac; i++) {
		*sent += O.evac[i].from == r;
		*usent += O.evac[i].from == r;
		*recv += O.evac[i].to == r;
	}
	*usent += from;
	switch (policy) {
	case HCUBE_POLICY_DEM:
		for (j = 0; j < dim; j++) {
			bool pair = hcube_usable(O.state[r]) &&
				    hcube_usable(O.state[r ^ (1U << j)]);

			*sent += pair;
			*recv += pair;
		}
		*sent += from;
		*recv += to;
		break;
	case HCUBE_POLICY_MCWA:
	case HCUBE_POLICY_CWA: {
		u32 nch = 0;

		if (t->dist[r] == HCUBE_DIST_NONE)
			break;
		for (j = 0; j < dim; j++)
			nch += t->parent[r ^ (1U << j)] == (s16)r;
		if (t->dist[r]) {
			*sent += 1 + nch + up_from + down_from;
			*recv += nch + 1 + up_to + down_to;
		} else {
			*sent += t->cb_dim + nch + O.th_sent[r] + down_from;
			*recv += nch + t->cb_dim + up_to + O.th_recv[r];
		}
		break;
	}
	case HCUBE_POLICY_SBN:
		break;		/* checked on the sums */
	default:
		*sent += from;
		*recv += to;
	}
}

struct rsum {
	u32 sent, recv, usent, relayed, steps, count, nx, pad;
	u64 units_sent, units_recv;
};

/*
 * An SBN operation that raised the most units any rank held before it
 * (after the evacuation: the oracle's loads) is settled: true when the
 * core's whole operation does.
 */
static bool sbn_settles(u32 pol)
{
	u32 v, max = 0;

	for (v = 0; v < (u32)size; v++)
		max = O.load[v] > max ? O.load[v] : max;
	return pol == HCUBE_POLICY_SBN && O.plan.stats.after_max > max;
}

/* Settled by count: every component within one unit, none above the max before. */
static bool settled_loads(const struct rsum *rs, char *why, size_t len)
{
	u32 v, w, max = 0;
	u16 comp[MAXV];

	components(O.state, comp);
	for (v = 0; v < (u32)size; v++)
		max = O.load[v] > max ? O.load[v] : max;
	for (v = 0; v < (u32)size; v++) {
		if (comp[v] == 0xffff)
			continue;
		for (w = 0; w < (u32)size; w++) {
			if (comp[w] == comp[v] && rs[v].count > rs[w].count + 1) {
				snprintf(why, len, "settled: rank %u holds %u units, rank %u %u",
					 v, rs[v].count, w, rs[w].count);
				return false;
			}
		}
		if (rs[v].count > max) {
			snprintf(why, len, "settled: rank %u holds %u units, above the %u at the start",
				 v, rs[v].count, max);
			return false;
		}
	}
	return true;
}

static void check_units(const struct scen *s, const u32 *before, u64 *ids,
			u32 nid, const struct rsum *rs, char *why, size_t len,
			bool *pass, bool settles)
{
	u64 expect = 0;
	u32 v, i;

	*pass = false;
	for (v = 0; v < (u32)size; v++)
		expect += before[v];
	qsort(ids, nid, sizeof(u64), cmp_u64);
	if (nid != expect) {
		snprintf(why, len, "%u units, %llu expected", nid,
			 (unsigned long long)expect);
		return;
	}
	for (i = 1; i < nid; i++) {
		if (ids[i] == ids[i - 1]) {
			snprintf(why, len, "unit %llx twice", (unsigned long long)ids[i]);
			return;
		}
	}
	if (settles) {
		for (v = 0; v < (u32)size; v++) {
			if (s->faulty[v] && rs[v].count) {
				snprintf(why, len, "faulty rank %u holds %u units", v, rs[v].count);
				return;
			}
		}
		*pass = settled_loads(rs, why, len);
		return;
	}
	for (v = 0; v < (u32)size; v++) {
		if (rs[v].count != O.plan.after[v] || (s->faulty[v] && rs[v].count)) {
			snprintf(why, len, "rank %u holds %u units, the core's plan %u%s",
				 v, rs[v].count, O.plan.after[v],
				 s->faulty[v] ? " (faulty)" : "");
			return;
		}
	}
	*pass = true;
}

static void check_msgs(u32 pol, const struct rsum *rs, char *why, size_t len,
		       bool *pass)
{
	u64 sent = 0, recv = 0, relayed = 0, usent = 0, us = 0, ur = 0, hops = 0;
	u32 v, i;

	*pass = false;
	for (i = 0; i < O.plan.ntransfers; i++)
		hops += O.plan.transfers[i].count;
	for (i = 0; i < O.nevac; i++)
		hops += O.evac[i].count;
	for (v = 0; v < (u32)size; v++) {
		u32 es = 0, er = 0, eu = 0;

		expected_msgs(pol, v, &es, &er, &eu);
		if (rs[v].usent != eu) {
			snprintf(why, len, "rank %u sent %u unit messages, %u transfers planned",
				 v, rs[v].usent, eu);
			return;
		}
		if (pol != HCUBE_POLICY_SBN && (rs[v].sent != es || rs[v].recv != er)) {
			snprintf(why, len, "rank %u sent %u and received %u messages, %u and %u expected",
				 v, rs[v].sent, rs[v].recv, es, er);
			return;
		}
		sent += rs[v].sent;
		recv += rs[v].recv;
		relayed += rs[v].relayed;
		usent += rs[v].usent;
		us += rs[v].units_sent;
		ur += rs[v].units_recv;
	}
	if (sent != recv || us != hops || ur != hops) {
		snprintf(why, len, "%llu messages sent, %llu received; units %llu sent, %llu received, %llu task-hops",
			 (unsigned long long)sent, (unsigned long long)recv,
			 (unsigned long long)us, (unsigned long long)ur,
			 (unsigned long long)hops);
		return;
	}
	if (pol == HCUBE_POLICY_SBN) {
		u64 logical = sent - relayed - O.nevac;

		if (logical != O.plan.stats.messages) {
			snprintf(why, len, "%llu logical messages (%llu sent, %llu relayed), the core counts %u = 3(P - 1) + J",
				 (unsigned long long)logical, (unsigned long long)sent,
				 (unsigned long long)relayed, O.plan.stats.messages);
			return;
		}
	} else if (relayed) {
		snprintf(why, len, "%llu relayed messages", (unsigned long long)relayed);
		return;
	}
	*pass = true;
}

static void check_steps(u32 pol, const struct rsum *rs, char *why, size_t len,
			bool *pass)
{
	const struct hcube_topo *t = &O.topo;
	u32 v, want;

	*pass = false;
	switch (pol) {
	case HCUBE_POLICY_CWA:
	case HCUBE_POLICY_DEM:
		want = 3 * dim;		/* the paper's 3 log N */
		break;
	case HCUBE_POLICY_MCWA:
		want = 4 * t->depth + 3 * t->cb_dim;
		/* the paper's 3 log N + T, which assumes k = n - T */
		if (t->cb_dim + t->depth == dim && want != 3 * dim + t->depth) {
			snprintf(why, len, "4T + 3k = %u is not 3 log N + T", want);
			return;
		}
		break;
	case HCUBE_POLICY_SBN:
		want = O.plan.stats.comm_steps;
		break;
	default:
		want = O.plan.nsteps;
	}
	for (v = 0; v < (u32)size; v++) {
		if (rs[v].steps != want) {
			snprintf(why, len, "rank %u counts %u steps, %u expected", v,
				 rs[v].steps, want);
			return;
		}
	}
	*pass = true;
}


/* The core's imbalance (max / avg over @healthy) of @load, as the report's. */
double imbalance_of(const u64 *load, u32 healthy)
{
	u64 max = 0, total = 0;
	u32 v;

	for (v = 0; v < (u32)size; v++) {
		total += load[v];
		if (load[v] > max)
			max = load[v];
	}
	return total && healthy ? (double)max * healthy / (double)total : 1.0;
}

u32 healthy_in(const struct scen *s)
{
	u32 v, n = 0;

	for (v = 0; v < (u32)size; v++)
		n += !s->faulty[v];
	return n;
}

/*
 * hcube_mpi_plan() before the balance: nothing moves, nothing is sent,
 * and it lists the core's transfers and evacuation.
 */
static void check_plan(struct hcube_mpi *h, const struct scen *s, u32 idx, u32 pol,
		       struct hcube_mpi_report *prep)
{
	struct hcube_mpi_xfer *xf, *ev, *core;
	u32 nx = 0, ne = 0, before = Q.n, v;
	double imb = 1.0;
	char why[256] = "";
	bool pass = false;
	int err;

	u32 *pa;

	err = hcube_mpi_plan(h, pname(pol), prep);
	xf = gatherv(prep->xfers, prep->nxfers, sizeof(*xf), &nx);
	ev = gatherv(prep->evacs, prep->nevacs, sizeof(*ev), &ne);
	pa = gather_u32(prep->after == prep->weight_after ? prep->after : ~0U);
	if (!rank) {
		u64 after[MAXV];

		core = oracle_xfers(false, 0);
		pass = same_xfers(xf, nx, core, O.plan.ntransfers, why, sizeof(why)) &&
		       same_xfers(ev, ne, O.evac, O.nevac, why, sizeof(why));
		/* each rank's after and weight_after: the plan's */
		for (v = 0; pass && v < (u32)size; v++) {
			if (pa[v] != O.plan.after[v]) {
				snprintf(why, sizeof(why), "rank %u reports %d after the plan, the core %u",
					 v, (int)pa[v], O.plan.after[v]);
				pass = false;
			}
		}
		for (v = 0; v < (u32)size; v++)
			after[v] = O.plan.after[v];
		imb = imbalance_of(after, healthy_in(s));
		free(core);
	}
	MPI_Bcast(&imb, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	result(shared(pass) && all(!err && Q.n == before && !prep->msgs_sent &&
				   prep->imbalance_after == imb && q_intact(&Q)),
	       "P=%d scenario %u %s: plan moves nothing and lists the core's %u transfers and %u evacuations, imbalance after %.3f%s%s",
	       size, idx, pname(pol), O.plan.ntransfers, O.nevac, imb, *why ? ": " : "", why);
	*why = '\0';
	result(imports_match(prep, why, sizeof(why)),
	       "P=%d scenario %u %s: plan: the transfers to each rank are the transfers from the others%s%s",
	       size, idx, pname(pol), *why ? ": " : "", why);
	free(xf);
	free(ev);
}

/* The report's counts and imbalances against the units themselves. */
static void check_report(const struct scen *s, u32 idx, u32 pol, const u32 *before,
			 const struct hcube_mpi_report *rep, u32 mine_before)
{
	u64 b[MAXV], a[MAXV], total = 0;
	double ib = 0, ia = 0;
	u32 *g = gather_u32(Q.n), v;

	if (!rank) {
		for (v = 0; v < (u32)size; v++) {
			b[v] = before[v];
			a[v] = g[v];
			total += b[v];
		}
		ib = imbalance_of(b, healthy_in(s));
		ia = imbalance_of(a, healthy_in(s));
	}
	MPI_Bcast(&ib, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Bcast(&ia, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Bcast(&total, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	result(all(rep->before == mine_before && rep->after == Q.n && rep->total == total &&
		   rep->total_weight == total && rep->weight_before == mine_before &&
		   rep->weight_after == Q.n && rep->heaviest == (total > 0) &&
		   rep->healthy == healthy_in(s) && !rep->by_weight && rep->member &&
		   rep->imbalance_before == ib && rep->imbalance_after == ia &&
		   rep->weight_imbalance_before == ib && rep->weight_imbalance_after == ia),
	       "P=%d scenario %u %s: the report: units before and after, %llu in all, imbalance %.3f before and %.3f after",
	       size, idx, pname(pol), (unsigned long long)total, ib, ia);
}

static void run_policy(struct hcube_mpi *h, const struct scen *s, u32 idx, u32 pol)
{
	struct hcube_mpi_report rep, mrep, prep;
	u32 before[MAXV], *g, v, nx = 0, nev = 0, nid = 0, mine_before;
	u64 total;
	struct hcube_mpi_xfer *xf, *ev;
	int err, nf = 0;
	u64 *ids;
	char why[256] = "";
	bool pass, settles = false;

	/* a fresh start: every rank healthy and its scenario load */
	weight_kind = 0;
	g = gather_u32(s->load[rank]);
	if (!rank) {
		memcpy(before, g, size * sizeof(u32));
		oracle_states(s);
		oracle_evacuate(before, before, false, 0);
	}
	/* marking evacuates the newly faulty ranks */
	err = start_scenario(h, s, (u64)rank << 32, &mrep);
	for (v = 0; v < (u32)size; v++)
		nf += s->faulty[v];
	ev = gatherv(mrep.evacs, mrep.nevacs, sizeof(*ev), &nev);
	pass = !rank && !err && same_xfers(ev, nev, O.evac, O.nevac, why, sizeof(why));
	cov.evac_mark += O.nevac;
	for (v = 0, total = 0; v < (u32)size; v++)
		total += s->load[v];
	result(shared(pass) && all(mrep.before == s->load[rank] && mrep.after == Q.n &&
				   mrep.total == total && mrep.healthy == healthy_in(s)),
	       "P=%d scenario %u %s: marking %d faulty evacuates as the module does; its report: units before and after, %llu in all%s%s",
	       size, idx, pname(pol), nf, (unsigned long long)total, *why ? ": " : "", why);
	free(ev);

	/* units pushed onto faulty ranks afterwards go at the balance */
	fill(&Q, ((u64)rank << 32) | 0x80000000U, s->late[rank]);
	mine_before = Q.n;
	g = gather_u32(Q.n);
	if (!rank) {
		memcpy(before, g, size * sizeof(u32));
		oracle_evacuate(before, before, false, 0);
		err = oracle_plan(pol);
	}
	MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (err) {
		/* the core refuses (cwa with faults): so must the library */
		int ep = hcube_mpi_plan(h, pname(pol), &prep);
		int e = hcube_mpi_balance(h, pname(pol), &rep);

		result(all(e == HCUBE_MPI_E_NEED_MCWA && ep == e && err == HCUBE_E_NEED_MCWA &&
			   rep.nxfers == 0 && prep.nxfers == 0 && Q.n == rep.before),
		       "P=%d scenario %u %s: plan and balance refused like the core (%s), nothing moved",
		       size, idx, pname(pol), hcube_mpi_strerror(e));
		return;
	}
	check_plan(h, s, idx, pol, &prep);
	err = hcube_mpi_balance(h, pname(pol), &rep);
	result(all(!err), "P=%d scenario %u %s: balance returns %s", size, idx,
	       pname(pol), hcube_mpi_strerror(err));

	/* the transfers: the evacuation's and the plan's */
	ev = gatherv(rep.evacs, rep.nevacs, sizeof(*ev), &nev);
	xf = gatherv(rep.xfers, rep.nxfers, sizeof(*xf), &nx);
	*why = '\0';
	pass = !rank && same_xfers(ev, nev, O.evac, O.nevac, why, sizeof(why));
	result(shared(pass), "P=%d scenario %u %s: the evacuation equals the module's%s%s",
	       size, idx, pname(pol), *why ? ": " : "", why);
	*why = '\0';
	if (!rank) {
		struct hcube_mpi_xfer *core = oracle_xfers(false, 0);

		settles = sbn_settles(pol);
		if (settles) {
			cov.sbn_settled++;
			pass = plan_then_settle(xf, nx, core, O.plan.ntransfers, why, sizeof(why));
		} else {
			pass = same_xfers(xf, nx, core, O.plan.ntransfers, why, sizeof(why));
		}
		free(core);
		cov.transfers += O.plan.ntransfers;
		cov.evac_balance += O.nevac;
		if (pol == HCUBE_POLICY_MCWA) {
			cov.trees += O.topo.depth > 0;
			cov.detached += O.topo.nattached < O.topo.nhealthy;
			for (v = 0; v < nv; v++)
				cov.theta += O.th_sent[v];
		}
		if (pol == HCUBE_POLICY_SBN)
			cov.sbn_jobs += O.plan.stats.job_messages;
	}
	result(shared(pass), "P=%d scenario %u %s: %u transfers, each the core's (step, from, to, count)%s%s",
	       size, idx, pname(pol), O.plan.ntransfers, *why ? ": " : "", why);
	free(ev);
	free(xf);
	*why = '\0';
	result(imports_match(&rep, why, sizeof(why)) && all(rep.steps == prep.steps),
	       "P=%d scenario %u %s: the transfers to each rank are the transfers from the others; the plan said %u steps%s%s",
	       size, idx, pname(pol), prep.steps, *why ? ": " : "", why);
	check_report(s, idx, pol, before, &rep, mine_before);

	/* the units: each once, intact, the plan's final loads, none faulty */
	ids = gather_ids(&nid);
	*why = '\0';
	{
		struct rsum r = {
			.sent = rep.msgs_sent, .recv = rep.msgs_recv,
			.usent = rep.unit_msgs_sent, .relayed = rep.relayed,
			.steps = rep.steps, .count = Q.n, .units_sent = rep.units_sent,
			.units_recv = rep.units_recv, .nx = rep.nxfers,
		};
		struct rsum *rs = gatherv(&r, 1, sizeof(r), &nx);

		bool intact = all_intact(q_intact(&Q));

		if (!rank) {
			check_units(s, before, ids, nid, rs, why, sizeof(why), &pass,
				    settles);
			result(pass && intact,
			       "P=%d scenario %u %s: every unit arrives once, intact, the core's final loads, none on a faulty rank%s%s",
			       size, idx, pname(pol), *why ? ": " : "", why);
			*why = '\0';
			/* the settle's messages are not the protocol's */
			if (settles)
				pass = true;
			else
				check_msgs(pol, rs, why, sizeof(why), &pass);
			for (v = 0; v < (u32)size; v++)
				cov.relayed += rs[v].relayed;
			result(pass, "P=%d scenario %u %s: messages as the protocol implies on the core's topology%s%s",
			       size, idx, pname(pol), *why ? ": " : "", why);
			*why = '\0';
			check_steps(pol, rs, why, sizeof(why), &pass);
			result(pass, "P=%d scenario %u %s: %u steps%s%s", size, idx,
			       pname(pol), rs[0].steps, *why ? ": " : "", why);
		} else {
			result(true, "%s", "");
			result(true, "%s", "");
			result(true, "%s", "");
		}
		free(rs);
	}
	free(ids);
}


int main(int argc, char **argv)
{
	u64 seed = 20240501;
	u32 nscen = 10, idx, pol;
	struct hcube_mpi *h, *hw;
	int i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--scenarios"))
			nscen = (u32)strtoul(argv[i + 1], NULL, 0);
	}
	oracle_init();
	O.obs.fn = observe;
	if (!rank)
		printf("TAP version 13\n# P = %d ranks, %u-cube, seed %llu\n", size,
		       dim, (unsigned long long)seed);

	if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &Q, &h) ||
	    hcube_mpi_open(MPI_COMM_WORLD, &ops_w, &Q, &hw))
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (idx = 0; idx < nscen; idx++) {
		struct scen s;

		draw(&s, seed, idx);
		for (pol = 0; pol < __HCUBE_POLICY_MAX; pol++)
			run_policy(h, &s, idx, pol);
		for (pol = 0; pol < __HCUBE_POLICY_MAX; pol++)
			run_weights(hw, &s, idx, pol);
	}
	api_tests(h, hw);
	{
		unsigned long long mine = max_packed, most = 0;

		MPI_Reduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
		if (!rank)
			printf("# largest message packed: %llu bytes\n", most);
	}
	hcube_mpi_close(h);
	hcube_mpi_close(hw);
	if (!rank) {
		printf("# coverage: transfers %llu relayed %llu evac_mark %llu evac_balance %llu theta %llu sbn_jobs %llu sbn_settled %llu trees %u detached %u\n",
		       (unsigned long long)cov.transfers, (unsigned long long)cov.relayed,
		       (unsigned long long)cov.evac_mark,
		       (unsigned long long)cov.evac_balance,
		       (unsigned long long)cov.theta, (unsigned long long)cov.sbn_jobs,
		       (unsigned long long)cov.sbn_settled, cov.trees, cov.detached);
		weight_coverage();
		printf("1..%d\n", tap_tests());
	}
	free(Q.u);
	MPI_Finalize();
	return tap_failures() ? 1 : 0;
}
