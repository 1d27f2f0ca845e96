// The root of every IR node: an intrusive, thread-safe reference count and a type descriptor.
#pragma once

#include <ctir/core/type_info.hpp>

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ctir {

namespace detail {
struct object_access;
} // namespace detail

/// The base of all nodes.
///
/// Nodes are immutable once published through a Ref. They carry no vtable:
/// destruction, cloning and the field table go through the TypeInfo, which is
/// what lets a type registered at run time behave like a compiled-in one.
class Object {
public:
  /// The type key of the root type.
  static constexpr std::string_view type_key = "Object";
  static constexpr std::uint32_t type_index = type_index_of_key(type_key);
  static constexpr std::uint32_t type_depth = 0;
  static constexpr bool is_abstract_type = true;
  using self_type = Object;

  /// The index of this object's dynamic type.
  std::uint32_t dynamic_type_index() const noexcept { return type_index_; }
  /// The descriptor of this object's dynamic type.
  const TypeInfo& type_info() const noexcept { return *info_; }
  /// The key of this object's dynamic type ("tensor.For", ...).
  std::string_view dynamic_type_key() const noexcept { return info_->key; }
  /// Number of Refs to this object (for tests and diagnostics; racy by nature).
  std::uint32_t use_count() const noexcept { return ref_count_.load(std::memory_order_relaxed); }

protected:
  Object() noexcept = default;
  /// A copy starts unowned and keeps the dynamic type.
  Object(const Object& other) noexcept : type_index_(other.type_index_), info_(other.info_) {}
  Object& operator=(const Object&) = delete;
  ~Object() = default;

private:
  friend struct detail::object_access;
  mutable std::atomic<std::uint32_t> ref_count_{0};
  std::uint32_t type_index_ = 0;
  const TypeInfo* info_ = nullptr;
};

namespace detail {

/// The only place that touches an Object's header.
struct object_access {
  static void stamp(Object& object, const TypeInfo* info) noexcept {
    object.info_ = info;
    object.type_index_ = info->index;
  }
  static void inc_ref(const Object* object) noexcept {
    object->ref_count_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Returns true when the last reference was dropped.
  static bool dec_ref(const Object* object) noexcept {
    return object->ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }
  static const TypeInfo* info(const Object* object) noexcept { return object->info_; }
};

/// Destroys an object whose count reached zero without recursing on the native stack.
///
/// Destroying a node drops its children; a child that dies while a destruction is in
/// progress on this thread is queued instead of destroyed recursively, so a chain a
/// million nodes deep is freed in a loop.
inline void destroy_object(Object* object) noexcept {
  thread_local bool draining = false;
  thread_local std::vector<Object*> pending;
  if (draining) {
    pending.push_back(object);
    return;
  }
  draining = true;
  object_access::info(object)->destroy(object);
  while (!pending.empty()) {
    Object* next = pending.back();
    pending.pop_back();
    object_access::info(next)->destroy(next);
  }
  draining = false;
}

} // namespace detail
} // namespace ctir
