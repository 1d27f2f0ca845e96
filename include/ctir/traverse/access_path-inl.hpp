// Definitions of <ctir/traverse/access_path.hpp>.
#pragma once

#include <ctir/traverse/access_path.hpp>

#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace ctir {

CTIR_INLINE AccessPath AccessPath::field(std::string_view name) const {
  AccessPath result = *this;
  result.push_field(name);
  return result;
}

CTIR_INLINE AccessPath AccessPath::index(std::size_t i) const {
  AccessPath result = *this;
  result.push_index(i);
  return result;
}

CTIR_INLINE void AccessPath::push_field(std::string_view name) {
  steps_.push_back(Step{Step::Kind::field, std::string(name), 0});
}

CTIR_INLINE void AccessPath::push_index(std::size_t i) {
  steps_.push_back(Step{Step::Kind::index, {}, i});
}

CTIR_INLINE std::string AccessPath::str() const {
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

CTIR_INLINE ObjectRef AccessPath::resolve(const ObjectRef& root) const {
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

} // namespace ctir
