// One error vocabulary: a Result<T> is a value or an error message that names the file and quotes
// the offending text. Errors travel as data; only cli/main.cc turns them into exit codes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace cudamatch {

struct Error {
  // What the error means to the caller: bad input, or a well-formed name the catalog does not
  // know (an unknown GPU model), which commands report like any other "not found" answer.
  enum class Kind { kInvalid, kNotFound };
  std::string message;
  Kind kind = Kind::kInvalid;
  std::string id;  // what kind of error, for JSON ("usage.unknown_option"); "" when not named
};

inline Error Err(std::string message) { return Error{std::move(message)}; }
inline Error ErrNotFound(std::string message) { return Error{std::move(message), Error::Kind::kNotFound}; }

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &std::get<T>(state_); }
  T* operator->() { return &std::get<T>(state_); }

  const std::string& error() const { return std::get<Error>(state_).message; }
  const Error& err() const { return std::get<Error>(state_); }

  // The value, or `fallback` when this holds an error.
  T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }
  std::optional<T> as_optional() const {
    return ok() ? std::optional<T>(value()) : std::nullopt;
  }

 private:
  std::variant<T, Error> state_;
};

// For operations that produce no value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  static Status Ok() { return Status(); }

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const std::string& error() const { return error_->message; }
  const Error& err() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace cudamatch
