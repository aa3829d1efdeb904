// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl apply: the configuration file (/etc/hcube/hcube.conf), one 'key
 * value' per line, into a struct want: the topology mode (and the CPU
 * groups of mode custom), the settings, the fault marks. Every line is
 * checked before anything is sent: each bad one is named with FILE:LINE
 * and the reason, and then apply changes nothing (exit 2).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "apply.h"

/* Module parameters: read at load only. */
static const char *const load_params[] = { "max_tasks", "births", "isolated" };

static bool set_empty(const uint8_t *set)
{
	size_t i;

	for (i = 0; i < AP_SET_BYTES; i++)
		if (set[i])
			return false;
	return true;
}

void ap_bad(struct want *w, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "hcubectl: apply: %s:%u: ", w->name, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	w->nbad++;
}

int ap_bad_lines(const struct want *w)
{
	if (!w->nbad)
		return 0;
	fflush(stdout);
	fprintf(stderr, "hcubectl: apply: %s: %d bad line%s; nothing changed\n", w->name,
		w->nbad, w->nbad > 1 ? "s" : "");
	return HC_EXIT_USAGE;
}

/* The CPULISTs of mode custom, argv[2..argc): false if one is bad. */
static bool parse_groups(struct want *w, unsigned int ln, int argc, char **argv)
{
	const char *why;
	int i, k;

	w->ngroups = argc > 2 ? (uint32_t)(argc - 2) : 0;
	w->groups = hc_malloc(w->ngroups * sizeof(*w->groups) + 1);
	w->group_str = hc_malloc(w->ngroups * sizeof(char *) + 1);
	for (i = 2; i < argc; i++) {
		uint8_t *g = w->groups[i - 2];

		w->group_str[i - 2] = strdup(argv[i]);
		if (!hc_cpulist_bits(argv[i], g, AP_MAX_CPUS, &why)) {
			ap_bad(w, ln, "mode custom: CPULIST '%s' %s", argv[i], why);
			return false;
		}
		if (set_empty(g)) {
			ap_bad(w, ln, "mode custom: CPULIST %d is empty (every group needs a CPU)",
			       i - 2);
			return false;
		}
		for (k = 0; k < i - 2; k++) {
			size_t b;

			for (b = 0; b < AP_SET_BYTES && !(g[b] & w->groups[k][b]); b++)
				;
			if (b < AP_SET_BYTES) {
				ap_bad(w, ln, "mode custom: CPULISTs '%s' and '%s' share CPUs (groups are disjoint)",
				       argv[k + 2], argv[i]);
				return false;
			}
		}
	}
	return true;
}

static void parse_mode(struct want *w, unsigned int ln, int argc, char **argv)
{
	const char *modes = "cpu, node, llc, custom CPULIST..., auto";

	if (w->has_mode) {
		ap_bad(w, ln, "mode given twice (first on line %u)", w->mode_line);
		return;
	}
	if (argc < 2) {
		ap_bad(w, ln, "mode: missing value (%s)", modes);
		return;
	}
	w->mode = hc_enum_parse(hc_mode_names, ARRAY_SIZE(hc_mode_names), argv[1]);
	w->mode_auto = !strcmp(argv[1], "auto");
	if (w->mode < 0 && !w->mode_auto) {
		ap_bad(w, ln, "mode: unknown mode '%s' (%s)", argv[1], modes);
		return;
	}
	if (w->mode != HCUBE_MODE_CUSTOM && argc > 2) {
		ap_bad(w, ln, "mode %s takes no CPU list ('%s')", argv[1], argv[2]);
		return;
	}
	if (w->mode == HCUBE_MODE_CUSTOM && argc < 3) {
		ap_bad(w, ln, "mode custom: missing CPULIST (one per vertex, like 0-3 4-7)");
		return;
	}
	if (argc - 2 > 1 << HCUBE_MAX_DIM_UAPI) {
		ap_bad(w, ln, "mode custom: %d CPULISTs, at most %d", argc - 2,
		       1 << HCUBE_MAX_DIM_UAPI);
		return;
	}
	if (!parse_groups(w, ln, argc, argv))
		return;
	w->has_mode = true;
	w->mode_line = ln;
}

