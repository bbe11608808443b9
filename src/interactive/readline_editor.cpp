// GNU readline behind line_editor.h: the only file that includes it. Uses the
// callback interface with lash's own wait for input, so that a signal (^C, a window
// size change, a job that ended) interrupts the wait instead of being handled inside
// readline: lash's signal handlers only record signals (exec/signals.cpp).
#include "interactive/line_editor.h"

#include <poll.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace lash::interactive {

namespace {

EditorHooks g_hooks;
bool g_done = false;
bool g_eof = false;
std::string g_line;
std::string g_prompt;  // as given, with \001 \002 around invisible parts
std::vector<std::string> g_matches;

void on_line(char* line) {
  g_done = true;
  if (!line) {
    g_eof = true;
  } else {
    g_line = line;
    std::free(line);
  }
  rl_callback_handler_remove();
}

char* next_match(const char*, int state) {
  static size_t i;
  if (state == 0) i = 0;
  if (i >= g_matches.size()) return nullptr;
  return strdup(g_matches[i++].c_str());
}

char** attempt_completion(const char*, int start, int end) {
  rl_attempted_completion_over = 1;  // no fallback to readline's own filename list
  if (!g_hooks.complete) return nullptr;
  g_matches = g_hooks.complete(std::string_view(rl_line_buffer, size_t(rl_end)), size_t(start), size_t(end));
  if (g_matches.empty()) return nullptr;
  bool paths = false;
  for (const auto& m : g_matches)
    if (m.find('/') != std::string::npos) paths = true;
  // Paths: the list shows their last part, a directory gets no space after it.
  rl_filename_completion_desired = paths ? 1 : 0;
  rl_completion_append_character = ' ';
  if (g_matches.size() == 1 && !g_matches[0].empty() && g_matches[0].back() == '/')
    rl_completion_append_character = '\0';
  return rl_completion_matches("", next_match);
}

// The visible width of the prompt's last line (invisible parts between \001 and
// \002 skipped, UTF-8 continuation bytes not counted).
size_t prompt_width(const std::string& p) {
  size_t w = 0;
  bool hidden = false;
  for (unsigned char c : p) {
    if (c == '\001') hidden = true;
    else if (c == '\002') hidden = false;
    else if (c == '\n') w = 0;
    else if (!hidden && (c & 0xC0) != 0x80) ++w;
  }
  return w;
}

// Redisplay with the command words the profile refuses in red (fish-style). Only
// where the line is plain ASCII on one screen line; otherwise readline's own.
void redisplay() {
  rl_redisplay();
  if (!g_hooks.refused_word || rl_end <= 0) return;
  std::string_view line(rl_line_buffer, size_t(rl_end));
  for (unsigned char c : line)
    if (c >= 0x80 || c < 0x20) return;
  size_t pw = prompt_width(g_prompt);
  int rows = 0, cols = 0;
  rl_get_screen_size(&rows, &cols);
  if (cols <= 0 || pw + line.size() + 1 >= size_t(cols)) return;
  // Command words: the first word, and the first after ; | & && || ( and newlines.
  std::string out;
  size_t i = 0;
  bool command_position = true;
  while (i < line.size()) {
    char c = line[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (c == ';' || c == '|' || c == '&' || c == '(' || c == ')' || c == '{' || c == '}' || c == '!') {
      command_position = true;
      ++i;
      continue;
    }
    size_t b = i;
    while (i < line.size() && !std::strchr(" \t;|&()", line[i])) ++i;
    std::string_view word = line.substr(b, i - b);
    bool assignment = word.find('=') != std::string_view::npos && word[0] != '=';
    if (command_position && !assignment) {
      if (word.find_first_of("'\"\\$`") == std::string_view::npos && g_hooks.refused_word(word)) {
        out += "\r\033[" + std::to_string(pw + b) + "C\033[31m";
        out.append(word);
        out += "\033[0m";
      }
      command_position = word == "if" || word == "then" || word == "else" || word == "elif" || word == "do" ||
                         word == "while" || word == "until" || word == "time";
    }
  }
  if (out.empty()) return;
  out += "\r";
  size_t col = pw + size_t(rl_point);
  if (col > 0) out += "\033[" + std::to_string(col) + "C";
  fwrite(out.data(), 1, out.size(), rl_outstream);
  fflush(rl_outstream);
}

// Alt-Enter: the dry run of the line under it; the line stays.
int show_dry_run(int, int) {
  if (!g_hooks.dry_run) return 0;
  std::string text = g_hooks.dry_run(std::string_view(rl_line_buffer, size_t(rl_end)));
  fputs("\n", rl_outstream);
  fwrite(text.data(), 1, text.size(), rl_outstream);
  fflush(rl_outstream);
  rl_on_new_line();
  rl_forced_update_display();
  return 0;
}

}  // namespace

namespace {

// Readline reads its init file by name, and rl_initialize reads the last one it read,
// else INPUTRC, ~/.inputrc or /etc/inputrc. So it is given a memfd by name,
// /proc/self/fd/N: first holding only a comment, read once so that it becomes that
// last file (rl_initialize then reads nothing else), then INIT_TEXT, applied once.
// The fd stays open for a later re-read (C-x C-r). Without a memfd, no init file.
bool write_text(int fd, const std::string& text) {
  if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0) return false;
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += size_t(n);
  }
  return true;
}

