// The operator registry: each graph-level operator's arity, attributes, type relation and kernel.
#pragma once

#include <ctir/core/detail/names.hpp>
#include <ctir/core/error.hpp>
#include <ctir/core/linkage.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ctir {

/// The kind of value an operator attribute holds; the alternatives of AttrValue, in order.
enum class AttrKind : std::uint8_t { bool_, int_, float_, string, int_list };

/// The name of an attribute kind as messages write it: "bool", "int", "float", "string",
/// "int list".
constexpr std::string_view to_string(AttrKind kind) noexcept {
  switch (kind) {
  case AttrKind::bool_:
    return "bool";
  case AttrKind::int_:
    return "int";
  case AttrKind::float_:
    return "float";
  case AttrKind::string:
    return "string";
  case AttrKind::int_list:
    return "int list";
  }
  return "?";
}

/// The kind of an attribute value.
inline AttrKind attr_kind_of(const AttrValue& value) noexcept {
  return static_cast<AttrKind>(value.index());
}

/// One entry of an operator's attribute schema.
struct AttrSpec {
  std::string key;
  AttrKind kind = AttrKind::int_;
  /// Filled in by normalization when the attribute is absent. Without one the attribute
  /// is required, unless `optional` is set.
  std::optional<AttrValue> default_value;
  std::string description;
  /// Absent is allowed and has no default: the operator decides what absence means
  /// (transpose without `axes` reverses the axes).
  bool optional = false;

  /// Whether every call must give this attribute.
  bool required() const noexcept { return !default_value.has_value() && !optional; }
};

/// How many inputs an operator takes: exactly `min`, or at least `min` when variadic.
struct Arity {
  std::size_t min = 0;
  bool variadic = false;

  static constexpr Arity exactly(std::size_t count) noexcept { return {count, false}; }
  static constexpr Arity at_least(std::size_t count) noexcept { return {count, true}; }
  constexpr bool accepts(std::size_t count) const noexcept {
    return variadic ? count >= min : count == min;
  }
  /// "2 inputs", "no inputs", "at least 1 input".
  std::string str() const;
  friend constexpr bool operator==(Arity, Arity) noexcept = default;
};

/// The output type of an operator from its input types and (normalized) attributes.
///
/// Throws ctir::Error naming the operator and the offending types when the inputs do
/// not fit. Inputs are never null when called through OpDef::infer_type.
using TypeRelation = std::function<Type(const std::vector<Type>& inputs, const Attrs& attrs)>;

/// A reference implementation of an operator on dense tensors.
using OpKernel =
    std::function<TensorData(const std::vector<TensorData>& inputs, const Attrs& attrs)>;

class OpRegistry;
namespace ops {
/// Registers the built-in operators into `registry` (see ir/ops.hpp).
void register_builtin_ops(OpRegistry& registry);
} // namespace ops

namespace detail::op_registry_impl {

/// The candidates close enough to `name` to be what was meant, nearest first.
///
/// Close enough: a small edit distance relative to the length, or the same name in
/// another dotted namespace (`relu` for `nn.relu`).
std::vector<std::string> nearest(std::string_view name,
                                 const std::vector<std::string_view>& candidates,
                                 std::size_t max_count = 3);

/// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
using detail::quoted_alternatives;

} // namespace detail::op_registry_impl

/// The definition of an operator: what it is called, what it takes and what it returns.
///
/// Built fluently and then registered:
///
///     OpRegistry::global().register_op(
///         OpDef("my.scale")
///             .describe("multiplies a tensor by a constant factor")
///             .set_num_inputs(1)
///             .add_attr("factor", AttrKind::float_, 1.0, "the factor")
///             .set_type_relation([](const std::vector<Type>& in, const Attrs&) { return in[0];
///             }));
struct OpDef {
  /// The operator's name as calls write it; dotted namespaces are allowed (`nn.relu`).
  std::string name;
  std::string description;
  Arity arity;
  /// The attribute schema, in declaration order.
  std::vector<AttrSpec> attrs;
  TypeRelation type_relation;
  /// The reference kernel; empty until one is attached.
  OpKernel kernel;

  OpDef() = default;
  explicit OpDef(std::string op_name);

  // Setters return the definition for chaining; on a temporary they return an rvalue so
  // that `OpDef d = OpDef("x").describe(...)` moves rather than dangles.
  OpDef& describe(std::string text) &;
  OpDef&& describe(std::string text) &&;
  /// Exactly `count` inputs.
  OpDef& set_num_inputs(std::size_t count) &;
  OpDef&& set_num_inputs(std::size_t count) &&;
  /// At least `min_count` inputs.
  OpDef& set_variadic(std::size_t min_count) &;
  OpDef&& set_variadic(std::size_t min_count) &&;
  /// A required attribute.
  OpDef& add_attr(std::string key, AttrKind kind, std::string text) &;
  OpDef&& add_attr(std::string key, AttrKind kind, std::string text) &&;
  /// An attribute with a default value.
  OpDef& add_attr(std::string key, AttrKind kind, AttrValue default_value, std::string text) &;
  OpDef&& add_attr(std::string key, AttrKind kind, AttrValue default_value, std::string text) &&;
  /// An attribute that may be absent, with no default (the type relation decides).
  OpDef& add_optional_attr(std::string key, AttrKind kind, std::string text) &;
  OpDef&& add_optional_attr(std::string key, AttrKind kind, std::string text) &&;
  OpDef& set_type_relation(TypeRelation relation) &;
  OpDef&& set_type_relation(TypeRelation relation) &&;
  OpDef& set_kernel(OpKernel fn) &;
  OpDef&& set_kernel(OpKernel fn) &&;

