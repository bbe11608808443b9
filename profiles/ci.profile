# ci - build jobs.
#
# Intent: run a build or test job on a checked-out tree. Only common build tools may be
# started; the working directory and a private session tmpdir are writable, the system
# is read-only; the network reaches package hosts on ports 80 and 443 only; resources are
# limited; LD_PRELOAD and friends never reach a child, and CI=true always does.
# It inherits nothing: every grant is written here (the base is deny-by-default).
#
# A job runs what it builds (test binaries, ./configure and its conftest programs,
# meson's sanity checks, a virtualenv's bin/): the working directory and the session
# tmpdir are exec_paths. The trade-off: a program written there can run, so the
# allowlist guards the system's programs (curl, ssh, sudo stay refused by name and by
# the kernel), not code the job brings. For "nothing writable is executable", inherit
# this profile and set `exec_paths =` (empty), as the shipped ci-strict does.
#
# Usage:
#   cd checkout && lash -p ci -c 'make && make install DESTDIR="$TMPDIR/root"'
#   #!/usr/bin/lash -p ci           (first line of a build script)
# To allow more tools, create a profile that inherits this one:
#   [inherit]
#   from = ci
#   [process]
#   spawn_allowlist = ...           (a set list replaces the parent's list entirely)

[profile]
description = Build jobs: build tools only, workdir and tmpdir writable, package hosts only

[process]
spawn_any = false
# Bare names are resolved over PATH once when the session starts; indented lines
# continue the list. Only listed files can be executed, so the helpers that the
# compiler drivers and git start themselves are listed by absolute path; a '*' in an
# absolute entry matches every architecture and compiler version installed
# (/usr/lib/gcc/*/*/cc1 on Debian, /usr/libexec/gcc/*/*/cc1 on Fedora). An entry that
# matches nothing on a machine is skipped.
spawn_allowlist = sh, bash, dash, env, make, gmake, cmake, ctest, ninja, meson, pkg-config, pkgconf,
    ccache, cc, c++, gcc, g++, cpp, clang, clang++, ld, ld.bfd, ld.gold, ld.lld, lld, ar, as,
    ranlib, strip, nm, objdump, objcopy, readelf, size, addr2line, c++filt,
    python3, pip3, perl, git, patch, diff, cmp, file, getconf, m4, autoconf, automake,
    /usr/lib/gcc/*/*/cc1, /usr/lib/gcc/*/*/cc1plus, /usr/lib/gcc/*/*/collect2,
    /usr/lib/gcc/*/*/lto-wrapper, /usr/lib/gcc/*/*/lto1, /usr/lib/gcc/*/*/g++-mapper-server,
    /usr/libexec/gcc/*/*/cc1, /usr/libexec/gcc/*/*/cc1plus, /usr/libexec/gcc/*/*/collect2,
    /usr/libexec/gcc/*/*/lto-wrapper, /usr/libexec/gcc/*/*/lto1,
    /usr/lib/llvm-*/bin/clang, /usr/lib/llvm-*/bin/ld.lld,
    /usr/lib/git-core/git, /usr/lib/git-core/git-remote-http, /usr/lib/git-core/git-remote-https,
    /usr/lib/git-core/git-upload-pack, /usr/lib/git-core/git-receive-pack,
    /usr/lib/git-core/git-upload-archive,
    cat, cp, mv, rm, ln, mkdir, rmdir, ls, touch, chmod, install, find, xargs,
    sed, awk, grep, egrep, fgrep, sort, uniq, head, tail, wc, tr, cut, tee, basename, dirname,
    realpath, readlink, mktemp, date, uname, id, whoami, hostname, sleep, tar, gzip, gunzip,
    zcat, bzip2, xz, unxz, zstd, unzip, zip,
    echo, printf, test, [, true, false, expr, pwd, printenv, which, nproc, seq, yes,
    stat, du, df, comm, paste, join, od, cksum, sha256sum, sha1sum, sha512sum, md5sum, timeout,
    nice, split, csplit, fmt, fold, nl, tac, rev, column, truncate, sync,
    chgrp, dd, base64, mkfifo
spawn_denylist = sudo, su
# Programs the job builds, unpacks or installs into a virtualenv may run from these
# trees: the starting directory and the session tmpdir ($TMPDIR). See the trade-off above.
exec_paths = ., $TMPDIR

[filesystem]
# Headers, the compiler's and the C library's link files, and the user's git
# configuration are read by the tools above; nothing else of the home directory is
# readable. Linking needs /usr/lib/gcc and the multiarch library directory (each
# Debian architecture's is listed; the ones missing here are skipped), which makes the
# few programs there readable: `profile review ci` says so. A job that must not link
# C code can inherit this profile and set read_only without them.
read_only = /usr/include, /usr/local/include, /usr/lib/gcc, /usr/lib/x86_64-linux-gnu,
    /usr/lib/aarch64-linux-gnu, /usr/lib/arm-linux-gnueabihf, /usr/lib/riscv64-linux-gnu,
    /usr/lib/powerpc64le-linux-gnu, /usr/lib/s390x-linux-gnu, /usr/lib/i386-linux-gnu, ~/.gitconfig, ~/.config/git
include_workdir = true
tmpdir = session
system_paths = true

[network]
allow_hosts = deb.debian.org, security.debian.org, pypi.org, files.pythonhosted.org,
    registry.npmjs.org, crates.io, static.crates.io, index.crates.io,
    proxy.golang.org, sum.golang.org, github.com, codeload.github.com,
    objects.githubusercontent.com
allow_ports = 80, 443
block_all_others = true

[resources]
# max_memory limits each process's address space (RLIMIT_AS); sanitizer builds reserve
# far more address space than they use and need a profile with max_memory = 0.
max_memory = 8G
max_cpu_seconds = 3600
max_file_size = 4G
max_processes = 512
max_open_files = 4096

[environment]
deny = LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT
# ccache keeps its cache in HOME, which is not writable here: without this every
# compile through ccache (meson and cmake pick it up by themselves) would fail. A
# profile that grants a cache directory sets its own force list, with CCACHE_DIR.
force = CI=true, CCACHE_DISABLE=1
mutation = true

[capabilities]
file_redirect = true

[monitoring]
enabled = true

[detect]
; CI systems: suggested by auto-detect (profile.auto_detect = true)
when = env:GITHUB_ACTIONS, env:GITLAB_CI, env:JENKINS_URL, env:BUILDKITE, env:CIRCLECI,
    env:TRAVIS, env:TF_BUILD, env:TEAMCITY_VERSION, env:DRONE, env:WOODPECKER_CI
