#include "audit/sink.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "audit/log_reader.h"

using namespace lash;
using namespace lash::audit;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/lash-audit-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    path = tmpl;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

Record event(const std::string& target) {
  return make_event(Context{"s1", "bob", "ci"}, "spawn", target, "deny", "no " + target);
}

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("jsonl sink: appends one line per record, creates the file 0600") {
  TempDir t;
  std::string path = audit_log_path(t.path + "/home");  // directory made on demand
  JsonlFileSink sink(path);
  REQUIRE(sink.write(event("a")));
  REQUIRE(sink.write(event("b")));
  JsonlFileSink again(path);  // another session appends
  REQUIRE(again.write(event("c")));
  std::string text = slurp(path);
  CHECK(std::count(text.begin(), text.end(), '\n') == 3);
  CHECK(text.find(R"("target":"a")") < text.find(R"("target":"c")"));
  struct stat st;
  REQUIRE(stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(stat((t.path + "/home").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
}

TEST_CASE("jsonl sink: a write failure is returned, never dropped") {
  JsonlFileSink full("/dev/full");
  auto r = full.write(event("x"));
  REQUIRE_FALSE(r);
  CHECK(r.error().message() == "/dev/full: cannot write audit log: No space left on device");
  TempDir t;
  JsonlFileSink dir(t.path);  // a directory cannot be opened for writing
  auto d = dir.write(event("x"));
  REQUIRE_FALSE(d);
  CHECK(d.error().message().find("cannot open audit log") != std::string::npos);
  JsonlFileSink nodir("/proc/nonexistent-dir/x/audit.log");
  CHECK_FALSE(nodir.write(event("x")));
}

TEST_CASE("jsonl sink: does not follow a symlink planted as the log") {
  TempDir t;
  std::string target = t.path + "/elsewhere";
  std::string link = t.path + "/audit.log";
  REQUIRE(symlink(target.c_str(), link.c_str()) == 0);
  JsonlFileSink sink(link);
  CHECK_FALSE(sink.write(event("x")));
  CHECK(access(target.c_str(), F_OK) != 0);
}

TEST_CASE("memory sink: keeps records, can be made to fail") {
  MemorySink m;
  REQUIRE(m.write(event("a")));
  CHECK(m.records.size() == 1);
  CHECK(m.lines[0].find(R"("target":"a")") != std::string::npos);
  m.fail_with = "disk on fire";
  auto r = m.write(event("b"));
  REQUIRE_FALSE(r);
  CHECK(r.error().what == "disk on fire");
  CHECK(m.records.size() == 1);
}

TEST_CASE("log reader: tail and search") {
  TempDir t;
  std::string path = t.path + "/audit.log";
  CHECK(tail(path, 5)->empty());  // no log yet
  JsonlFileSink sink(path);
  for (int i = 0; i < 2000; ++i) REQUIRE(sink.write(event("cmd" + std::to_string(i))));
  auto last = tail(path, 3);
  REQUIRE(last);
  REQUIRE(last->size() == 3);
  CHECK((*last)[0].find(R"("target":"cmd1997")") != std::string::npos);
  CHECK((*last)[2].find(R"("target":"cmd1999")") != std::string::npos);
  auto all = tail(path, 5000);
  REQUIRE(all);
  CHECK(all->size() == 2000);
  CHECK((*all)[0].find(R"("target":"cmd0")") != std::string::npos);
  auto found = search(path, "CMD19");  // case-insensitive
  REQUIRE(found);
  CHECK(found->size() == 111);  // cmd19, cmd190-199, cmd1900-1999
  auto none = search(path, "nothing-like-this");
  CHECK(none->empty());
  std::string text = render_text((*last)[2]);
  CHECK(text.find(" ci deny spawn cmd1999 - no cmd1999") != std::string::npos);
  CHECK(render_text("not json") == "not json");
}

TEST_CASE("log reader: empty lines count, also the first (found by audit_log_fuzz)") {
  TempDir t;
  std::string path = t.path + "/audit.log";
  auto write = [&](const std::string& text) { std::ofstream(path, std::ios::trunc) << text; };
  auto lines = [](Result<std::vector<std::string>> r) {
    REQUIRE(r);
    return *r;
  };
  write("\n\n\nx\n\n");  // "", "", "", "x", ""
  auto all = tail(path, 10);
  REQUIRE(all);
  CHECK(*all == std::vector<std::string>{"", "", "", "x", ""});
  CHECK(lines(tail(path, 2)) == std::vector<std::string>{"x", ""});
  CHECK(search(path, "")->size() == 5);  // every line holds the empty word
  CHECK(search(path, "X")->size() == 1);
  write("\n");  // one empty line
  CHECK(lines(tail(path, 3)) == std::vector<std::string>{""});
  CHECK(lines(search(path, "")) == std::vector<std::string>{""});
  write("");
  CHECK(tail(path, 3)->empty());
  CHECK(search(path, "")->empty());
}
