// The error types of ctir: a message, and the IR node it is about when there is one.
#pragma once

#include <ctir/core/ref.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace ctir {

/// Every error ctir reports derives from this.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An error about a particular node (an ill-typed call, an undefined variable ...), so
/// that whoever reports it can print the IR with that node underlined.
class NodeError : public Error {
public:
  NodeError(ObjectRef node, const std::string& message) : Error(message), node_(std::move(node)) {}
  /// The offending node; may be null.
  const ObjectRef& node() const noexcept { return node_; }

private:
  ObjectRef node_;
};

} // namespace ctir
