// Definitions of <ctir/runtime/callbacks.hpp>.
#pragma once

#include <ctir/runtime/callbacks.hpp>

#include <ctir/core/error.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/ir/families.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ctir::runtime {

CTIR_INLINE bool Callbacks::derives_from_any(const TypeInfo& type,
                                             const std::vector<const TypeInfo*>& bases) noexcept {
  for (const TypeInfo* base : bases) {
    if (type.derives_from(*base)) {
      return true;
    }
  }
  return false;
}

CTIR_INLINE const Callbacks::Entry* Callbacks::match_type(const TypeInfo& info) const noexcept {
  if (!opaque_.empty() && derives_from_any(info, opaque_)) {
    return nullptr;
  }
  for (const Entry& entry : entries_) {
    if (entry.def_region && !info.is_variable) {
      continue;
    }
    if ((entry.type == nullptr || info.derives_from(*entry.type)) &&
        (entry.excluded.empty() || !derives_from_any(info, entry.excluded))) {
      return &entry;
    }
  }
  return nullptr;
}

CTIR_INLINE bool Callbacks::is_opaque(const TypeInfo& type) const noexcept {
  return derives_from_any(type, opaque_);
}

CTIR_INLINE Callbacks& Callbacks::excluding(const TypeInfo& type) {
  if (entries_.empty()) {
    throw Error("ctir::runtime::Callbacks::excluding('" + std::string(type.key) +
                "'): it applies to the callback added last, and there is none yet (call on() "
                "first)");
  }
  entries_.back().excluded.push_back(&type);
  reach_.reset();
  return *this;
}

CTIR_INLINE Callbacks& Callbacks::not_into(const TypeInfo& type) {
  opaque_.push_back(&type);
  reach_.reset();
  return *this;
}

CTIR_INLINE void Callbacks::expect(Kind kind, std::string_view operation) const {
  for (const Entry& entry : entries_) {
    if (entry.kind != kind) {
      throw Error("ctir::runtime::" + std::string(operation) + ": " + entry.description + " is a " +
                  std::string(kind_name(entry.kind)) + " callback; " + std::string(operation) +
                  " needs " + std::string(requirement(kind)));
    }
  }
}

CTIR_INLINE void Callbacks::expect_no_mapped(std::string_view operation) const {
  for (const Entry& entry : entries_) {
    if (entry.mapped) {
      throw Error("ctir::runtime::" + std::string(operation) + ": " + entry.description +
                  " takes a runtime::Mapped view, which only a post-order map has (a pre-order "
                  "callback runs before the children are mapped): take the node instead");
    }
  }
}

CTIR_INLINE std::shared_ptr<const detail::traverse::reach_table> Callbacks::reach() const {
  return reach_.get(*this);
}

CTIR_INLINE const TypeInfo& Callbacks::type_by_key(std::string_view type_key) {
  // The IR's types are found whether or not a node of theirs was ever created.
  register_ir_types();
  const TypeInfo* type = TypeRegistry::global().find(type_key);
  if (type == nullptr) {
    throw Error("ctir::runtime::Callbacks::on: no node type is registered under the key '" +
                std::string(type_key) +
                "' (a static node type of your own is registered by "
                "ctir::register_type<T>() or when its first node is created)");
  }
  return *type;
}

CTIR_INLINE std::string_view Callbacks::kind_name(Kind kind) noexcept {
  switch (kind) {
  case Kind::walk:
    return "walk";
  case Kind::map:
    return "map";
  case Kind::visit:
    return "visit";
  case Kind::mutate:
    return "mutate";
  }
  return "?";
}

CTIR_INLINE std::string_view Callbacks::requirement(Kind kind) noexcept {
  switch (kind) {
  case Kind::walk:
    return "callbacks that take the node and return void or a WalkResult";
  case Kind::map:
    return "callbacks that take the node and return a node (return the input to keep it; a "
           "callback returning void or a WalkResult returns no node)";
  case Kind::visit:
    return "callbacks that take (runtime::Visitor&, node) and return void or a WalkResult";
  case Kind::mutate:
    return "callbacks that take (runtime::Mutator&, node) and return a node";
  }
  return "?";
}

} // namespace ctir::runtime
