// Which node types can lead a runtime traversal to a node its callbacks match: the runtime
// layer's counterpart of the static walk's pruning, computed from the type registry.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ctir::runtime {
class Callbacks;
} // namespace ctir::runtime

namespace ctir::detail::traverse {

/// What a runtime traversal has to enter of one node type.
struct reach_type {
  std::uint32_t index = 0;
  /// Whether a node of this type may be matched itself or hold, at any depth, a node that
  /// is.
  bool reaches = true;
  /// Whether every child field may lead to a match (then the type's for_each_child serves).
  bool all_fields = true;
  /// The positions in TypeInfo::fields of the child fields (node or node array, not
  /// ignored) that may lead to a match, in field order.
  std::vector<std::uint32_t> fields;
};

/// For each registered node type, the fields through which a node some callback matches
/// can be reached. A field of static type E may hold a node of any registered type
/// derived from E; it leads to a match when one of those types is matched or has such a
/// field itself (a fixed point: an expression holds expressions). Types registered later
/// are not in the table; reach_cache computes a new one when the registry has grown.
class reach_table {
public:
  /// The table of `callbacks` over every type registered now.
  static std::shared_ptr<const reach_table> compute(const runtime::Callbacks& callbacks);

  /// TypeRegistry::size() when the table was computed (or earlier).
  std::size_t generation() const noexcept { return generation_; }

  /// The entry of the type with index `index`; null for a type the table does not know.
  const reach_type* find(std::uint32_t index) const noexcept;

private:
  std::size_t generation_ = 0;
  std::vector<reach_type> types_; ///< sorted by index
};

/// A Callbacks' reach table: computed on first use and again once types were registered
/// since. Thread-safe; a copy starts empty (its callbacks may change).
class reach_cache {
public:
  reach_cache();
  reach_cache(const reach_cache& other);
  reach_cache(reach_cache&& other) noexcept;
  reach_cache& operator=(const reach_cache& other);
  reach_cache& operator=(reach_cache&& other) noexcept;
  ~reach_cache();

  /// The table for `callbacks`, up to date with the type registry.
  std::shared_ptr<const reach_table> get(const runtime::Callbacks& callbacks) const;
  /// Forgets the table (the callbacks changed).
  void reset() noexcept;

private:
  struct state;
  std::unique_ptr<state> state_;
};

} // namespace ctir::detail::traverse

// The definitions need runtime::Callbacks: <ctir/runtime/callbacks.hpp> brings them.
