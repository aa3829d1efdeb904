#!/bin/sh
# Install every Debian package the project needs. Idempotent: when all are
# present it only checks and returns.
# libopenmpi-dev and openmpi-bin: libhcube-mpi, its tests and its
# experiments (tools/hcube-mpi, selftests/mpi: mpicc, mpirun).
# debhelper, dh-dkms, lintian, fakeroot and dpkg-dev: make deb (debian/).
set -eu

PKGS="build-essential pkg-config clang libclang-rt-14-dev llvm
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	linux-headers-rt-amd64 linux-image-rt-amd64
	qemu-system-x86 busybox-static cpio kmod xz-utils
	libnl-3-dev libnl-genl-3-dev sparse
	python3 python3-yaml python3-pyroute2 gnuplot-nox jq procps util-linux stress-ng
	dkms groff-base man-db python3-docutils bash-completion
	libopenmpi-dev openmpi-bin
	debhelper dh-dkms lintian fakeroot dpkg-dev"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q $missing
