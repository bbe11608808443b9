// Reading whole files (scripts, `.` files, login files), EINTR-safe, O_CLOEXEC.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace lash {

// Appends everything readable from fd to out. Returns 0, or the errno of a failed read.
// GIVE_UP is asked when a signal interrupts the read: true returns EINTR.
int read_all_fd(int fd, std::string& out, size_t max = SIZE_MAX, const std::function<bool()>& give_up = {});
// Reads the file at path into out (at most max bytes). Returns 0, or the errno of the
// failed open or read.
int read_whole_file(const std::string& path, std::string& out, size_t max = SIZE_MAX);
// The same for a file that must be a regular file (a FIFO, device or socket there is
// EINVAL, never waited on: the open is O_NONBLOCK). For files lash only inspects
// (auto-detect, inputrc), which a hostile directory may plant.
int read_regular_file(const std::string& path, std::string& out, size_t max);
// mkdir -p PATH (absolute) with MODE for the directories it creates. Returns 0 when PATH
// is a directory afterwards, else the errno of the step that failed.
int make_directories(const std::string& path, unsigned mode);

}  // namespace lash
