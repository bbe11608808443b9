# ci-strict - build jobs that must not run what they write.
#
# Intent: the ci profile with nothing writable executable (W^X). The job may compile
# and package, but no program it builds, unpacks or downloads can run: no test
# binaries, no ./configure conftest programs, no virtualenv scripts. Use it for jobs
# that only produce artifacts (a release tarball, a documentation build) from a tree
# you do not trust, where "the allowlist guards every program" must hold.
#
# Usage:
#   cd checkout && lash -p ci-strict -c 'make dist'

[profile]
description = Build jobs that never run what they write: ci without exec_paths

[inherit]
from = ci

[process]
# Empty: nothing under the workspace or the tmpdir may be executed.
exec_paths =
