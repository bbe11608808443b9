// src/policy/paths.cpp: the path arithmetic every filesystem decision rests on. A
// sibling that shares a prefix (/home/u/project2 against /home/u/project) is not
// beneath it, and normalize() resolves "." and ".." lexically and never climbs above /.
#include <doctest/doctest.h>

#include "policy/paths.h"

using namespace lash::policy::paths;

TEST_CASE("paths: beneath is the root itself or below it, never a sibling with the same prefix") {
  CHECK(beneath("/home/u/proj", "/home/u/proj"));
  CHECK(beneath("/home/u/proj/a", "/home/u/proj"));
  CHECK(beneath("/home/u/proj/a/b/c", "/home/u/proj"));
  CHECK_FALSE(beneath("/home/u/proj2", "/home/u/proj"));
  CHECK_FALSE(beneath("/home/u/proj-evil/x", "/home/u/proj"));
  CHECK_FALSE(beneath("/home/u/pro", "/home/u/proj"));
  CHECK_FALSE(beneath("/home/u", "/home/u/proj"));
  CHECK_FALSE(beneath("/home/v/proj", "/home/u/proj"));
  CHECK_FALSE(beneath("", "/home/u/proj"));
  // the root of the tree holds every absolute path, and no relative one
  CHECK(beneath("/", "/"));
  CHECK(beneath("/etc/passwd", "/"));
  CHECK_FALSE(beneath("etc/passwd", "/"));
  CHECK_FALSE(beneath("", "/"));
}

TEST_CASE("paths: normalize resolves . and .. lexically and stays at or under /") {
  CHECK(normalize("/") == "/");
  CHECK(normalize("//") == "/");
  CHECK(normalize("/a/b/../c") == "/a/c");
  CHECK(normalize("/a/./b//c/") == "/a/b/c");
  CHECK(normalize("/a/b/../../..") == "/");
  CHECK(normalize("/../../etc/passwd") == "/etc/passwd");
  CHECK(normalize("/home/u/proj/../proj2") == "/home/u/proj2");
  CHECK(normalize("/a/..b/c") == "/a/..b/c");  // "..b" is a name
  CHECK(normalize("/a/.../c") == "/a/.../c");
  // what a write check sees for an escape by dots: not beneath the workspace
  CHECK_FALSE(beneath(normalize("/home/u/proj/../secret"), "/home/u/proj"));
  CHECK(beneath(normalize("/home/u/proj/x/../y"), "/home/u/proj"));
}

TEST_CASE("paths: expand resolves ./ against the start directory and ~ against home") {
  CHECK(expand(".", "/w", "/h") == "/w");
  CHECK(expand("./a/../b", "/w", "/h") == "/w/b");
  CHECK(expand("~", "/w", "/h") == "/h");
  CHECK(expand("~/x", "/w", "/h") == "/h/x");
  CHECK(expand("/abs/../p", "/w", "/h") == "/p");
  CHECK(basename("/a/b") == "b");
  CHECK(basename("b") == "b");
  CHECK(basename("/a/") == "");
}
