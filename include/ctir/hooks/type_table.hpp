// The runtime descriptor of a static node type, generated from its hooks; creating nodes.
#pragma once

#include <ctir/core/child_visitor.hpp>
#include <ctir/core/inline.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_registry.hpp>
#include <ctir/hooks/hooks.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// Whether objects of T are variables: defined at def sites, paired up by equality.
/// A variable type says `static constexpr bool is_variable_type = true;` and has a
/// `name` member (the name hint).
template <class T>
inline constexpr bool is_variable_node_v = requires {
  requires T::is_variable_type;
};

namespace detail {

template <class T, class F>
const Object* field_get_node(const Object& object, const FieldInfo&) {
  return F::get(static_cast<const T&>(object)).get();
}

template <class Element>
[[noreturn]] CTIR_DETAIL_NOINLINE void bad_field_value(const FieldInfo& field,
                                                       const Object& value) {
  throw bad_node_cast("ctir: field '" + std::string(field.name) + "' holds a " +
                      std::string(Element::type_key) + ", not a " +
                      std::string(value.dynamic_type_key()));
}

// Inlined into the field setters, which a rewrite calls for every changed child; the
// value's reference moves into the field.
template <class Element>
CTIR_DETAIL_ALWAYS_INLINE Ref<Element> checked_field_value(ObjectRef value,
                                                           const FieldInfo& field) {
  if (value.defined() && !value.is<Element>()) [[unlikely]] {
    bad_field_value<Element>(field, *value);
  }
  return Ref<Element>::adopt_released(static_cast<const Element*>(value.release()));
}

template <class T, class F>
void field_set_node(Object& object, const FieldInfo& field, ObjectRef value) {
  F::get(static_cast<T&>(object)) =
      checked_field_value<typename F::element_type>(std::move(value), field);
}

template <class T, class F>
std::size_t field_array_size(const Object& object, const FieldInfo&) {
  return F::get(static_cast<const T&>(object)).size();
}

template <class T, class F>
const Object* field_array_at(const Object& object, const FieldInfo&, std::size_t i) {
  return F::get(static_cast<const T&>(object))[i].get();
}

template <class T, class F>
void field_array_set_at(Object& object, const FieldInfo& field, std::size_t i, ObjectRef value) {
  F::get(static_cast<T&>(object))[i] =
      checked_field_value<typename F::element_type>(std::move(value), field);
}

template <class T, class F>
bool field_value_equal(const Object& a, const Object& b, const FieldInfo&) {
  return value_traits<typename F::value_type>::equal(F::get(static_cast<const T&>(a)),
                                                     F::get(static_cast<const T&>(b)));
}

template <class T, class F>
std::uint64_t field_value_hash(const Object& a, const FieldInfo&) {
  return value_traits<typename F::value_type>::hash(F::get(static_cast<const T&>(a)));
}

template <class T, class F>
void field_value_print(const Object& a, const FieldInfo&, std::string& out) {
  value_traits<typename F::value_type>::print(F::get(static_cast<const T&>(a)), out);
}

template <class T, class F>
const void* field_value_address(const Object& a, const FieldInfo&) {
  return &F::get(static_cast<const T&>(a));
}

template <class T, class F>
bool field_value_is_default(const Object& a, const FieldInfo&) {
  using V = typename F::value_type;
  if constexpr (!T::is_abstract_type && std::is_default_constructible_v<T>) {
    // The default is what a default-constructed node holds (its member initializers).
    static const T defaults = T();
    return value_traits<V>::equal(F::get(static_cast<const T&>(a)), F::get(defaults));
  } else if constexpr (std::is_default_constructible_v<V>) {
    return value_traits<V>::equal(F::get(static_cast<const T&>(a)), V{});
  } else {
    return false;
  }
}

/// The runtime entry of field F of T: function pointers instantiated from the static hook;
/// `scope_begin` and `recursive_field` are the indices of the fields its scope names.
template <class T, class F>
constexpr FieldInfo make_field_info(const F& field, std::size_t scope_begin,
                                    std::size_t recursive_field) noexcept {
  FieldInfo info;
  info.name = field.name;
  info.kind = F::kind;
  info.def_kind = F::def_kind;
  info.flags = F::flags;
  info.scope = F::scope;
  if constexpr (F::scope == DefScope::field) {
    info.scope_begin = static_cast<std::uint16_t>(scope_begin);
    if constexpr (!std::is_void_v<typename F::recursive_type>) {
      info.recursive_field = static_cast<std::uint16_t>(recursive_field);
      info.recursive_type_index = F::recursive_type::type_index;
      info.recursive_type_depth = F::recursive_type::type_depth;
    }
  }
  if constexpr (F::kind == FieldKind::node) {
    info.element_type_index = F::element_type::type_index;
    info.get = &field_get_node<T, F>;
    info.set = &field_set_node<T, F>;
  } else if constexpr (F::kind == FieldKind::node_array) {
    info.element_type_index = F::element_type::type_index;
    info.size = &field_array_size<T, F>;
    info.at = &field_array_at<T, F>;
    info.set_at = &field_array_set_at<T, F>;
  } else if constexpr (!F::ignored) {
    // Ignored plain fields (caches, indices) need no value_traits: nothing reads them.
    // An error here means a field's type is neither Ref<Node>, std::vector<Ref<Node>>
    // nor a type with ctir::value_traits: make it a node, or specialize value_traits.
    static_assert(field_value<typename F::value_type>,
                  "ctir: this field type is not a node, a vector of nodes, or a value type with "
                  "ctir::value_traits; specialize ctir::value_traits<T> (equal, hash, print) or "
                  "mark the field .ignore()");
    info.equal = &field_value_equal<T, F>;
    info.hash = &field_value_hash<T, F>;
    info.print = &field_value_print<T, F>;
    info.is_default = &field_value_is_default<T, F>;
    info.value_type = &value_type_id_v<typename F::value_type>;
    info.value_address = &field_value_address<T, F>;
  }
  return info;
}

template <class T, class F, class Visitor>
CTIR_DETAIL_ALWAYS_INLINE bool visit_field_children(const T& node, DefRegionKind region,
                                                    Visitor& visitor) {
  if constexpr (F::ignored || F::kind == FieldKind::value) {
    return true;
  } else if constexpr (F::kind == FieldKind::node) {
    const Object* child = F::get(node).get();
    return child == nullptr || visitor(*child, child_region(region, F::def_kind));
  } else {
    const DefRegionKind inner = child_region(region, F::def_kind);
    for (const auto& item : F::get(node)) {
      if (const Object* child = item.get(); child != nullptr && !visitor(*child, inner)) {
        return false;
      }
    }
    return true;
  }
}

template <class T, class Visitor, class... F>
bool for_each_child_in(const Object& object, [[maybe_unused]] DefRegionKind region,
                       [[maybe_unused]] Visitor& visitor, const field_list<F...>&) {
  [[maybe_unused]] const T& node = static_cast<const T&>(object);
  return (visit_field_children<T, F>(node, region, visitor) && ...);
}

/// TypeInfo::for_each_child of a static type: its fields read directly. With a
/// PassThroughVisitor, TypeInfo::walk_children.
template <class T, class Visitor = ChildVisitor>
bool for_each_child_of(const Object& object, DefRegionKind region, ChildVisitor& visitor) {
  return for_each_child_in<T>(object, region, static_cast<Visitor&>(visitor), fields_v<T>);
}

template <class T>
void destroy_node(Object* object) noexcept {
  delete static_cast<T*>(object);
}

template <class T>
Object* clone_node(const Object& object) {
  return new T(static_cast<const T&>(object));
}

template <class T>
std::string_view variable_name_of(const Object& object) {
  return static_cast<const T&>(object).name;
}

template <class T>
void short_repr_of(const Object& object, std::string& out) {
  T::ctir_repr(static_cast<const T&>(object), out);
}

} // namespace detail