void apply_init_text(const std::string& init_text) {
  static int fd = -1;
  fd = ::memfd_create("lash-inputrc", MFD_CLOEXEC);
  std::string name = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || !write_text(fd, "# lash\n") || rl_read_init_file(name.c_str()) != 0) {
    // Readline would read INPUTRC or ~/.inputrc itself: rather none (an empty file
    // read makes /dev/null the last one).
    if (fd >= 0) ::close(fd);
    fd = -1;
    rl_read_init_file("/dev/null");
    rl_initialize();
    return;
  }
  rl_initialize();
  if (write_text(fd, init_text)) rl_read_init_file(name.c_str());
}

}  // namespace

void editor_init(EditorHooks hooks, const std::string& init_text) {
  g_hooks = std::move(hooks);
  rl_readline_name = "lash";  // `$if lash` in ~/.inputrc
  rl_instream = stdin;
  rl_outstream = stderr;       // prompts go to standard error (POSIX)
  rl_catch_signals = 0;        // lash's handlers record signals; see editor_read
  rl_catch_sigwinch = 0;
  rl_attempted_completion_function = attempt_completion;
  rl_completer_word_break_characters = const_cast<char*>(" \t\n\"'<>;|&(){}=");
  rl_redisplay_function = redisplay;
  rl_add_defun("lash-dry-run", show_dry_run, -1);
  rl_bind_keyseq("\\e\\r", show_dry_run);
  rl_bind_keyseq("\\e\\n", show_dry_run);
  apply_init_text(init_text);
  using_history();
}

ReadResult editor_read(const std::string& prompt, int timeout_seconds) {
  g_done = false;
  g_eof = false;
  g_line.clear();
  g_prompt = prompt;
  rl_callback_handler_install(prompt.c_str(), on_line);
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (!g_done) {
    int wait_ms = -1;
    if (timeout_seconds > 0) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      long long spent = (now.tv_sec - start.tv_sec) * 1000LL + (now.tv_nsec - start.tv_nsec) / 1000000;
      long long left = timeout_seconds * 1000LL - spent;
      if (left <= 0) {
        rl_callback_handler_remove();
        fputs("\n", rl_outstream);
        return {ReadStatus::timeout, {}};
      }
      wait_ms = left > 1000000 ? 1000000 : int(left);
    }
    struct pollfd p = {fileno(rl_instream), POLLIN, 0};
    int r = poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) {
      EditorHooks::Signal s = g_hooks.signal_seen ? g_hooks.signal_seen() : EditorHooks::Signal::other;
      if (s == EditorHooks::Signal::resize) rl_resize_terminal();
      if (s == EditorHooks::Signal::interrupt) {
        // ^C: the line is dropped, a new prompt follows.
        rl_free_line_state();
        rl_callback_sigcleanup();
        rl_replace_line("", 0);
        rl_point = rl_end = 0;
        rl_callback_handler_remove();
        fputs("^C\n", rl_outstream);
        fflush(rl_outstream);
        return {ReadStatus::interrupted, {}};
      }
      continue;
    }
    if (r < 0) {
      rl_callback_handler_remove();
      return {ReadStatus::eof, {}};
    }
    if (r == 0) continue;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL) && !(p.revents & POLLIN)) {
      rl_callback_handler_remove();
      return {ReadStatus::eof, {}};
    }
    rl_callback_read_char();
  }
  if (g_eof) return {ReadStatus::eof, {}};
  return {ReadStatus::line, g_line};
}

void editor_add_history(const std::string& line) { add_history(line.c_str()); }

void editor_limit_history(int max) {
  if (max < 0) unstifle_history();
  else stifle_history(max);
}

void editor_clear_history() { clear_history(); }

size_t editor_history_length() { return history_length > 0 ? size_t(history_length) : 0; }

std::string editor_history_entry(size_t i) {
  HIST_ENTRY* e = i < editor_history_length() ? history_get(history_base + int(i)) : nullptr;
  return e && e->line ? std::string(e->line) : std::string();
}

void editor_erase_history(const std::string& line) {
  for (int i = history_length - 1; i >= 0; --i) {
    HIST_ENTRY* e = history_get(history_base + i);
    if (e && e->line && line == e->line) {
      if (HIST_ENTRY* gone = remove_history(i)) free_history_entry(gone);
    }
  }
}

void editor_cleanup() { rl_callback_handler_remove(); }

}  // namespace lash::interactive
