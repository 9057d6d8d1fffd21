#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Download Debian's pinned qemu source package, verify it and unpack it
# once (with Debian's own patches applied) into $QEMU_BASE_SRC.  The
# deb-src index lives in a private apt state under the cache: the host's
# apt configuration is not changed.
. "$(dirname "$0")/lib.sh"

stamp=$QEMU_BASE_DIR/.extracted-$QEMU_ORIG_SHA256-$QEMU_DEBIAN_SHA256
[ -f "$stamp" ] && [ -d "$QEMU_BASE_SRC" ] && exit 0

upver=${QEMU_VERSION#*:}
dl=$CACHE/dl/qemu
files="${QEMU_PKG}_${upver}.dsc:$QEMU_DSC_SHA256
${QEMU_PKG}_${upver%-*}.orig.tar.xz:$QEMU_ORIG_SHA256
${QEMU_PKG}_${upver}.debian.tar.xz:$QEMU_DEBIAN_SHA256"

verified() {
	local f
	for f in $files; do
		echo "${f#*:}  $dl/${f%%:*}" | sha256sum -c --quiet - >/dev/null 2>&1 || return 1
	done
}

if ! verified; then
	apt=$CACHE/apt-src
	mkdir -p "$dl" "$apt/lists/partial" "$apt/cache/archives/partial"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $QEMU_SUITE main" \
		>"$apt/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
	msg "downloading the $QEMU_PKG source package $QEMU_VERSION"
	apt-get "${opts[@]}" update >"$dl/update.log" 2>&1 ||
		die "apt-get update of the deb-src index failed; see $dl/update.log"
	if ! (cd "$dl" && apt-get "${opts[@]}" source --download-only \
		"$QEMU_PKG=$QEMU_VERSION") >"$dl/download.log" 2>&1; then
		avail=$(apt-cache "${opts[@]}" showsrc "$QEMU_PKG" 2>/dev/null |
			sed -n 's/^Version: //p' | sort -V | tail -n 1)
		cat >&2 <<MSG
[ipcc] ################################################################
[ipcc] The pinned emulator source $QEMU_PKG $QEMU_VERSION cannot be
[ipcc] downloaded ($QEMU_SUITE). Newest offered: ${avail:-none}.
[ipcc] To move the pin, update harness/qemu.conf (version and the three
[ipcc] sha256 of its Sources entry: apt-cache showsrc $QEMU_PKG) and check
[ipcc] that every patch in qemu/patches/series still applies.
[ipcc] ################################################################
MSG
		exit 1
	fi
	verified || die "the $QEMU_PKG source package differs from harness/qemu.conf's sha256"
fi

msg "unpacking $QEMU_PKG $QEMU_VERSION into $QEMU_BASE_DIR"
rm -rf "$QEMU_BASE_SRC" "$QEMU_BASE_DIR"/.extracted-*
mkdir -p "$QEMU_BASE_DIR"
dpkg-source --no-check -x "$dl/${QEMU_PKG}_${upver}.dsc" "$QEMU_BASE_SRC" \
	>"$QEMU_BASE_DIR/unpack.log" 2>&1 || die "dpkg-source -x failed; see $QEMU_BASE_DIR/unpack.log"
# The pristine tree is never written to: the build tree links to it.
touch "$stamp"
