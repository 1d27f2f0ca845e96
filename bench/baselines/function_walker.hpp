// A std::function-callback walker: a generic recursive walk over TypeInfo::fields that calls
// one type-erased callback on every node (the way a plug-in API without templates walks).
#pragma once

#include <ctir/ir/ir.hpp>

#include <cstddef>
#include <functional>
#include <utility>

namespace ctir::bench::function_walker {

/// Calls `f(node)` on every node under `root`, children first, following each node's
/// runtime field table (every non-ignored node and node-array field, nulls skipped). A
/// variable is a leaf at its uses: its type is walked only where it is defined (a
/// def_simple field, or anywhere inside a def_pattern field).
class Walker {
public:
  explicit Walker(std::function<void(const Object&)> f) : f_(std::move(f)) {}

  void walk(const Object& node, DefRegionKind region = DefRegionKind::none) {
    const TypeInfo& info = node.type_info();
    if (!(info.is_variable && region == DefRegionKind::none)) {
      for (const FieldInfo& field : info.fields) {
        if (field.ignored()) {
          continue;
        }
        // A pattern covers its whole subtree; a simple definition only the field's node.
        const DefRegionKind inner = region == DefRegionKind::def_pattern ? region : field.def_kind;
        if (field.kind == FieldKind::node) {
          if (const Object* child = field.get(node, field)) {
            walk(*child, inner);
          }
        } else if (field.kind == FieldKind::node_array) {
          for (std::size_t i = 0, n = field.size(node, field); i < n; ++i) {
            if (const Object* child = field.at(node, field, i)) {
              walk(*child, inner);
            }
          }
        }
      }
    }
    f_(node);
  }

private:
  std::function<void(const Object&)> f_;
};

/// Walks `root` calling `f` on every node.
inline void walk(const ObjectRef& root, std::function<void(const Object&)> f) {
  Walker(std::move(f)).walk(*root);
}

/// The number of Add nodes under `root`.
inline std::size_t count_add(const ObjectRef& root) {
  std::size_t count = 0;
  walk(root, [&count](const Object& node) {
    if (node.dynamic_type_index() == AddNode::type_index) {
      ++count;
    }
  });
  return count;
}

/// The number of For nodes under `root` (a type-erased walk cannot prune).
inline std::size_t count_for(const ObjectRef& root) {
  std::size_t count = 0;
  walk(root, [&count](const Object& node) {
    if (node.dynamic_type_index() == ForNode::type_index) {
      ++count;
    }
  });
  return count;
}

} // namespace ctir::bench::function_walker
