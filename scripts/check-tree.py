#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Fail on references a reader of the repository cannot follow.

Usage: check-tree.py [REPO]

Reads every file git tracks in REPO (default: this repository) and reports,
one line each (FILE:LINE: what), and exits 1 on:

- a paper cited by a number (the word paper, or papers, then three
  digits) or by the file name of a private copy (three digits, an
  underscore, 16 hex digits): cite authors and year instead
  (Documentation/algorithms.md, "References");
- an absolute path whose first folder is a private place (PRIVATE below:
  home and work directories, mounts), whatever follows;
- any other absolute path of two or more parts whose first folder is not
  one every Debian system has (SYSTEM below: usr, etc, sys, proc, dev, lib,
  boot, tmp, var, run, root, ...) nor one of the test VM's own, and that is
  not one of the relative names of RELATIVE below. Only a path that starts
  a word counts: "$dir"/a/b and a/b/c are relative;
- a relative path (dot-dot first) that leads out of the repository from the
  file's folder and names nothing in the repository from any of its
  folders (a Makefile example of how a folder two levels down includes a
  file is fine; a sibling of the repository is not).

Files that are not UTF-8 text are skipped.
"""
import os
import re
import subprocess
import sys

PAPER_NUMBER = re.compile(r"\b[Pp]apers?[ \t_-]*\d{3}\b")
PAPER_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\b")
PRIVATE = ("home", "work", "Users", "mnt", "media", "scratch", "shared",
           "workspace", "nfs")
PRIVATE_PATH = re.compile(r"(?<![\w.$})/-])/(?:%s)(?![\w.-])" % "|".join(PRIVATE))
SYSTEM = {"usr", "etc", "sys", "proc", "dev", "lib", "lib32", "lib64", "bin",
          "sbin", "boot", "tmp", "var", "run", "root", "opt", "srv",
          # the test VM's initramfs (scripts/vm/vm-init.sh)
          "newroot", "hostroot", "ovl"}
# Names that look absolute but are relative to something else.
RELATIVE = (
    "/absolute/path/",   # a placeholder in usage texts
    "/devices/",         # sysfs devices as the kernel prints them (VM logs)
    "/events/",          # tracefs events, after the tracing mount point
    "/jobs/",            # a cgroup, below the cgroup root (hcubectl tests)
    "/updates/dkms",     # DKMS's folder below /lib/modules/VERSION
)
ABS_PATH = re.compile(r"/[A-Za-z0-9_.+~-]+(?:/[A-Za-z0-9_.+~*-]*)+")
REL_PATH = re.compile(r"(?:\.\./)+[A-Za-z0-9_.+-]*")
OPENERS = set(" \t=([{,`|;")


def starts_word(line, i):
    """Does the path at line[i] start a word (not continue a relative one)?"""
    if i == 0 or line[i - 1] in OPENERS:
        return True
    if line[i - 1] in "\"'":
        return i == 1 or line[i - 2] in OPENERS
    return False


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    files = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                           capture_output=True, text=True).stdout.split("\0")
    files = [f for f in files if f]
    dirs = {""} | {os.path.dirname(f) for f in files}
    dirs |= {os.path.dirname(d) for d in list(dirs)}
    bad = []

    def escapes(f, rel):
        own = os.path.normpath(os.path.join(repo, os.path.dirname(f), rel))
        if own == repo or own.startswith(repo + "/"):
            return False
        for d in dirs:
            p = os.path.normpath(os.path.join(repo, d, rel))
            if (p == repo or p.startswith(repo + "/")) and os.path.exists(p):
                return False
        return True

    checked = 0
    for f in files:
        path = os.path.join(repo, f)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (UnicodeDecodeError, OSError):
            continue
        checked += 1
        for n, line in enumerate(text.split("\n"), 1):
            where = "%s:%d" % (f, n)
            for m in PAPER_NUMBER.finditer(line):
                bad.append("%s: paper cited by number ('%s'): cite authors and year"
                           % (where, m.group(0)))
            for m in PAPER_FILE.finditer(line):
                bad.append("%s: a private copy's file name ('%s')" % (where, m.group(0)))
            for m in PRIVATE_PATH.finditer(line):
                bad.append("%s: path into a private place ('%s')" % (where, m.group(0)))
            for m in ABS_PATH.finditer(line):
                p = m.group(0)
                first = p[1:].split("/")[0]
                parts = [x for x in p.split("/") if x]
                if (len(parts) < 2 or first in SYSTEM or first in PRIVATE or
                        not starts_word(line, m.start()) or
                        any(p.startswith(r) for r in RELATIVE)):
                    continue
                bad.append("%s: absolute path outside the system's folders ('%s')"
                           % (where, p))
            for m in REL_PATH.finditer(line):
                i = m.start()
                if i > 0 and (line[i - 1].isalnum() or line[i - 1] in "/._-"):
                    continue
                if escapes(f, m.group(0)):
                    bad.append("%s: relative path out of the repository ('%s')"
                               % (where, m.group(0)))
    for b in bad:
        print("not ok " + b)
    if bad:
        print("not ok tree: %d reference(s) a reader of the repository cannot follow"
              % len(bad))
        return 1
    print("ok tree: %d files, no paper number, no path outside the repository"
          % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
