// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim aapc: the fault-tolerant all-to-all personalized communication
 * schedule of H. Masuyama and E. Masuyama, "A Method of Fault-Tolerant
 * All-to-All Personalized Communication in Hypercubes", IPSJ Journal,
 * technical note, 2003 (hcube_aapc()) for a cube and its faulty nodes:
 * per time unit the link crossings (from, to) with the datum each carries
 * (its source and destination), then the totals beside the paper's formula.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "json.h"

static void aapc_usage(FILE *f)
{
	fputs("usage: hcube-sim aapc --dim N [--faulty V,V,...] [--force-af]\n"
	      "                      [--totals] [--json]\n"
	      "\n"
	      "Prints the fault-tolerant all-to-all personalized communication schedule\n"
	      "of Masuyama and Masuyama (2003) on an N-cube (N = 0..10) with the given\n"
	      "faulty nodes (at most floor(N/2)): every healthy node sends one datum to\n"
	      "every other healthy node, each link direction carries one datum per time\n"
	      "unit. Per unit, the hops 'from->to src>dst'; then the units, the paper's\n"
	      "formula for N and f, the link crossings (hops) and the data. --force-af\n"
	      "uses A_f also for 2 faults; --totals omits the schedule.\n"
	      "\n"
	      "Exit status: 0 on success, 2 on bad input (one line on stderr).\n", f);
}

static const char *const alg_names[] = { "xor", "a1", "a2", "af" };

const char *sim_aapc_alg(u32 alg)
{
	return alg < 4 ? alg_names[alg] : "?";
}

int sim_aapc_info(u32 dim, const u8 *state, struct hcube_aapc_info *info)
{
	void *work = malloc(hcube_aapc_memsize(dim));
	int err;

	if (!work)
		sim_die("out of memory");
	err = hcube_aapc(dim, state, 0, NULL, 0, info, work);
	free(work);
	return err;
}

static int cmp_unit(const void *a, const void *b)
{
	const struct hcube_aapc_hop *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	/* stable: the core's order (datum by datum) within a unit */
	return x < y ? -1 : x > y;
}

int cmd_aapc(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dim", required_argument, NULL, 'd' },
		{ "faulty", required_argument, NULL, 'f' },
		{ "force-af", no_argument, NULL, 'F' },
		{ "totals", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static u32 faulty[HCUBE_MAX_VERTICES];
	static u8 state[HCUBE_MAX_VERTICES];
	const char *faulty_arg = "";
	bool have_dim = false, totals = false, js = false;
	u32 dim = 0, flags = 0, nf, i;
	struct hcube_aapc_info info;
	struct hcube_aapc_hop *hops;
	char a[HCUBE_MAX_DIM + 2], b[HCUBE_MAX_DIM + 2];
	char s[HCUBE_MAX_DIM + 2], d[HCUBE_MAX_DIM + 2];
	void *work;
	u64 k;
	int c, err;

	while ((c = sim_getopt(argc, argv, opts, "aapc", aapc_usage)) != -1) {
		switch (c) {
		case 'd':
			dim = (u32)sim_parse_uint("--dim", optarg, HCUBE_MAX_DIM);
			have_dim = true;
			break;
		case 'f':
			faulty_arg = optarg;
			break;
		case 'F':
			flags |= HCUBE_AAPC_FORCE_AF;
			break;
		case 't':
			totals = true;
			break;
		case 'j':
			js = true;
			break;
		}
	}
	if (!have_dim)
		sim_die("aapc: --dim is required");
	nf = (u32)sim_parse_list("--faulty", faulty_arg, (1U << dim) - 1, faulty,
				 HCUBE_MAX_VERTICES);
	if (nf > (1U << dim))
		sim_die("--faulty: %u ids given, a %u-cube has %u vertices", nf, dim,
			1U << dim);
	for (i = 0; i < nf; i++) {
		if (state[faulty[i]])
			sim_die("--faulty: vertex %u listed twice", faulty[i]);
		state[faulty[i]] = HCUBE_V_FAULTY;
	}

	work = malloc(hcube_aapc_memsize(dim));
	if (!work)
		sim_die("out of memory");
	err = hcube_aapc(dim, state, flags, NULL, 0, &info, work);
	if (err == HCUBE_E_AAPC_FAULTS)
		sim_die("aapc: %u faulty nodes, a %u-cube allows at most %u", nf, dim,
			dim / 2);
	if (err)
		sim_die("aapc: %s", hcube_strerror(err));
	hops = malloc((info.hops + 1) * sizeof(*hops));
	if (!hops)
		sim_die("out of memory");
	if (!totals) {
		err = hcube_aapc(dim, state, flags, hops, info.hops, &info, work);
		if (err)
			sim_die("aapc: %s", hcube_strerror(err));
		qsort(hops, info.hops, sizeof(*hops), cmp_unit);
	}

	if (js) {
		struct json j;

		json_init(&j, stdout, false);
		json_obj_open(&j, NULL);
		json_uint(&j, "dim", dim);
		json_arr_open(&j, "faulty");
		for (i = 0; i < (1U << dim); i++)
			if (state[i])
				json_uint(&j, NULL, i);
		json_arr_close(&j);
		json_str(&j, "alg", sim_aapc_alg(info.alg));
		json_uint(&j, "faults", info.faults);
		json_uint(&j, "units", info.units);
		json_uint(&j, "paper_units", info.paper_units);
		json_uint(&j, "main_units", info.main_units);
		json_uint(&j, "windows", info.windows);
		json_uint(&j, "window_units", info.window_units);
		json_uint(&j, "special_data", info.special_data);
		json_uint(&j, "hops", info.hops);
		json_uint(&j, "data", info.data);
		if (!totals) {
			json_arr_open(&j, "schedule");
			for (k = 0; k < info.hops; k++) {
				json_arr_open(&j, NULL);
				json_uint(&j, NULL, hops[k].unit);
				json_uint(&j, NULL, hops[k].from);
				json_uint(&j, NULL, hops[k].to);
				json_uint(&j, NULL, hops[k].src);
				json_uint(&j, NULL, hops[k].dst);
				json_arr_close(&j);
			}
			json_arr_close(&j);
		}
		json_obj_close(&j);
		json_end(&j);
	} else {
		printf("aapc, %u-cube, %u faulty:", dim, info.faults);
		for (i = 0; i < (1U << dim); i++)
			if (state[i])
				printf(" %s", sim_label(a, dim, i));
		printf("%s, algorithm %s\n", info.faults ? "" : " none",
		       sim_aapc_alg(info.alg));
		for (k = 0; !totals && k < info.hops; k++) {
			const struct hcube_aapc_hop *h = &hops[k];

			if (!k || h->unit != hops[k - 1].unit)
				printf("%sunit %u:", k ? "\n" : "", h->unit);
			printf(" %s->%s %s>%s", sim_label(a, dim, h->from),
			       sim_label(b, dim, h->to), sim_label(s, dim, h->src),
			       sim_label(d, dim, h->dst));
		}
		if (!totals && info.hops)
			printf("\n");
		printf("units %u (paper's formula %u), windows %u of %u units, "
		       "special data %u\n", info.units, info.paper_units, info.windows,
		       info.window_units, info.special_data);
		printf("hops %llu, data %llu\n", (unsigned long long)info.hops,
		       (unsigned long long)info.data);
	}
	free(hops);
	free(work);
	return 0;
}
