// SPDX-License-Identifier: GPL-2.0
/* libhcube: policy names and CPU lists, without netlink. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hcube.h>
#include "hcube_client.h"

/*
 * As the YNL spec names enum hcube_policy; selftests/spank checks them
 * against the core's own table (hcl_policy_name()).
 */
static const char *const policies[] = {
	[HCUBE_POLICY_MCWA] = "mcwa",		[HCUBE_POLICY_DEM] = "dem",
	[HCUBE_POLICY_CWA] = "cwa",		[HCUBE_POLICY_OPTIMAL] = "optimal",
	[HCUBE_POLICY_AUTO] = "auto",		[HCUBE_POLICY_RID] = "rid",
	[HCUBE_POLICY_SID] = "sid",		[HCUBE_POLICY_SBN] = "sbn",
	[HCUBE_POLICY_SBN_CUBE] = "sbn-cube",	[HCUBE_POLICY_SBN_HEUR] = "sbn-heur",
	[HCUBE_POLICY_PEBBLE] = "pebble",
};
_Static_assert(sizeof(policies) / sizeof(policies[0]) == HCUBE_POLICY_MAX + 1,
	       "a name for every enum hcube_policy");

const char *hcl_policy_name(uint32_t policy)
{
	return policy <= HCUBE_POLICY_MAX ? policies[policy] : NULL;
}

int hcl_policy_parse(const char *name)
{
	int i;

	for (i = 0; i <= HCUBE_POLICY_MAX; i++)
		if (!strcmp(policies[i], name))
			return i;
	return -1;
}

const char *hcl_policy_names(const char *sep)
{
	static char buf[256];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i <= HCUBE_POLICY_MAX && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? sep : "", policies[i]);
	return buf;
}

/*
 * The range "N" or "N-M" at *s, moved past it: false when there is none.
 * The digit tests keep sscanf() from taking blanks or a sign.
 */
static bool range_at(const char **s, unsigned long *lo, unsigned long *hi)
{
	int used = 0;

	if (!isdigit((unsigned char)**s) || sscanf(*s, "%lu%n", lo, &used) != 1)
		return false;
	*s += used;
	*hi = *lo;
	if (**s != '-')
		return true;
	(*s)++;
	if (!isdigit((unsigned char)**s) || sscanf(*s, "%lu%n", hi, &used) != 1)
		return false;
	*s += used;
	return *hi >= *lo;
}

int hcl_cpulist_parse(const char *s, cpu_set_t *set)
{
	bool too_big = false;

	CPU_ZERO(set);
	/* the kernel writes a newline after the list in sysfs */
	while (*s && *s != '\n') {
		unsigned long lo, hi, cpu;

		if (!range_at(&s, &lo, &hi))
			return -EINVAL;
		/* a comma only between two ranges */
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
		for (cpu = lo; cpu <= hi && cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, set);
		too_big |= hi >= CPU_SETSIZE;
	}
	return too_big ? -ERANGE : 0;
}

size_t hcl_cpulist_format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int cpu, last;

	if (size)
		buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu = last + 1) {
		const char *sep = len ? "," : "";
		char *at = len < size ? buf + len : NULL;
		size_t room = len < size ? size - len : 0;

		last = cpu;
		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		if (last == cpu)
			len += (size_t)snprintf(at, room, "%s%d", sep, cpu);
		else
			len += (size_t)snprintf(at, room, "%s%d-%d", sep, cpu, last);
	}
	return len;
}