  /// Whether a reference kernel is attached.
  bool has_kernel() const noexcept { return static_cast<bool>(kernel); }

  /// The schema entry for `key`, or null.
  const AttrSpec* find_attr(std::string_view key) const noexcept;

  /// Throws ctir::Error for an unknown key (listing the valid keys and the nearest), a
  /// missing required key, or a value of the wrong kind (naming both kinds); builds
  /// nothing, so a verifier can check a call's attributes without allocating.
  void check_attrs(const Attrs& given) const;
  /// The attributes with defaults filled in and ints widened where floats are expected;
  /// throws what check_attrs throws.
  Attrs normalize_attrs(const Attrs& given) const;

  /// The output type for these inputs: checks the arity and that every input has a type,
  /// normalizes the attributes, then runs the type relation.
  Type infer_type(const std::vector<Type>& inputs, const Attrs& given = {}) const;

private:
  std::string unknown_attr_message(const std::string& key) const;
};

/// Every operator that calls may name, by name. Extensible by users at any time;
/// reads are thread-safe against concurrent registration.
///
/// Definitions are never removed, so the pointers and references handed out stay valid
/// for the registry's lifetime. Type relations and kernels run outside the lock: they
/// may consult the registry themselves.
class OpRegistry {
public:
  OpRegistry();
  ~OpRegistry();
  OpRegistry(const OpRegistry&) = delete;
  OpRegistry& operator=(const OpRegistry&) = delete;

  /// The process-wide registry. It holds the built-in operators (ir/ops.hpp) from the
  /// first call on, so user registrations, even during static initialization, always
  /// come after them; and the built-ins cost code only where the registry is used.
  static OpRegistry& global();

  /// Adds an operator. Throws ctir::Error if the name is taken or invalid, the type
  /// relation is missing, or the attribute schema is inconsistent.
  const OpDef& register_op(OpDef def);

  /// The operator named `name`, or null.
  const OpDef* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }

  /// The operator named `name`; throws ctir::Error naming it and the nearest registered
  /// names if there is none.
  const OpDef& get(std::string_view name) const;

  /// The registered names, sorted.
  std::vector<std::string> names() const;
  std::size_t size() const;

  /// Up to `max_count` registered names close to `name` (edit distance), nearest first.
  std::vector<std::string> nearest_names(std::string_view name, std::size_t max_count = 3) const;

  /// `get(op).normalize_attrs(attrs)`: defaults filled in, unknown keys and wrong kinds
  /// rejected.
  Attrs normalize_attrs(std::string_view op, const Attrs& attrs) const;

  /// `get(op).infer_type(inputs, attrs)`: the output type of a call of `op`.
  Type infer_type(std::string_view op, const std::vector<Type>& inputs,
                  const Attrs& attrs = {}) const;

  /// Attaches (or replaces) the reference kernel of a registered operator.
  ///
  /// Like registration, do this before other threads run the operator's kernel: the
  /// definition is shared, and the kernel slot is not read under the lock.
  void set_kernel(std::string_view op, OpKernel kernel);

private:
  struct with_builtins_t {};
  explicit OpRegistry(with_builtins_t);
  static void validate(const OpDef& def);

  /// The operators and their lock (defined in op_registry-inl.hpp).
  struct State;
  State* state_;
};

namespace detail {
/// Registers a definition into the global registry when constructed (static registration).
struct op_registrar {
  // Implicit on purpose: `static const op_registrar r = OpDef("x")...;`.
  op_registrar(OpDef def);
  const OpDef* op;
};
} // namespace detail

} // namespace ctir

#define CTIR_DETAIL_OP_CONCAT_IMPL(a, b) a##b
#define CTIR_DETAIL_OP_CONCAT(a, b) CTIR_DETAIL_OP_CONCAT_IMPL(a, b)

/// Registers an operator into the global registry during static initialization, at
/// namespace scope in a source file; chain the OpDef setters after it:
///
///     CTIR_REGISTER_OP("my.scale")
///         .describe("multiplies a tensor by a constant factor")
///         .set_num_inputs(1)
///         .add_attr("factor", AttrKind::float_, 1.0, "the factor")
///         .set_type_relation(...);
///
/// Each expansion registers once per translation unit that contains it: keep it out of
/// headers (there, use an `inline const bool` initialized by `register_op`).
#define CTIR_REGISTER_OP(op_name)                                                                  \
  [[maybe_unused]] static const ::ctir::detail::op_registrar CTIR_DETAIL_OP_CONCAT(                \
      ctir_op_registrar_, __COUNTER__) = ::ctir::OpDef(op_name)

// The built-in operators that OpRegistry::global() installs, and the helpers for writing
// type relations. Last, because ops.hpp builds on everything above.
#include <ctir/ir/ops.hpp> // IWYU pragma: export

#ifdef CTIR_HEADER_ONLY
#include <ctir/ir/op_registry-inl.hpp>
#endif
