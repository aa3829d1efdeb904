# SPDX-License-Identifier: GPL-2.0
"""The module for a python test, as hcube_module.h has it for the C tests.

need(), before the test prints anything: the module loaded already is used
as it is; else it is loaded from HCUBE_KO; without HCUBE_KO the test is
skipped (KTAP "1..0 # SKIP", exit 4). At exit the module is loaded, or not,
as it was at the start; when that fails the exit status is 1.
"""
import atexit
import os
import subprocess
import sys


def loaded():
    return os.path.isdir("/sys/module/hcube")


def need():
    was = loaded()
    ko = os.environ.get("HCUBE_KO")
    if not was:
        if not ko:
            print("TAP version 13\n1..0 # SKIP hcube is not loaded and HCUBE_KO is not set")
            sys.exit(4)
        if subprocess.run(["insmod", ko]).returncode:
            print("TAP version 13\nBail out! insmod %s failed" % ko)
            sys.exit(1)
    atexit.register(restore, was, ko, os.getpid())


def restore(was, ko, pid):
    if os.getpid() != pid or loaded() == was:
        return
    cmd = ["insmod", ko or "(HCUBE_KO is not set)"] if was else ["rmmod", "hcube"]
    if subprocess.run(cmd).returncode:
        print("# %s at the end of the test failed" % " ".join(cmd))
        sys.stdout.flush()
        os._exit(1)
