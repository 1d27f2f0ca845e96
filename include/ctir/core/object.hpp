// The root of every IR node: an intrusive, thread-safe reference count and a type descriptor.
#pragma once

#include <ctir/core/type_info.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

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

/// The objects waiting to be destroyed on one thread (see destroy_object).
///
/// Trivially destructible on purpose: a thread_local with a destructor is destroyed before
/// the program's static objects, and a static Ref released at exit still queues its
/// children here. The first slots are inline; a larger queue lives on the heap only while
/// it drains.
struct DestroyQueue {
  static constexpr std::size_t inline_capacity = 64;
  Object* inline_slots[inline_capacity];
  Object** heap = nullptr;
  std::size_t size = 0;
  std::size_t capacity = inline_capacity;
  bool draining = false;

  Object** slots() noexcept { return heap != nullptr ? heap : inline_slots; }
  void push(Object* object) noexcept {
    if (size == capacity) {
      // An allocation failure here ends the program, as it would in std::vector.
      auto* bigger = new Object*[capacity * 2];
      for (std::size_t i = 0; i < size; ++i) {
        bigger[i] = slots()[i];
      }
      delete[] heap;
      heap = bigger;
      capacity *= 2;
    }
    slots()[size++] = object;
  }
  Object* pop() noexcept { return slots()[--size]; }
  void release_heap() noexcept {
    delete[] heap;
    heap = nullptr;
    capacity = inline_capacity;
  }
};

/// Destroys an object whose count reached zero without recursing on the native stack.
///
/// Destroying a node drops its children; a child that dies while a destruction is in
/// progress on this thread is queued instead of destroyed recursively, so a chain a
/// million nodes deep is freed in a loop.
inline void destroy_object(Object* object) noexcept {
  thread_local DestroyQueue queue;
  if (queue.draining) {
    queue.push(object);
    return;
  }
  queue.draining = true;
  object_access::info(object)->destroy(object);
  while (queue.size != 0) {
    Object* next = queue.pop();
    object_access::info(next)->destroy(next);
  }
  queue.release_heap();
  queue.draining = false;
}

} // namespace detail
} // namespace ctir
