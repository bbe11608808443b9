// The line editor behind a small interface (the shape of mrsh's frontend.h): the
// interactive loop asks for one line with a prompt and gets the text, an end of
// input, an interrupt or a timeout back. readline_editor.cpp is the only file that
// includes GNU readline, so another editor could replace it.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::interactive {

struct EditorHooks {
  // Candidates for the word at [start, end) of LINE (the whole line so far).
  std::function<std::vector<std::string>(std::string_view line, size_t start, size_t end)> complete;
  // Alt-Enter: the dry run of LINE, printed under it; the line stays for editing.
  std::function<std::string(std::string_view line)> dry_run;
  // Whether the command word WORD would be refused (shown in red). Null: no colour.
  std::function<bool(std::string_view word)> refused_word;
  // Called when the read is interrupted by a signal: what it was (the caller handles
  // the rest; the read goes on unless it was ^C, which drops the line).
  enum class Signal { other, interrupt, resize };
  std::function<Signal()> signal_seen;
};

enum class ReadStatus { line, eof, interrupted, timeout };

struct ReadResult {
  ReadStatus status = ReadStatus::eof;
  std::string text;
};

// Once, before the first read: sets the hooks and applies INIT_TEXT, the init file
// lash read (inputrc.h). The editor itself opens no init file.
void editor_init(EditorHooks hooks, const std::string& init_text);
// Reads one line. TIMEOUT_SECONDS > 0: gives up (ReadStatus::timeout) after that long
// without a complete line.
ReadResult editor_read(const std::string& prompt, int timeout_seconds);
// The editor's own history (the arrow keys, ^R), kept to at most MAX entries.
void editor_add_history(const std::string& line);
void editor_limit_history(int max);
void editor_clear_history();
// That history read back (the only copy of the entries: 10,000 of them kept twice cost
// an idle shell 0.6 MB): how many, the I-th (0 the oldest), and dropping each equal to LINE.
size_t editor_history_length();
std::string editor_history_entry(size_t i);
void editor_erase_history(const std::string& line);
// Restores the terminal (after a read that was cut short).
void editor_cleanup();

}  // namespace lash::interactive
