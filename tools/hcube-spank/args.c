// SPDX-License-Identifier: GPL-2.0
/*
 * hcube.so: the plugin's arguments in plugstack.conf and the value of the
 * user's --hcube option.
 *
 *   optional /usr/lib/.../hcube.so [default[=POLICY]] [user_policy=yes|no]
 *   srun --hcube[=POLICY|off]
 */
#include <stdio.h>
#include <string.h>
#include "hcube_spank.h"

int hs_parse_option(const char *arg)
{
	int policy;

	/*
	 * Given without a value to sbatch or salloc, an option reaches the
	 * sruns of the job as "(null)" (plugstack.c, _option_setenv()).
	 */
	if (!arg || !*arg || !strcmp(arg, "(null)"))
		return HS_ON;
	if (!strcmp(arg, "off"))
		return HS_OFF;
	policy = hcl_policy_parse(arg);
	return policy < 0 ? HS_BAD : policy;
}

int hs_parse_args(int argc, char **argv, struct hs_conf *conf, char *why, size_t size)
{
	int i, ret = 0;

	conf->by_default = HS_OFF;
	conf->user_policy = false;
	if (size)
		why[0] = '\0';
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int v = HS_BAD;

		if (!strcmp(a, "default"))
			v = HS_ON;
		else if (!strncmp(a, "default=", 8))
			v = hs_parse_option(a + 8);
		if (v != HS_BAD) {
			conf->by_default = v;
			continue;
		}
		if (!strcmp(a, "user_policy=yes") || !strcmp(a, "user_policy=no")) {
			conf->user_policy = a[12] == 'y';
			continue;
		}
		/* the first word it does not know */
		if (!ret)
			snprintf(why, size, "'%s' is not an argument of hcube.so (default[=%s|off], "
				 "user_policy=yes|no): ignored", a, hcl_policy_names("|"));
		ret = -1;
	}
	return ret;
}
