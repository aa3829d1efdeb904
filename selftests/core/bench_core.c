// SPDX-License-Identifier: GPL-2.0
/*
 * bench-core: time per plan (median over many random instances) and the
 * memory a caller provides, for n = 4, 6, 8, 10 and each policy, with no
 * faults, n faulty vertices and a quarter of the vertices faulty. The
 * topology build is timed on its own and inside the MCWA/CWA plan time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hcube_core.h"

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u32 rnd_below(u32 n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((((rng * 0x2545F4914F6CDD1DULL) >> 32) * n) >> 32);
}

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

int main(void)
{
	static const u32 dims[] = { 4, 6, 8, 10 };
	static u8 state[HCUBE_MAX_VERTICES];
	static u32 load[HCUBE_MAX_VERTICES];
	static u64 t_topo[4001], t_plan[4001];
	u32 di, pol, scen;

	printf("%-4s %-7s %-10s %8s %12s %12s %10s %10s %10s\n", "n", "policy",
	       "faults", "runs", "topo_ns", "plan_ns", "work_B", "topo_B",
	       "plan_B");
	for (di = 0; di < sizeof(dims) / sizeof(dims[0]); di++) {
		u32 dim = dims[di], nv = 1U << dim;
		size_t topo_b = hcube_topo_memsize(dim);
		size_t plan_b = hcube_plan_memsize(dim);
		size_t work_b = hcube_work_memsize(dim);
		void *tm = malloc(topo_b), *pm = malloc(plan_b), *wm = malloc(work_b);
		u32 runs = dim >= 10 ? 301 : dim >= 8 ? 1001 : 4001;
		struct hcube_topo topo;
		struct hcube_plan plan;

		if (!tm || !pm || !wm)
			return 1;
		hcube_topo_init(&topo, dim, tm);
		hcube_plan_init(&plan, dim, pm);
		for (scen = 0; scen < 3; scen++) {
			u32 nfaulty = scen == 0 ? 0 : scen == 1 ? dim : nv / 4;

			if (scen == 2 && nfaulty == dim)
				continue;

			for (pol = 0; pol < HCUBE_POL_NPOLICIES; pol++) {
				struct hcube_cube cube = { dim, state, load };
				char faults[16];
				u32 r, v;

				if (pol == HCUBE_POL_CWA && nfaulty)
					continue;
				for (r = 0; r < runs; r++) {
					u64 t0, t1, t2;
					int err;

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
					t0 = now_ns();
					err = pol == HCUBE_POL_DEM ? 0 :
					      hcube_topo_build(&topo, dim, state, wm);
					t1 = now_ns();
					if (!err)
						err = hcube_plan_build(&plan, pol, &cube,
								       pol == HCUBE_POL_DEM ?
								       NULL : &topo, wm);
					t2 = now_ns();
					if (err) {
						fprintf(stderr, "bench: %s\n",
							hcube_strerror(err));
						return 1;
					}
					t_topo[r] = t1 - t0;
					t_plan[r] = t2 - t0;
				}
				snprintf(faults, sizeof(faults), "%u", nfaulty);
				printf("%-4u %-7s %-10s %8u %12llu %12llu %10zu %10zu %10zu\n",
				       dim, hcube_policy_name(pol), faults, runs,
				       (unsigned long long)median(t_topo, runs),
				       (unsigned long long)median(t_plan, runs),
				       work_b, topo_b, plan_b);
			}
		}
		free(tm);
		free(pm);
		free(wm);
	}
	printf("# plan_ns includes topo_ns (MCWA/CWA); DEM needs no topology.\n");
	printf("# work_B: scratch; topo_B: topology; plan_B: transfers (at most n*N/2+N) and final loads.\n");
	return 0;
}
