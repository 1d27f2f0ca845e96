// The error types of ctir: a message, and the IR node it is about when there is one.
#pragma once

#include <ctir/core/object.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace ctir {

template <class T>
class Ref;
using ObjectRef = Ref<Object>;

/// Every error ctir reports derives from this.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An error about a particular node (an ill-typed call, an undefined variable ...), so
/// that whoever reports it can print the IR with that node underlined.
class NodeError : public Error {
public:
  NodeError(const ObjectRef& node, const std::string& message);
  NodeError(const NodeError& other) noexcept : Error(other), node_(other.node_) { retain(); }
  NodeError& operator=(const NodeError& other) noexcept {
    if (this != &other) {
      Error::operator=(other);
      release();
      node_ = other.node_;
      retain();
    }
    return *this;
  }
  ~NodeError() override { release(); }

  /// The offending node; may be null.
  ObjectRef node() const noexcept;

private:
  void retain() const noexcept {
    if (node_ != nullptr) {
      detail::object_access::inc_ref(node_);
    }
  }
  void release() noexcept {
    if (node_ != nullptr && detail::object_access::dec_ref(node_)) {
      detail::destroy_object(const_cast<Object*>(node_));
    }
    node_ = nullptr;
  }
  // Held by hand rather than as an ObjectRef so that this header does not need ref.hpp
  // (which itself throws Errors).
  const Object* node_ = nullptr;
};

} // namespace ctir

// NodeError's members that need a complete Ref are defined at the end of ref.hpp.
#include <ctir/core/ref.hpp>
