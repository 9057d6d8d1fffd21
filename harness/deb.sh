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
# seconds; the full build takes hours on two cores). DEB_CHECK=1 is that
# check as make test runs it, on its tree and in a directory of its own.
# The build directory ($KCACHE/deb) is kept: a build stopped part way
# (Ctrl-C) resumes where it stopped.
#
# DEB_LSMOD=file (what lsmod printed on a machine, such as make deb-boot's
# lsmod.txt) keeps only the modules that machine loaded, with what they
# need (make localmodconfig), and turns off what only the others need,
# refusing when the scheduler or the series reads any of that:
# with Debian's 6.12 config and harness/config/deb-lsmod-adl-hw.txt,
# 3,116 objects instead of about 20,000. config-delta lists each module
# left out.
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
build=$KCACHE/deb
if [ "${DEB_CHECK:-}" = 1 ]; then
	# make test's check of the configuration: on the tree make test
	# assembled, in a directory of its own, so that a make deb part way
	# keeps its tree, its .config and its objects.
	build=$KCACHE/deb-check
	DEB_CONFIG_ONLY=1
	[ -z "${DEB_CONFIG:-}${BASE_CONFIG:-}" ] || die "DEB_CHECK=1 checks Debian's config only"
else
	# Its own source tree (hard links into the base, as the test
	# kernels'), assembled from the series as it is now: a test build
	# of a later change to a header nearly every file includes does not
	# undo hours of this one.
	export IPCC_SRC=$KCACHE/deb-src
	SRC=$IPCC_SRC
	"$HARNESS/assemble.sh" || exit 1
fi

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
# (make test's check always takes Debian's.)
if [ -z "$cfg" ] && [ -f "/boot/config-$(uname -r)" ] && [ "${DEB_CHECK:-}" != 1 ]; then
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
# The toolchain's own records in a config: compiler, assembler, linker,
# pahole and rustc versions and what they support.
toolchain='^CONFIG_((CC|AS|LD|GCC|CLANG|PAHOLE|RUSTC|BINDGEN)_[A-Z0-9_]*|TOOLS_SUPPORT_[A-Z0-9_]*)='
if [ -n "${DEB_LSMOD:-}" ]; then
	lsmod=$(realpath "$DEB_LSMOD") && [ -s "$lsmod" ] || die "no such lsmod listing: $DEB_LSMOD"
	grep -q '^Module ' "$lsmod" || die "$DEB_LSMOD is not what lsmod prints"
	cp "$build/.config" "$build/.config.all-modules"
	make -s -C "$SRC" O="$build" ARCH=x86_64 LSMOD="$lsmod" localmodconfig </dev/null \
		>"$build/localmodconfig.log" 2>&1 ||
		{ cat "$build/localmodconfig.log" >&2; die "localmodconfig failed"; }
	# Modules go, and with them the options that only they read (a
	# driver's features, what a module selects). None of those may be
	# read by the scheduler or by a file the series adds or hooks:
	# there this must stay the distribution's kernel.
	lost=$(comm -23 <(grep '=y$' "$build/.config.all-modules" | sort) \
		<(grep '=y$' "$build/.config" | sort) | sed 's/=y$//')
	files=$( (series_new_files | grep -v '^tools/'
		for p in $(series_patches); do sed -n 's|^+++ b/||p' "$(patch_file "$p")"; done
		echo kernel/sched include/linux/sched.h include/linux/sched include/linux/preempt.h) |
		sort -u)
	near=
	for o in $lost; do
		(cd "$SRC" && grep -rqw --exclude="Kconfig*" -e "$o" $files 2>/dev/null) && near="$near ${o#CONFIG_}"
	done
	[ -z "$near" ] || die "without the modules $DEB_LSMOD leaves out, the scheduler's or the series' code would change:$near (list the modules that select them)"
	msg "$(echo "$lost" | grep -c .) options that only left-out modules need are off; none is read by kernel/sched or the series' files"
	msg "modules: $(grep -c '=m$' "$build/.config") of $(grep -c '=m$' "$cfg") (the ones $DEB_LSMOD lists)"
fi

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
[ "${DEB_CHECK:-}" = 1 ] && delta=$build/config-delta.txt
{
	echo "# $(basename "$cfg") -> $build/.config on $BASE ($BASE_VERSION)"
	echo "# - only in the base config, + only in ours (toolchain records left out)"
	diff <(grep '^CONFIG_' "$cfg" | sort) <(grep '^CONFIG_' "$build/.config" | sort) |
		sed -n 's/^< /- /p; s/^> /+ /p' |
		grep -Ev "^[-+] ${toolchain#^}"
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
