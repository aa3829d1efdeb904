// SPDX-License-Identifier: GPL-2.0
/*
 * bench-core: time per plan (median over random instances) and the memory
 * a caller provides, for every n = 4..10 and every policy, with no faults,
 * floor(n/2) and n faulty vertices and a quarter of the vertices faulty;
 * then the time per AAPC schedule (Masuyama and Masuyama 2003) for f = 0, 1 and floor(n/2)
 * faults. Loads are uniform in 0..1000. The topology build is timed on
 * its own and inside the plans that use it (HCUBE_POLICY_F_TREES: MCWA,
 * CWA; and auto, which plans MCWA); the other policies are planned
 * without one.
 *
 * For auto, "opt" counts the runs where its optimal candidate fitted in
 * the default work bound (HCUBE_AUTO_BUDGET) and won; "budget" the runs
 * where the bound stopped it (it fell back to DEM or MCWA).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define CORE_RNG_SEED 0x9e3779b97f4a7c15ULL
#include "core_util.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v, u32 n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void faults(u32 nv, u8 *state, u32 *load, u32 nfaulty)
{
	u32 v;

	for (v = 0; v < nv; v++) {
		state[v] = HCUBE_V_HEALTHY;
		load[v] = rnd_below(1001);
	}
	for (v = 0; v < nfaulty;) {
		u32 x = rnd_below(nv);

		if (state[x] == HCUBE_V_HEALTHY) {
			state[x] = HCUBE_V_FAULTY;
			load[x] = 0;
			v++;
		}
	}
}

static u32 runs_for(u32 dim)
{
	return dim >= 10 ? 101 : dim >= 9 ? 201 : dim >= 7 ? 501 : 2001;
}

static int bench_plans(void)
{
	static u8 state[HCUBE_MAX_VERTICES];
	static u32 load[HCUBE_MAX_VERTICES];
	static u64 t_topo[2001], t_plan[2001];
	u32 dim, pol, scen;

	printf("%-4s %-9s %-7s %6s %10s %12s %10s %9s %9s  %s\n", "n",
	       "policy", "faults", "runs", "topo_ns", "plan_ns", "work_B",
	       "topo_B", "plan_B", "auto: opt/budget");
	for (dim = 4; dim <= 10; dim++) {
		u32 nv = 1U << dim, runs = runs_for(dim);
		size_t topo_b = hcube_topo_memsize(dim);
		size_t plan_b = hcube_plan_memsize(dim);
		size_t work_b = hcube_work_memsize(dim);
		void *tm = malloc(topo_b), *pm = malloc(plan_b), *wm = malloc(work_b);
		struct hcube_topo topo;
		struct hcube_plan plan;

		if (!tm || !pm || !wm)
			return 1;
		hcube_topo_init(&topo, dim, tm);
		hcube_plan_init(&plan, dim, pm);
		for (scen = 0; scen < 4; scen++) {
			static const char *const sname[4] = {
				"0", "n/2", "n", "N/4"
			};
			u32 nfaulty = scen == 0 ? 0 : scen == 1 ? dim / 2 :
				      scen == 2 ? dim : nv / 4;

			for (pol = 0; pol < __HCUBE_POLICY_MAX; pol++) {
				const struct hcube_policy_ops *ops = hcube_policy_lookup(pol);
				struct hcube_cube cube = { dim, state, load };
				u32 r, opt = 0, fell = 0;
				char note[32] = "";
				/* auto plans MCWA among its candidates */
				bool use_topo = ops->flags & (HCUBE_POLICY_F_TREES |
							      HCUBE_POLICY_F_CHOOSER);

				if ((ops->flags & HCUBE_POLICY_F_FAULT_FREE) && nfaulty)
					continue;
				for (r = 0; r < runs; r++) {
					u64 t0, t1, t2;
					int err;

					faults(nv, state, load, nfaulty);
					t0 = now_ns();
					err = use_topo ?
					      hcube_topo_build(&topo, dim, state, wm) : 0;
					t1 = now_ns();
					if (!err)
						err = hcube_plan_build(&plan, pol, &cube,
								       use_topo ? &topo : NULL,
								       wm);
					t2 = now_ns();
					if (err) {
						fprintf(stderr, "bench: n %u %s: %s\n", dim,
							hcube_policy_name(pol),
							hcube_strerror(err));
						return 1;
					}
					t_topo[r] = t1 - t0;
					t_plan[r] = t2 - t0;
					if (pol == HCUBE_POLICY_AUTO) {
						opt += plan.applied == HCUBE_POLICY_OPTIMAL;
						fell += plan.work_done > plan.budget;
					}
				}
				if (pol == HCUBE_POLICY_AUTO)
					snprintf(note, sizeof(note), "%u/%u", opt, fell);
				printf("%-4u %-9s %-7s %6u %10llu %12llu %10zu %9zu %9zu  %s\n",
				       dim, hcube_policy_name(pol), sname[scen], runs,
				       use_topo ? (unsigned long long)median(t_topo, runs) :
				       0ULL,
				       (unsigned long long)median(t_plan, runs),
				       work_b, topo_b, plan_b, note);
				fflush(stdout);
			}
		}
		free(tm);
		free(pm);
		free(wm);
	}
	printf("# plan_ns includes topo_ns for mcwa, cwa and auto; the others use no topology.\n");
	printf("# work_B: scratch; topo_B: topology; plan_B: transfers and final loads.\n");
	return 0;
}

