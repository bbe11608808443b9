// The pieces of an answer kept between sessions in a file of lash's own
// ($LASH_HOME/cache): the state of each file and directory the answer depended on,
// checked with one stat() apiece, and the cache file itself, read and written only
// where nobody but this user can have put it. Used by the exec-closure cache
// (sandbox/closure_cache.h) and the allowlist's real paths (policy/facts_cache.h).
//
// Staleness. A dependency is recorded with its device, inode, mode, size, mtime and
// ctime (or as absent); any difference means the answer is computed again. A
// timestamp is only as fine as the kernel's clock tick, so (as git does with its
// index) an answer is not stored while any dependency changed less than
// kTickSlackNs before it was computed: a second change within the same tick would go
// unseen.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::state_cache {

inline constexpr int64_t kTickSlackNs = 2'000'000'000;

// CLOCK_REALTIME in nanoseconds (the clock of mtime and ctime).
int64_t now_ns();

// No tab, line feed or carriage return: it fits in one field of a cache line.
bool one_field(std::string_view s);

// The fields of LINE split at tabs.
std::vector<std::string_view> fields(std::string_view line);

// FNV-1a over PARTS, each ended by a NUL: a cache file name, not a security check
// (the file states its inputs, which are compared in full).
uint64_t hash_of(const std::vector<std::string>& parts);

// "W\t..." recording PATH as it is now; nullopt when PATH cannot be examined (other
// than by not existing: EACCES, ELOOP), or it changed at or after
// COMPUTED_AT_NS - kTickSlackNs, or PATH does not fit in a field.
std::optional<std::string> witness_line(const std::string& path, int64_t computed_at_ns);

// Whether the fields of a "W" line (F[0] == "W") are well formed and PATH is still
// as recorded; *PATH receives it.
bool witness_holds(const std::vector<std::string_view>& f, std::string* path = nullptr);

// Appends to DEPS the directory of START and of every symlink it leads through, and
// of where it ends: replacing a link changes its directory (the file it ends at is the
// caller's to record: its real path). At most 40 links, as the kernel.
void add_symlink_chain(const std::string& start, std::vector<std::string>& deps);

// Who looks: "EUID EGID GROUPS... caps EFFECTIVE" (groups sorted). A lookup refused
// by permissions looks like a missing file, so an answer is only for the credentials
// it was found with.
std::string credentials();

// The cache file NAME in DIR, if DIR and the file belong to this user and nobody else
// may write them, and it is a regular file with one name and at most MAX bytes.
std::optional<std::string> read_file(const std::string& dir, const std::string& name, size_t max = 4u << 20);

// Writes TEXT as DIR/NAME, whole or not at all (a new file renamed over), making DIR
// (0700) if needed; nothing when DIR is not this user's own. Failures are silent: the
// next session only computes again. DIR keeps the 64 files written last.
void write_file(const std::string& dir, const std::string& name, const std::string& text);

}  // namespace lash::state_cache
