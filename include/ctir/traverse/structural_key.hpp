// StructuralKey, StructuralHash, StructuralEqual: IR as keys compared by structure.
#pragma once

#include <ctir/core/ref.hpp>
#include <ctir/traverse/structural_equal.hpp>
#include <ctir/traverse/structural_hash.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace ctir {

/// Hashes by structure, for hash containers: `std::unordered_set<PrimFunc, StructuralHash,
/// StructuralEqual>`. The hash is recomputed at every call; StructuralKey caches it.
struct StructuralHash {
  bool map_free_vars = false;

  template <structural_value A>
  std::size_t operator()(const A& value) const {
    return static_cast<std::size_t>(structural_hash(value, {.map_free_vars = map_free_vars}));
  }
};

/// Compares by structure, for hash containers (see StructuralHash).
struct StructuralEqual {
  bool map_free_vars = false;

  template <structural_value A, structural_value B>
  bool operator()(const A& a, const B& b) const {
    return structural_equal(a, b, {.map_free_vars = map_free_vars});
  }
};

/// A Ref that ordinary hash containers compare by structure instead of identity.
///
/// The structural hash is computed once, at construction; equality compares the cached
/// hashes first and runs structural_equal only when they agree. `T` is a node type or a
/// Ref type: `StructuralKey<PrimFuncNode>` and `StructuralKey<PrimFunc>` both hold a
/// `Ref<PrimFuncNode>`.
///
///     std::unordered_set<StructuralKey<PrimFuncNode>> unique;
///     unique.emplace(make_add(1));
///     unique.emplace(make_add(1)); // already there
template <class T>
class StructuralKey {
public:
  using node_type = node_of_t<T>;

  /// Wraps `value` and computes its structural hash.
  StructuralKey(Ref<node_type> value) // NOLINT(google-explicit-constructor): a key is its value
      : value_(std::move(value)), hash_(structural_hash(value_)) {}

  const Ref<node_type>& get() const noexcept { return value_; }
  const Ref<node_type>& operator*() const noexcept { return value_; }
  const node_type* operator->() const noexcept { return value_.get(); }
  /// The cached structural hash.
  std::uint64_t hash() const noexcept { return hash_; }

  friend bool operator==(const StructuralKey& a, const StructuralKey& b) {
    return a.hash_ == b.hash_ && structural_equal(a.value_, b.value_);
  }

private:
  Ref<node_type> value_;
  std::uint64_t hash_;
};

template <class T>
StructuralKey(Ref<T>) -> StructuralKey<T>;

} // namespace ctir

/// Structural keys hash by their cached structural hash.
template <class T>
struct std::hash<ctir::StructuralKey<T>> {
  std::size_t operator()(const ctir::StructuralKey<T>& key) const noexcept {
    return static_cast<std::size_t>(key.hash());
  }
};
