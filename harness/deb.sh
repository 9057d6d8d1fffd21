#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb [BASE_CONFIG=path]: installable Debian packages of the patched
# kernel for hybrid machines, built with the tree's own bindeb-pkg.
#
#   base config   BASE_CONFIG if given; else /boot/config-$(uname -r) when
#                 it exists; else the amd64 config of Debian's
#                 linux-config package of the base's version (downloaded,
#                 not installed)
#   changes       the series on (SCHED_IPCC, the Thread Director/HFI
#                 backend X86_IPCC_ITD with INTEL_HFI_THERMAL), every
#                 KUnit test off, no Debian signing certificates (not
#                 available here; modules are signed with a key made for
#                 the build), and what this machine's toolchain cannot
#                 build turned off by olddefconfig (Rust, without a
#                 bindgen); out/deb/config-delta-BASE.txt lists every
#                 difference. Debug info stays as configured (Debian's
#                 BTF, which sched_ext needs), but no -dbg package
#   output        out/deb/*.deb
#
# DEB_CONFIG_ONLY=1 stops after writing and checking the .config (a few
# seconds; the full build takes hours on two cores). The build directory
# ($KCACHE/deb) is kept: a build stopped part way (Ctrl-C) resumes where
# it stopped.
#
# DEB_CONFIG=test builds the packaging check instead: the test kernel's
# options (harness/config/, what make build configured) with what booting
# a Debian system from a virtio disk needs added as modules (virtio_blk,
# ext4), so that the package carries modules and its initramfs has them
# to load. About 23 min on two cores: CONFIG_MODULES changes nearly every
# object, so the test kernel's ccache entries rarely match.
# The packages are named -ipcc-test (build dir $KCACHE/deb-test), apart
# from the real ones; make deb-boot DEB_CONFIG=test boots them.
. "$(dirname "$0")/lib.sh"

"$HARNESS/deps.sh" deb || exit 1
# Its own source tree (hard links into the base, as the test kernels'),
# assembled from the series as it is now: a test build of a later change
# to a header nearly every file includes does not undo hours of this one.
export IPCC_SRC=$KCACHE/deb-src
SRC=$IPCC_SRC
"$HARNESS/assemble.sh" || exit 1

build=$KCACHE/deb
suffix=
case ${DEB_CONFIG:-} in
'') ;;
test)
	build=$KCACHE/deb-test
	suffix=-test
	[ -f "$BUILD/.config" ] || die "DEB_CONFIG=test needs the test kernel configured: make build"
	BASE_CONFIG=$BUILD/.config
	;;
*) die "DEB_CONFIG must be test or unset, not '$DEB_CONFIG'" ;;
esac
mkdir -p "$build" "$OUT/deb"
cfg=${BASE_CONFIG:-}
if [ -z "$cfg" ] && [ -f "/boot/config-$(uname -r)" ]; then
	cfg=/boot/config-$(uname -r)
fi
if [ -z "$cfg" ]; then
	dl=$CACHE/dl/linux-config
	mkdir -p "$dl"
	# Debian's config of the same version as the base.
	cpkg=${BASE_PKG/linux-source/linux-config}
	if ! ls "$dl/${cpkg}_${BASE_VERSION}"_*.deb >/dev/null 2>&1; then
		msg "downloading Debian's $cpkg=$BASE_VERSION for its amd64 config"
		# A base from another suite: its private apt state may never
		# have been updated (the base's .deb was already cached).
		base_apt update
		(cd "$dl" && apt-get "${apt_opts[@]}" download "$cpkg=$BASE_VERSION") ||
			die "cannot download $cpkg=$BASE_VERSION (apt-get update first?); or name BASE_CONFIG="
	fi
	rm -rf "$dl/x" && mkdir -p "$dl/x"
	dpkg-deb -x "$(ls "$dl/${cpkg}_${BASE_VERSION}"_*.deb | tail -n 1)" "$dl/x"
	xz=$(find "$dl/x" -name 'config.amd64_none_amd64.xz' | head -n 1)
	[ -n "$xz" ] || die "no amd64 config in $cpkg"
	xz -dc "$xz" >"$dl/config.amd64"
	cfg=$dl/config.amd64
fi
[ -f "$cfg" ] || die "no such base config: $cfg"
msg "base config: $cfg"
cp "$cfg" "$build/.config"

