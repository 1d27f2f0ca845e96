// Definitions of <ctir/core/type_registry.hpp>.
#pragma once

#include <ctir/core/type_registry.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctir {

struct TypeRegistry::State {
  struct OwnedRuntimeType {
    TypeInfo info;
    std::string key;
    std::vector<std::uint32_t> ancestors;
    std::vector<FieldInfo> fields;
    std::deque<std::string> field_names;
  };

  mutable std::shared_mutex mutex;
  std::atomic<std::size_t> count{0};
  std::unordered_map<std::uint32_t, const TypeInfo*> by_index;
  std::unordered_map<std::string, const TypeInfo*> by_key;
  std::deque<OwnedRuntimeType> runtime_types;
};

CTIR_INLINE TypeRegistry::TypeRegistry() : state_(new State) {}

CTIR_INLINE TypeRegistry& TypeRegistry::global() {
  static TypeRegistry* registry = new TypeRegistry(); // used during exit too
  return *registry;
}

CTIR_INLINE bool TypeRegistry::add(const TypeInfo* info) {
  std::unique_lock lock(state_->mutex);
  for (const TypeInfo* t = info; t != nullptr; t = t->parent) {
    insert_locked(t);
  }
  return true;
}

CTIR_INLINE const TypeInfo& TypeRegistry::add_runtime_type(RuntimeTypeSpec spec) {
  std::unique_lock lock(state_->mutex);
  auto parent_it = state_->by_key.find(spec.parent_key);
  if (parent_it == state_->by_key.end()) {
    throw type_registration_error("ctir: cannot register type '" + spec.key + "': its parent '" +
                                  spec.parent_key +
                                  "' is not a registered type (static types register when their "
                                  "first node is created, or with ctir::register_type<T>(); the "
                                  "IR's all at once with ctir::register_ir_types())");
  }
  const TypeInfo* parent = parent_it->second;
  if (parent->is_final) {
    // Static code tests a final type by its index alone; a subtype would go unrecognised.
    throw type_registration_error("ctir: cannot register type '" + spec.key + "': its parent '" +
                                  spec.parent_key + "' is final");
  }
  auto& owned = state_->runtime_types.emplace_back();
  owned.key = std::move(spec.key);
  owned.ancestors.assign(parent->ancestors, parent->ancestors + parent->depth + 1);
  owned.fields.assign(parent->fields.begin(), parent->fields.end());
  for (FieldInfo& field : spec.own_fields) {
    owned.field_names.push_back(std::string(field.name));
  }
  std::size_t name_index = 0;
  for (FieldInfo field : spec.own_fields) {
    field.name = owned.field_names[name_index++];
    owned.fields.push_back(field);
  }
  TypeInfo& info = owned.info;
  info.index = type_index_of_key(owned.key);
  owned.ancestors.push_back(info.index);
  info.key = owned.key;
  info.parent = parent;
  info.depth = parent->depth + 1;
  info.ancestors = owned.ancestors.data();
  info.is_abstract = spec.is_abstract;
  info.is_variable = spec.is_variable || parent->is_variable;
  info.fields = owned.fields;
  info.destroy = spec.destroy;
  info.clone = spec.clone;
  info.variable_name = spec.variable_name != nullptr ? spec.variable_name : parent->variable_name;
  if (!info.is_abstract && (info.destroy == nullptr || info.clone == nullptr)) {
    state_->runtime_types.pop_back();
    throw type_registration_error("ctir: a concrete runtime type needs destroy and clone");
  }
  try {
    insert_locked(&info);
  } catch (...) {
    state_->runtime_types.pop_back();
    throw;
  }
  return info;
}

CTIR_INLINE const TypeInfo* TypeRegistry::find(std::string_view key) const {
  std::shared_lock lock(state_->mutex);
  auto it = state_->by_key.find(std::string(key));
  return it == state_->by_key.end() ? nullptr : it->second;
}

CTIR_INLINE const TypeInfo* TypeRegistry::find(std::uint32_t index) const {
  std::shared_lock lock(state_->mutex);
  auto it = state_->by_index.find(index);
  return it == state_->by_index.end() ? nullptr : it->second;
}

CTIR_INLINE std::vector<const TypeInfo*> TypeRegistry::all() const {
  std::shared_lock lock(state_->mutex);
  std::vector<const TypeInfo*> result;
  result.reserve(state_->by_key.size());
  for (const auto& [key, info] : state_->by_key) {
    result.push_back(info);
  }
  std::sort(result.begin(), result.end(),
            [](const TypeInfo* a, const TypeInfo* b) { return a->key < b->key; });
  return result;
}

CTIR_INLINE void TypeRegistry::insert_locked(const TypeInfo* info) {
  auto [it, inserted] = state_->by_index.emplace(info->index, info);
  if (!inserted) {
    if (it->second == info) {
      return;
    }
    if (it->second->key == info->key) {
      throw type_registration_error("ctir: type key '" + std::string(info->key) +
                                    "' is registered twice");
    }
    throw type_registration_error("ctir: type keys '" + std::string(info->key) + "' and '" +
                                  std::string(it->second->key) +
                                  "' hash to the same type index; rename one of them");
  }
  state_->by_key.emplace(std::string(info->key), info);
  state_->count.fetch_add(1, std::memory_order_release);
}

CTIR_INLINE std::size_t TypeRegistry::size() const noexcept {
  return state_->count.load(std::memory_order_acquire);
}

} // namespace ctir
