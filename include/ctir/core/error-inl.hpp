// Definitions of <ctir/core/error.hpp>.
// Included at the end of ref.hpp in header-only mode: they need a complete Ref.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>

namespace ctir {

CTIR_INLINE NodeError::NodeError(const ObjectRef& node, const std::string& message)
    : Error(message), node_(node.get()) {
  retain();
}

CTIR_INLINE NodeError::NodeError(const NodeError& other) noexcept
    : Error(other), node_(other.node_) {
  retain();
}

CTIR_INLINE NodeError& NodeError::operator=(const NodeError& other) noexcept {
  if (this != &other) {
    Error::operator=(other);
    release();
    node_ = other.node_;
    retain();
  }
  return *this;
}

CTIR_INLINE NodeError::~NodeError() { release(); }

CTIR_INLINE ObjectRef NodeError::node() const noexcept { return ObjectRef::borrow(node_); }

CTIR_INLINE void NodeError::retain() const noexcept {
  if (node_ != nullptr) {
    detail::object_access::inc_ref(node_);
  }
}

CTIR_INLINE void NodeError::release() noexcept {
  if (node_ != nullptr && detail::object_access::dec_ref(node_)) {
    detail::destroy_object(const_cast<Object*>(node_));
  }
  node_ = nullptr;
}

} // namespace ctir