/// The runtime field table of T, generated from the same declaration as the static one.
namespace detail {
template <class T, class... F, std::size_t... I>
constexpr std::array<FieldInfo, sizeof...(F)> make_field_infos(const field_list<F...>& list,
                                                               std::index_sequence<I...>) {
  static_assert(sizeof...(F) < FieldInfo::no_field, "ctir: too many fields in one node type");
  return {make_field_info<T>(F::with_names(list.names[I]),
                             later_field_index(list.names, I, list.names[I].scope_field),
                             later_field_index(list.names, I, list.names[I].recursive_field))...};
}
} // namespace detail

template <hooked_node T>
inline constexpr auto field_infos_v =
    detail::make_field_infos<T>(fields_v<T>, std::make_index_sequence<field_count_v<T>>{});

/// The descriptor of a static node type.
template <hooked_node T>
inline constexpr TypeInfo type_info_v = [] {
  TypeInfo info;
  info.index = T::type_index;
  info.key = T::type_key;
  if constexpr (!std::is_same_v<T, Object>) {
    info.parent = &type_info_v<typename T::base_type>;
  }
  info.depth = T::type_depth;
  info.ancestors = ancestor_indices_v<T>.data();
  info.is_abstract = T::is_abstract_type;
  info.is_final = std::is_final_v<T>;
  info.is_variable = is_variable_node_v<T>;
  info.fields = std::span<const FieldInfo>(field_infos_v<T>.data(), field_infos_v<T>.size());
  if constexpr (!T::is_abstract_type) {
    info.destroy = &detail::destroy_node<T>;
    info.clone = &detail::clone_node<T>;
  }
  if constexpr (is_variable_node_v<T>) {
    info.variable_name = &detail::variable_name_of<T>;
  }
  if constexpr (requires(const T& node, std::string& out) { T::ctir_repr(node, out); }) {
    info.repr = &detail::short_repr_of<T>;
  }
  info.for_each_child = &detail::for_each_child_of<T>;
  info.walk_children = &detail::for_each_child_of<T, PassThroughVisitor>;
  return info;
}();