static int bench_aapc(void)
{
	static u8 state[HCUBE_MAX_VERTICES];
	static u32 load[HCUBE_MAX_VERTICES];
	static u64 t[201];
	u32 dim;

	printf("\n%-4s %-7s %6s %12s %8s %8s %10s %10s\n", "n", "faults",
	       "runs", "aapc_ns", "units", "paper", "hops", "work_B");
	for (dim = 4; dim <= 10; dim++) {
		u32 nv = 1U << dim, fi, runs = dim >= 9 ? 11 : dim >= 7 ? 51 : 201;
		size_t work_b = hcube_aapc_memsize(dim);
		void *wm = malloc(work_b);

		if (!wm)
			return 1;
		for (fi = 0; fi < 3; fi++) {
			u32 f = fi == 0 ? 0 : fi == 1 ? 1 : dim / 2, r;
			struct hcube_aapc_info info;

			if (fi == 2 && f <= 1)
				continue;
			for (r = 0; r < runs; r++) {
				u64 t0;
				int err;

				faults(nv, state, load, f);
				t0 = now_ns();
				/* the schedule's shape and counts; no hop array */
				err = hcube_aapc(dim, state, 0, NULL, 0, &info, wm);
				t[r] = now_ns() - t0;
				if (err) {
					fprintf(stderr, "bench: aapc n %u f %u: %s\n",
						dim, f, hcube_strerror(err));
					return 1;
				}
			}
			printf("%-4u %-7u %6u %12llu %8u %8u %10llu %10zu\n", dim, f,
			       runs, (unsigned long long)median(t, runs),
			       info.units, info.paper_units,
			       (unsigned long long)info.hops, work_b);
			fflush(stdout);
		}
		free(wm);
	}
	printf("# aapc_ns: hcube_aapc() without storing hops (hops=NULL); units and\n");
	printf("# hops of the last run; paper: the paper's formula for that n and f.\n");
	return 0;
}

int main(int argc, char **argv)
{
	bool plans = true, aapc = true;

	if (argc > 1 && !strcmp(argv[1], "plans"))
		aapc = false;
	else if (argc > 1 && !strcmp(argv[1], "aapc"))
		plans = false;
	if (plans && bench_plans())
		return 1;
	if (aapc && bench_aapc())
		return 1;
	return 0;
}
