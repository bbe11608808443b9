// The Landlock kernel ABI, declared here because Debian 12's <linux/landlock.h> stops
// at ABI 2. Values are the kernel's (include/uapi/linux/landlock.h); names are kept
// in our own namespace so they cannot clash with a newer system header.
#pragma once
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace lash::sandbox::ll {

inline constexpr uint32_t create_ruleset_version = 1U << 0;

// Filesystem rights, with the ABI that introduced each.
inline constexpr uint64_t fs_execute = 1ULL << 0;      // ABI 1
inline constexpr uint64_t fs_write_file = 1ULL << 1;
inline constexpr uint64_t fs_read_file = 1ULL << 2;
inline constexpr uint64_t fs_read_dir = 1ULL << 3;
inline constexpr uint64_t fs_remove_dir = 1ULL << 4;
inline constexpr uint64_t fs_remove_file = 1ULL << 5;
inline constexpr uint64_t fs_make_char = 1ULL << 6;
inline constexpr uint64_t fs_make_dir = 1ULL << 7;
inline constexpr uint64_t fs_make_reg = 1ULL << 8;
inline constexpr uint64_t fs_make_sock = 1ULL << 9;
inline constexpr uint64_t fs_make_fifo = 1ULL << 10;
inline constexpr uint64_t fs_make_block = 1ULL << 11;
inline constexpr uint64_t fs_make_sym = 1ULL << 12;
inline constexpr uint64_t fs_refer = 1ULL << 13;       // ABI 2
inline constexpr uint64_t fs_truncate = 1ULL << 14;    // ABI 3
inline constexpr uint64_t fs_ioctl_dev = 1ULL << 15;   // ABI 5

inline constexpr uint64_t fs_abi1 = (1ULL << 13) - 1;

// Rights that make sense on a file (not a directory) rule.
inline constexpr uint64_t fs_file_only =
    fs_execute | fs_write_file | fs_read_file | fs_truncate | fs_ioctl_dev;

// Network rights (ABI 4).
inline constexpr uint64_t net_bind_tcp = 1ULL << 0;
inline constexpr uint64_t net_connect_tcp = 1ULL << 1;

// Scopes (ABI 6).
inline constexpr uint64_t scope_abstract_unix_socket = 1ULL << 0;
inline constexpr uint64_t scope_signal = 1ULL << 1;

inline constexpr int rule_path_beneath = 1;
inline constexpr int rule_net_port = 2;

struct ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct __attribute__((packed)) path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
};

struct net_port_attr {
  uint64_t allowed_access;
  uint64_t port;
};

inline long create_ruleset(const ruleset_attr* attr, size_t size, uint32_t flags) {
  return syscall(444 /* __NR_landlock_create_ruleset */, attr, size, flags);
}
inline long add_rule(int fd, int type, const void* attr, uint32_t flags) {
  return syscall(445 /* __NR_landlock_add_rule */, fd, type, attr, flags);
}
inline long restrict_self(int fd, uint32_t flags) {
  return syscall(446 /* __NR_landlock_restrict_self */, fd, flags);
}

}  // namespace lash::sandbox::ll
