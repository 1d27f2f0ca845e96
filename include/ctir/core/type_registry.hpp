// The process-wide table of node types: lookup by key or index, and registration at run time.
#pragma once

#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/core/type_info.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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
/// Static types register themselves (with their ancestors) when their first object is
/// created, or by `register_type<T>()`; `register_ir_types()` registers every IR type at
/// once. Plug-in types register through `add_runtime_type`. Nothing is registered by
/// including a header. Thread-safe.
class TypeRegistry {
public:
  static TypeRegistry& global();

  /// Registers a static descriptor and its ancestors; idempotent.
  bool add(const TypeInfo* info);

  /// Registers a type described at run time and returns its descriptor (owned by the
  /// registry for the life of the process).
  const TypeInfo& add_runtime_type(RuntimeTypeSpec spec);

  const TypeInfo* find(std::string_view key) const;
  const TypeInfo* find(std::uint32_t index) const;

  /// Every registered type, sorted by key.
  std::vector<const TypeInfo*> all() const;

  /// How many types are registered. Types are never removed, so a cache computed from the
  /// registry is up to date while this number has not changed. Takes no lock.
  std::size_t size() const noexcept;

  TypeRegistry(const TypeRegistry&) = delete;
  TypeRegistry& operator=(const TypeRegistry&) = delete;

private:
  struct State;
  TypeRegistry();
  ~TypeRegistry() = default;
  void insert_locked(const TypeInfo* info);

  State* state_; // never freed: nodes may be destroyed during exit
};

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/core/type_registry-inl.hpp>
#endif