sc="$SRC/scripts/config --file $build/.config"
$sc -e SMP -e SCHED_MC -e SCHED_MC_PRIO -e CPU_SUP_INTEL -e NET -e THERMAL \
	-e X86_THERMAL_VECTOR -e INTEL_HFI_THERMAL \
	-e SCHED_IPCC -e X86_IPCC_ITD \
	-d SCHED_IPCC_KUNIT_TEST -d X86_IPCC_ITD_KUNIT_TEST \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
	--set-str LOCALVERSION "-ipcc$suffix" -d LOCALVERSION_AUTO
# The packaging check has no use for debug info. A distribution's config
# keeps its own: with it go BTF and what needs BTF (sched_ext among them).
[ -n "$suffix" ] && $sc -d DEBUG_INFO -d DEBUG_INFO_DWARF5 -d DEBUG_INFO_DWARF4 \
	-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE -d DEBUG_INFO_BTF
[ -n "$suffix" ] && $sc -d KUNIT -e MODULES -e BLOCK -e VIRTIO_MENU -e PCI -m VIRTIO_PCI \
	-m VIRTIO_BLK -m EXT4_FS -m CRC32C -e UNIX -e INET -e INOTIFY_USER \
	-e FHANDLE -e SIGNALFD -e TIMERFD -e EPOLL -e CGROUPS -e AUTOFS_FS \
	-e TMPFS_POSIX_ACL -e TMPFS_XATTR -e SECCOMP -e DMIID -e RTC_CLASS
make -s -C "$SRC" O="$build" ARCH=x86_64 olddefconfig || die "olddefconfig failed"

bad=0
wants="SCHED_IPCC=y X86_IPCC_ITD=y INTEL_HFI_THERMAL=y"
[ -n "$suffix" ] && wants="$wants VIRTIO_BLK=m EXT4_FS=m CGROUPS=y"
for want in $wants; do
	grep -qx "CONFIG_$want" "$build/.config" || { msg "config lacks CONFIG_$want"; bad=1; }
done
[ $bad = 0 ] || die "the configuration does not have the series on (see above)"
msg "config: $build/.config (SCHED_IPCC, X86_IPCC_ITD, INTEL_HFI_THERMAL on; KUnit off)"
# What differs from the config it started from, apart from the toolchain's
# own records (compiler, assembler, linker, pahole and rustc versions and
# what they support): the series' options, and what this machine's
# toolchain cannot build (Rust without bindgen, for one).
delta=$OUT/deb/config-delta-$BASE$suffix.txt
{
	echo "# $(basename "$cfg") -> $build/.config on $BASE ($BASE_VERSION)"
	echo "# - only in the base config, + only in ours (toolchain records left out)"
	diff <(grep '^CONFIG_' "$cfg" | sort) <(grep '^CONFIG_' "$build/.config" | sort) |
		sed -n 's/^< /- /p; s/^> /+ /p' |
		grep -Ev '^[-+] CONFIG_((CC|AS|LD|GCC|CLANG|PAHOLE|RUSTC|BINDGEN)_[A-Z0-9_]*|TOOLS_SUPPORT_[A-Z0-9_]*)='
} >"$delta"
msg "differences from the base config: $delta ($(grep -c '^[-+]' "$delta") lines)"
[ "${DEB_CONFIG_ONLY:-}" = 1 ] && exit 0

log=$OUT/deb/build-$BASE$suffix.log
msg "building Debian packages (bindeb-pkg; hours on a small machine; log: $log)"
rm -f "$KCACHE"/*.deb "$KCACHE"/*.buildinfo "$KCACHE"/*.changes
# A distribution config builds about 20,000 objects once: through ccache
# they would only push the test kernels' objects out of its 5 GB. The
# packaging check shares most of its objects' settings with the test
# kernel, so it keeps ccache.
cc="ccache gcc"
[ -z "$suffix" ] && cc=gcc
# No -dbg package: a distribution builds it apart; debug info stays in the
# build directory.
if ! DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg \
	flock "$CACHE/build.lock" make -C "$SRC" O="$build" ARCH=x86_64 \
	CC="$cc" -j"$JOBS" KDEB_PKGVERSION="$BASE-ipcc1" bindeb-pkg \
	>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "bindeb-pkg failed; see $log"
fi
mv "$KCACHE"/*.deb "$OUT/deb/" || die "no packages were written"
msg "packages:"
ls -1 "$OUT"/deb/*.deb >&2
msg "install: sudo apt install ./out/deb/linux-image-*.deb; see README (Real hardware)"