static void parse_fault(struct want *w, unsigned int ln, int argc, char **argv)
{
	struct fault f = { .line = ln };
	const char *why;
	size_t i;

	if (argc < 3 || (strcmp(argv[1], "cpu") && strcmp(argv[1], "vertex"))) {
		ap_bad(w, ln, "fault: want 'fault cpu N' or 'fault vertex V'");
		return;
	}
	if (argc > 3) {
		ap_bad(w, ln, "fault %s %s: unexpected '%s' (one fault per line)", argv[1], argv[2],
		       argv[3]);
		return;
	}
	f.cpu = !strcmp(argv[1], "cpu");
	if (f.cpu && (!hc_parse_u32(argv[2], &f.id) || f.id >= AP_MAX_CPUS)) {
		ap_bad(w, ln, "fault cpu: '%s' is not a CPU number (0..%d)", argv[2],
		       AP_MAX_CPUS - 1);
		return;
	}
	if (!f.cpu && !hc_parse_vertex(argv[2], &f.id, &why)) {
		ap_bad(w, ln, "fault vertex: '%s' %s", argv[2], why);
		return;
	}
	if (!f.cpu && f.id >= 1U << HCUBE_MAX_DIM_UAPI) {
		ap_bad(w, ln, "fault vertex: %u is out of range (0..%d)", f.id,
		       (1 << HCUBE_MAX_DIM_UAPI) - 1);
		return;
	}
	for (i = 0; i < w->nfaults; i++)
		if (w->faults[i].cpu == f.cpu && w->faults[i].id == f.id) {
			ap_bad(w, ln, "fault %s %u given twice (first on line %u)", argv[1], f.id,
			       w->faults[i].line);
			return;
		}
	w->faults = hc_realloc(w->faults, (w->nfaults + 1) * sizeof(*w->faults));
	w->faults[w->nfaults++] = f;
}

static void parse_setting(struct want *w, unsigned int ln, int k, int argc, char **argv)
{
	struct hc_str why = { 0 };
	uint32_t x;

	if (w->has[k]) {
		ap_bad(w, ln, "%s given twice (first on line %u)", hc_settings[k].key, w->line[k]);
		return;
	}
	if (argc != 2) {
		ap_bad(w, ln, "%s: %s", hc_settings[k].key,
		       argc < 2 ? "missing value" : "one value only");
		return;
	}
	if (hc_setting_parse(k, hc_settings[k].key, argv[1], true, &x, &why)) {
		ap_bad(w, ln, "%s%s", k == HC_SET_POLICY ? "policy: " : "", why.s);
		hc_str_free(&why);
		return;
	}
	w->has[k] = true;
	w->val[k] = x;
	w->line[k] = ln;
}

static void parse_line(struct want *w, unsigned int ln, int argc, char **argv)
{
	size_t i;
	int k;

	if (!strcmp(argv[0], "mode")) {
		parse_mode(w, ln, argc, argv);
		return;
	}
	if (!strcmp(argv[0], "fault")) {
		parse_fault(w, ln, argc, argv);
		return;
	}
	k = hc_setting_find(argv[0]);
	if (k >= 0) {
		parse_setting(w, ln, k, argc, argv);
		return;
	}
	if (hc_health_key(argv[0]) >= 0) {
		uint32_t x;

		/* hcubectl health's thresholds: nothing for the module */
		if (argc != 2 || !hc_parse_u32(argv[1], &x))
			ap_bad(w, ln, "%s: wants one number (0 to 4294967295)", argv[0]);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(load_params); i++)
		if (!strcmp(argv[0], load_params[i])) {
			ap_bad(w, ln, "%s is a module parameter, read when the module loads: put "
			       "'options hcube %s=...' in /etc/modprobe.d/hcube.conf", argv[0],
			       argv[0]);
			return;
		}
	ap_bad(w, ln, "unknown key '%s' (mode, fault, policy, auto, threshold, cooldown, "
	       "mce_ce_threshold, mce_ce_window, mce_uc, min_healthy_cpus, min_healthy_vertices)",
	       argv[0]);
}

int ap_parse_file(struct want *w, const char *file)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	unsigned int ln = 0;

	if (!strcmp(file, "-")) {
		if (hc_batch_stdin)
			hc_fatal("apply: -: stdin is the batch file; name a file");
		f = stdin;
		w->name = "<stdin>";
	} else {
		f = fopen(file, "r");
		w->name = file;
	}
	if (!f)
		hc_fatal("apply: %s: %s", file, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		struct hc_words words = { 0 };
		const char *why;

		ln++;
		why = hc_split_words(line, &words);
		if (why)
			ap_bad(w, ln, "%s", why);
		else if (words.n)
			parse_line(w, ln, words.n, words.v);
		free(words.v);
	}
	if (ferror(f))
		hc_fatal("apply: %s: read error", w->name);
	free(line);
	if (f != stdin)
		fclose(f);
	return ap_bad_lines(w);
}

void ap_want_free(struct want *w)
{
	uint32_t i;

	for (i = 0; i < w->ngroups; i++)
		free(w->group_str[i]);
	free(w->group_str);
	free(w->groups);
	free(w->faults);
}
