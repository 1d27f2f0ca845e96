// The process-wide table of node types: lookup by key or index, and registration at run time.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/type_info.hpp>

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ctir {

/// The error thrown when a type key is registered twice or collides with another key.
class type_registration_error : public Error {
public:
  using Error::Error;
};

/// Everything needed to describe a node type that is only known at run time.
struct RuntimeTypeSpec {
  std::string key;
  /// The key of an already registered parent type ("Object", "ir.Expr", ...).
  std::string parent_key = "Object";
  bool is_abstract = false;
  bool is_variable = false;
  /// The type's own fields; the parent's fields are prepended automatically.
  std::vector<FieldInfo> own_fields;
  void (*destroy)(Object*) noexcept = nullptr;
  Object* (*clone)(const Object&) = nullptr;
  std::string_view (*variable_name)(const Object&) = nullptr;
};

/// The registry of every node type in the process.
///
/// Compiled-in types register themselves (with their ancestors) the first time an
/// object of theirs can be created; plug-in types register through `add_runtime_type`.
class TypeRegistry {
public:
  static TypeRegistry& global() {
    static TypeRegistry registry;
    return registry;
  }

  /// Registers a static descriptor and its ancestors; idempotent.
  bool add(const TypeInfo* info) {
    std::unique_lock lock(mutex_);
    for (const TypeInfo* t = info; t != nullptr; t = t->parent) {
      insert_locked(t);
    }
    return true;
  }

  /// Registers a type described at run time and returns its descriptor (owned by the
  /// registry for the life of the process).
  const TypeInfo& add_runtime_type(RuntimeTypeSpec spec) {
    std::unique_lock lock(mutex_);
    auto parent_it = by_key_.find(spec.parent_key);
    if (parent_it == by_key_.end()) {
      throw type_registration_error("ctir: cannot register type '" + spec.key + "': its parent '" +
                                    spec.parent_key + "' is not a registered type");
    }
    const TypeInfo* parent = parent_it->second;
    if (parent->is_final) {
      // Static code tests a final type by its index alone; a subtype would go unrecognised.
      throw type_registration_error("ctir: cannot register type '" + spec.key + "': its parent '" +
                                    spec.parent_key + "' is final");
    }
    auto& owned = runtime_types_.emplace_back();
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
      runtime_types_.pop_back();
      throw type_registration_error("ctir: a concrete runtime type needs destroy and clone");
    }
    try {
      insert_locked(&info);
    } catch (...) {
      runtime_types_.pop_back();
      throw;
    }
    return info;
  }

  const TypeInfo* find(std::string_view key) const {
    std::shared_lock lock(mutex_);
    auto it = by_key_.find(std::string(key));
    return it == by_key_.end() ? nullptr : it->second;
  }

  const TypeInfo* find(std::uint32_t index) const {
    std::shared_lock lock(mutex_);
    auto it = by_index_.find(index);
    return it == by_index_.end() ? nullptr : it->second;
  }

  /// Every registered type, sorted by key.
  std::vector<const TypeInfo*> all() const {
    std::shared_lock lock(mutex_);
    std::vector<const TypeInfo*> result;
    result.reserve(by_key_.size());
    for (const auto& [key, info] : by_key_) {
      result.push_back(info);
    }
    std::sort(result.begin(), result.end(),
              [](const TypeInfo* a, const TypeInfo* b) { return a->key < b->key; });
    return result;
  }

private:
  struct OwnedRuntimeType {
    TypeInfo info;
    std::string key;
    std::vector<std::uint32_t> ancestors;
    std::vector<FieldInfo> fields;
    std::deque<std::string> field_names;
  };

  void insert_locked(const TypeInfo* info) {
    auto [it, inserted] = by_index_.emplace(info->index, info);
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
    by_key_.emplace(std::string(info->key), info);
  }

  mutable std::shared_mutex mutex_;
  std::unordered_map<std::uint32_t, const TypeInfo*> by_index_;
  std::unordered_map<std::string, const TypeInfo*> by_key_;
  std::deque<OwnedRuntimeType> runtime_types_;
};

} // namespace ctir
