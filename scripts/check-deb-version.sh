#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version in debian/changelog must be dkms.conf's PACKAGE_VERSION: it
# names /usr/src/hcube-VERSION, which hcube-dkms ships and its maintainer
# scripts pass to dkms. debian/rules refuses to build when they differ;
# this says so without building.
# Usage: check-deb-version.sh [SOURCE_DIR]   (default: the repository)
# Prints one line; exit status 0 when they agree, 1 when not.
set -u
dir=${1:-$(dirname "$0")/..}
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$dir/dkms.conf")
deb=$(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version 2>/dev/null)
if [ -z "$dkms" ]; then
	echo "not ok no PACKAGE_VERSION=\"...\" line in $dir/dkms.conf"
	exit 1
fi
if [ -z "$deb" ]; then
	echo "not ok no version in $dir/debian/changelog"
	exit 1
fi
# a native package: the version is the upstream version, no revision
if [ "$deb" != "$dkms" ]; then
	echo "not ok debian/changelog has version $deb, dkms.conf has PACKAGE_VERSION=\"$dkms\": make them agree"
	exit 1
fi
echo "ok debian/changelog and dkms.conf agree on version $deb"
