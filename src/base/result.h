// Result<T>: a value or an Error, without exceptions crossing layer boundaries.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace lash {

struct Error {
  std::string what;    // human-readable message, without a "lash:" prefix
  std::string target;  // the object concerned (path, name, key), may be empty
  int err = 0;         // errno, 0 when not a system error
  std::string key;     // profile key involved, may be empty

  std::string message() const;  // "target: what: strerror(err)" with empty parts omitted
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error e) : err_(std::move(e)), failed_(true) {}
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return err_; }

 private:
  Error err_;
  bool failed_ = false;
};

inline Error sys_error(std::string what, std::string target, int err) {
  return Error{std::move(what), std::move(target), err, {}};
}

}  // namespace lash
