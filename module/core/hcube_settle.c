// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the settle, the pairwise rounds that end a balance by weight
 * as close to the best split as whole units allow (hcube_core.h has the
 * rule, its stopping rule and its bound; Documentation/core.md).
 *
 * The caller owns the units: each round it tells the vertices' weights
 * and what it knows of their lightest units, carries out the moves this
 * returns, and calls again. Pure integers, no allocation: the same round
 * serves libhcube-mpi and the planners of the module and hcube-sim.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

/* Does @a come before @b: by component, heaviest first, then by label. */
static bool settle_before(u32 a, u32 b, const u16 *comp, const u64 *load)
{
	if (comp[a] != comp[b])
		return comp[a] < comp[b];
	if (load[a] != load[b])
		return load[a] > load[b];
	return a < b;
}

/* Shell sort of @order[0 .. @m): no recursion, no library. */
static void settle_sort(u16 *order, u32 m, const u16 *comp, const u64 *load)
{
	static const u32 gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
	u32 g = 0, gap, i, j;

	do {
		gap = gaps[g++];

		for (i = gap; i < m; i++) {
			u16 x = order[i];

			for (j = i; j >= gap &&
			     settle_before(x, order[j - gap], comp, load); j -= gap)
				order[j] = order[j - gap];
			order[j] = x;
		}
	} while (gap > 1);
}

u32 hcube_settle_round(u32 n, const u16 *comp, const u64 *load,
		       const u64 *least, bool exact, u16 *order, u16 *to, u64 *ask)
{
	u32 m = 0, v, first, end, i, pairs = 0;

	for (v = 0; v < n; v++) {
		to[v] = HCUBE_VERTEX_NONE;
		ask[v] = 0;
		if (comp[v] != HCUBE_COMP_NONE)
			order[m++] = (u16)v;
	}
	settle_sort(order, m, comp, load);
	for (first = 0; first < m; first = end) {
		for (end = first; end < m && comp[order[end]] == comp[order[first]]; end++)
			;
		for (i = 0; i < (end - first) / 2; i++) {
			u32 hi = order[first + i], lo = order[end - 1 - i];
			u64 d = load[hi] - load[lo];
			u64 a = exact ? d >> 1 : d ? (d - 1) >> 1 : 0;

			if (!a || !least[hi] || least[hi] > 2 * a)
				continue;
			to[hi] = (u16)lo;
			ask[hi] = a;
			pairs++;
		}
	}
	return pairs;
}
