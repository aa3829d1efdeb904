/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube kselftests: the module as a test program needs it, before main().
 *
 * HC_MODULE(HC_MODULE_LOADED): the test needs the module loaded. Loaded
 * already, it is used as it is; else it is loaded from the file HCUBE_KO
 * names; without HCUBE_KO the test is skipped (KSFT_SKIP) with the reason.
 *
 * HC_MODULE(HC_MODULE_ITSELF): the test loads and unloads the module
 * itself, from hc_module_ko(); without HCUBE_KO it is skipped.
 *
 * Either way, at the end the module is loaded again if it was loaded at the
 * start, and unloaded if it was not; when that fails, so does the test.
 * HCUBE_KO is best an absolute path: kselftest's runner starts each test in
 * the test's own directory. hcube_module.sh and hcube_module.py do the same
 * for the shell and python tests.
 */
#ifndef HCUBE_SELFTEST_MODULE_H
#define HCUBE_SELFTEST_MODULE_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kselftest.h"

enum { HC_MODULE_LOADED, HC_MODULE_ITSELF };

static int hc_module_was_loaded;
static pid_t hc_module_pid;

static inline int hc_module_loaded(void)
{
	return !access("/sys/module/hcube", F_OK);
}

/* The module file (HCUBE_KO), or NULL. */
static inline const char *hc_module_ko(void)
{
	return getenv("HCUBE_KO");
}

/* insmod HCUBE_KO with @params; the status of system(). */
static inline int hc_module_insmod(const char *params)
{
	char cmd[PATH_MAX + 512];

	snprintf(cmd, sizeof(cmd), "insmod %s %s", hc_module_ko(), params);
	return system(cmd);
}

/* At exit (of the test program, not of a child it forked). */
static void hc_module_restore(void)
{
	if (getpid() != hc_module_pid || hc_module_loaded() == hc_module_was_loaded)
		return;
	if (hc_module_was_loaded ? hc_module_insmod("") : system("rmmod hcube")) {
		printf("# %s hcube at the end of the test failed\n",
		       hc_module_was_loaded ? "insmod" : "rmmod");
		fflush(stdout);
		_exit(KSFT_FAIL);
	}
}

static inline void hc_module_setup(int how)
{
	const char *ko = hc_module_ko();

	hc_module_pid = getpid();
	hc_module_was_loaded = hc_module_loaded();
	if (hc_module_was_loaded && how == HC_MODULE_LOADED)
		goto out;
	if (!ko) {
		ksft_print_header();
		ksft_exit_skip("%s\n", how == HC_MODULE_LOADED ?
			       "hcube is not loaded and HCUBE_KO is not set" :
			       "the test loads the module itself: HCUBE_KO is not set");
	}
	if (access(ko, R_OK)) {
		ksft_print_header();
		ksft_exit_fail_msg("HCUBE_KO=%s: %s (a relative path starts from the test's directory)\n",
				   ko, strerror(errno));
	}
	if (how == HC_MODULE_LOADED && hc_module_insmod("")) {
		ksft_print_header();
		ksft_exit_fail_msg("insmod %s failed\n", ko);
	}
out:
	atexit(hc_module_restore);
}

#define HC_MODULE(how)						\
	static void __attribute__((constructor)) hc_module_ctor(void)	\
	{							\
		hc_module_setup(how);				\
	}

#endif
