// AccessPath: the fields and array indices that lead from a root to a node.
#pragma once

#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctir {

/// The position of a node (or of a plain value field) inside a root, as the fields and
/// array elements one follows from the root to reach it.
///
/// Printed as `<root>` followed by `.field` for every field and `[i]` for every array
/// element: `<root>.body.seq[0].body.seq[0].value.b.value`. Structural equality reports
/// the first mismatch with one of these per side.
class AccessPath {
public:
  /// One step of a path: into a field by name, or into an array element by index.
  struct Step {
    enum class Kind : std::uint8_t { field, index };
    Kind kind = Kind::field;
    std::string name;      ///< the field name, for Kind::field
    std::size_t index = 0; ///< the element index, for Kind::index

    friend bool operator==(const Step&, const Step&) = default;
  };

  /// The root itself (`<root>`).
  AccessPath() = default;

  /// This path followed by field `name`.
  AccessPath field(std::string_view name) const {
    AccessPath result = *this;
    result.push_field(name);
    return result;
  }
  /// This path followed by array element `i`.
  AccessPath index(std::size_t i) const {
    AccessPath result = *this;
    result.push_index(i);
    return result;
  }
  void push_field(std::string_view name) {
    steps_.push_back(Step{Step::Kind::field, std::string(name), 0});
  }
  void push_index(std::size_t i) { steps_.push_back(Step{Step::Kind::index, {}, i}); }

  std::span<const Step> steps() const noexcept { return steps_; }
  std::size_t size() const noexcept { return steps_.size(); }
  bool is_root() const noexcept { return steps_.empty(); }

  /// `<root>.body.seq[0]`.
  std::string str() const {
    std::string out = "<root>";
    for (const Step& step : steps_) {
      if (step.kind == Step::Kind::field) {
        out += '.';
        out += step.name;
      } else {
        out += '[';
        out += std::to_string(step.index);
        out += ']';
      }
    }
    return out;
  }

  /// Follows the path from `root` through the runtime field tables. Returns the node the
  /// path names; when its last step names a plain value field (`.value`), the node that
  /// holds that field. Returns null when the path does not exist in `root` (a missing
  /// field, an index out of range, a null on the way).
  ObjectRef resolve(const ObjectRef& root) const {
    const Object* node = root.get();
    const FieldInfo* pending_array = nullptr;
    const Object* array_owner = nullptr;
    for (const Step& step : steps_) {
      if (node == nullptr && pending_array == nullptr) {
        return {};
      }
      if (step.kind == Step::Kind::index) {
        if (pending_array == nullptr ||
            step.index >= pending_array->size(*array_owner, *pending_array)) {
          return {};
        }
        node = pending_array->at(*array_owner, *pending_array, step.index);
        pending_array = nullptr;
        continue;
      }
      if (pending_array != nullptr) {
        return {}; // an array must be followed by an index
      }
      const FieldInfo* found = nullptr;
      for (const FieldInfo& field : node->type_info().fields) {
        if (field.name == step.name) {
          found = &field;
          break;
        }
      }
      if (found == nullptr) {
        return {};
      }
      if (found->kind == FieldKind::node) {
        node = found->get(*node, *found);
      } else if (found->kind == FieldKind::node_array) {
        pending_array = found;
        array_owner = node;
      } else if (&step != &steps_.back()) {
        return {}; // a plain value has no fields
      }
    }
    if (pending_array != nullptr) {
      return ObjectRef::borrow(array_owner);
    }
    return ObjectRef::borrow(node);
  }

  friend bool operator==(const AccessPath&, const AccessPath&) = default;

private:
  std::vector<Step> steps_;
};

} // namespace ctir