/// Registers a static node type (and its ancestors) in the global TypeRegistry, so that the
/// runtime layer finds it by key. make_object<T> does it the first time it creates a T.
template <hooked_node T>
const TypeInfo& register_type() {
  TypeRegistry::global().add(&type_info_v<T>);
  return type_info_v<T>;
}

namespace detail {
/// Registers T once, at T's first creation: never as a side effect of including a header.
template <class T>
void register_on_first_creation() {
  static const bool registered = TypeRegistry::global().add(&type_info_v<T>);
  (void)registered;
}
} // namespace detail

/// A node under construction: mutable, uniquely owned, published by converting to Ref.
template <class T>
class Owned {
public:
  explicit Owned(T* object) noexcept : ptr_(object) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    Owned(std::move(other)).swap(*this);
    return *this;
  }
  ~Owned() {
    if (ptr_ != nullptr) {
      detail::object_access::info(ptr_)->destroy(ptr_);
    }
  }

  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  T* get() const noexcept { return ptr_; }

  /// Publishes the node: from now on it is immutable.
  template <class U>
  requires std::derived_from<T, U>
  operator Ref<U>() && noexcept { return Ref<U>::adopt_new(std::exchange(ptr_, nullptr)); }
  Ref<T> publish() && noexcept { return Ref<T>::adopt_new(std::exchange(ptr_, nullptr)); }

  void swap(Owned& other) noexcept { std::swap(ptr_, other.ptr_); }

private:
  T* ptr_;
};

/// Creates a node of the concrete type T (constructor arguments forwarded).
template <class T, class... Args>
Owned<T> make_object(Args&&... args) {
  // An error here means T is abstract (CTIR_ABSTRACT_NODE): create one of its subclasses.
  static_assert(concrete_node<T>, "ctir::make_object<T>: T must be a concrete node type");
  static_assert(hooked_node<T>);
  detail::register_on_first_creation<T>();
  T* object = new T(std::forward<Args>(args)...);
  detail::object_access::stamp(*object, &type_info_v<T>);
  return Owned<T>(object);
}

/// A default-constructed node of the dynamic type of `model`, for rebuilding it with changes
/// (the caller sets every field). It takes its descriptor from `model`, so that rebuilding a
/// node compiles no type table into the caller, as make_object<T> would.
template <class T>
requires concrete_node<T> && std::is_default_constructible_v<T> Owned<T>
make_object_like(const T& model) {
  if constexpr (!std::is_final_v<T>) {
    if (model.dynamic_type_index() != T::type_index) {
      // A subtype registered at run time: only its clone hook knows how to create one.
      return Owned<T>(static_cast<T*>(model.type_info().clone(model)));
    }
  }
  T* object = new T();
  detail::object_access::stamp(*object, &model.type_info());
  return Owned<T>(object);
}

/// For an abstract T, a layout its subclasses share (BinaryExprNode): a copy of `model`
/// through its descriptor's clone hook, the only place that knows its dynamic type.
template <class T>
requires ir_node<T> && T::is_abstract_type Owned<T> make_object_like(const T& model) {
  return Owned<T>(static_cast<T*>(model.type_info().clone(model)));
}

/// A mutable copy of a node (same dynamic type, count 0), for rebuilding it with changes.
/// Works for types registered at run time through their clone hook.
inline Owned<Object> clone_object(const Object& object) {
  return Owned<Object>(object.type_info().clone(object));
}

/// A mutable copy of a node whose static type is known.
template <class T>
requires concrete_node<T> Owned<T> clone_object(const T& object) {
  if (object.dynamic_type_index() != T::type_index) {
    return Owned<T>(static_cast<T*>(object.type_info().clone(object)));
  }
  return Owned<T>(new T(object));
}

} // namespace ctir
