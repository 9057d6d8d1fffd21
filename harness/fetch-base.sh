#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Download the pinned linux-source package of $BASE (harness/bases/), verify
# it and extract the kernel tree once into $BASE_DIR.  Reused while the
# pin is unchanged.
. "$(dirname "$0")/lib.sh"

stamp=$BASE_DIR/.extracted-$BASE_TARBALL_SHA256
[ -f "$stamp" ] && [ -d "$BASE_SRC" ] && exit 0

dl=$CACHE/dl
mkdir -p "$dl" "$BASE_DIR"
deb=$dl/${BASE_PKG}_${BASE_VERSION}_all.deb

if [ ! -f "$deb" ] || ! echo "$BASE_DEB_SHA256  $deb" | sha256sum -c --quiet - 2>/dev/null; then
	rm -f "$deb"
	msg "downloading $BASE_PKG=$BASE_VERSION"
	base_apt update
	if ! (cd "$dl" && apt-get "${apt_opts[@]}" download "$BASE_PKG=$BASE_VERSION") >"$dl/download.log" 2>&1; then
		avail=$(apt-cache "${apt_opts[@]}" madison "$BASE_PKG" 2>/dev/null | awk '{print $3}' | head -n 1)
		cat >&2 <<MSG
[ipcc] ################################################################
[ipcc] The pinned base $BASE_PKG $BASE_VERSION cannot be downloaded.
[ipcc] Newest offered: ${avail:-none (run apt-get update?)}.
[ipcc] To move the series to it, update harness/bases/$BASE.conf (version
[ipcc] and both checksums) and check that every hook patch still applies.
[ipcc] ################################################################
MSG
		exit 1
	fi
	f=$(ls "$dl"/"${BASE_PKG}"_*_all.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] && [ "$f" != "$deb" ] && mv "$f" "$deb"
fi
echo "$BASE_DEB_SHA256  $deb" | sha256sum -c --quiet - ||
	die "$deb: sha256 differs from harness/bases/$BASE.conf"

msg "extracting the base tree into $BASE_DIR"
tmp=$BASE_DIR/.tmp
rm -rf "$tmp" "$BASE_SRC"
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./usr/src/$BASE_PKG.tar.xz" ||
	die "cannot unpack $deb"
tarball=$tmp/usr/src/$BASE_PKG.tar.xz
echo "$BASE_TARBALL_SHA256  $tarball" | sha256sum -c --quiet - ||
	die "the tarball's sha256 differs from harness/bases/$BASE.conf"
tar -xJf "$tarball" -C "$BASE_DIR" || die "cannot extract $tarball"
rm -rf "$tmp"
# The pristine base is never written to: assemble.sh links files from it.
touch "$stamp"
