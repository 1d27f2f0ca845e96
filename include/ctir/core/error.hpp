// The error types of ctir: a message, and the IR node it is about when there is one.
#pragma once

#include <ctir/core/linkage.hpp>

#include <stdexcept>
#include <string>

namespace ctir {

class Object;
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
  NodeError(const NodeError& other) noexcept;
  NodeError& operator=(const NodeError& other) noexcept;
  ~NodeError() override;

  /// The offending node; may be null.
  ObjectRef node() const noexcept;

private:
  void retain() const noexcept;
  void release() noexcept;
  // Held by hand rather than as an ObjectRef so that this header does not need ref.hpp
  // (which itself throws Errors).
  const Object* node_ = nullptr;
};

} // namespace ctir

// NodeError::node() returns a Ref: bring it to every user of this header. NodeError's
// members, which need a complete Ref, are defined in error-inl.hpp, which ref.hpp includes
// at its end in header-only mode (whichever of the two headers comes first).
#include <ctir/core/ref.hpp>
