# ci - build jobs.
#
# Intent: run a build or test job on a checked-out tree. Only common build tools may be
# started; the working directory and a private session tmpdir are writable, the system
# is read-only; the network reaches package hosts on ports 80 and 443 only; resources are
# limited; LD_PRELOAD and friends never reach a child, and CI=true always does.
# It inherits nothing: every grant is written here (the base is deny-by-default).
#
# Nothing writable is executable: programs the job builds or checks out (./configure,
# test binaries) cannot run here. A job that runs what it builds needs a profile of
# its own (spawn_any = true with a denylist, say).
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
# compiler driver and git start themselves are listed by absolute path (Debian 12,
# amd64, gcc 12; an entry that does not exist on a machine is skipped).
spawn_allowlist = sh, bash, dash, env, make, cmake, ninja, meson, pkg-config,
    cc, c++, gcc, g++, clang, clang++, ld, ar, as, ranlib, strip, nm, objdump,
    python3, pip3, perl, git, patch, diff, cmp,
    /usr/lib/gcc/x86_64-linux-gnu/12/cc1, /usr/lib/gcc/x86_64-linux-gnu/12/cc1plus,
    /usr/lib/gcc/x86_64-linux-gnu/12/collect2, /usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper,
    /usr/lib/gcc/x86_64-linux-gnu/12/lto1,
    /usr/lib/git-core/git-remote-http, /usr/lib/git-core/git-remote-https,
    /usr/lib/git-core/git-upload-pack, /usr/lib/git-core/git-receive-pack,
    cat, cp, mv, rm, ln, mkdir, rmdir, ls, touch, chmod, install, find, xargs,
    sed, awk, grep, sort, uniq, head, tail, wc, tr, cut, tee, basename, dirname,
    realpath, readlink, mktemp, date, uname, id, sleep, tar, gzip, xz,
    echo, printf, test, [, true, false, expr, pwd, printenv, which, nproc, seq,
    stat, du, comm, paste, join, od, sha256sum, sha1sum, md5sum, timeout
spawn_denylist = sudo, su

[filesystem]
# Headers, the compiler's and the C library's link files, and the user's git
# configuration are read by the tools above; nothing else of the home directory is
# readable. Linking needs /usr/lib/gcc and /usr/lib/x86_64-linux-gnu, which makes
# the few programs there readable: `profile review ci` says so. A job that must not
# link C code can inherit this profile and set read_only without them.
read_only = /usr/include, /usr/local/include, /usr/lib/gcc, /usr/lib/x86_64-linux-gnu,
    ~/.gitconfig, ~/.config/git
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
force = CI=true
mutation = true

[capabilities]
file_redirect = true

[monitoring]
enabled = true

[detect]
; CI systems: suggested by auto-detect (profile.auto_detect = true)
when = env:GITHUB_ACTIONS, env:GITLAB_CI, env:JENKINS_URL, env:BUILDKITE, env:CIRCLECI,
    env:TRAVIS, env:TF_BUILD, env:TEAMCITY_VERSION, env:DRONE, env:WOODPECKER_CI
