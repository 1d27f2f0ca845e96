// The operator registry: each graph-level operator's arity, attributes, type relation and kernel.
#pragma once

#include <ctir/core/detail/names.hpp>
#include <ctir/core/error.hpp>
#include <ctir/ir/attrs.hpp>
#include <ctir/ir/tensor_data.hpp>
#include <ctir/ir/type.hpp>
#include <ctir/ir/type_str.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
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
  std::string str() const {
    std::string count = min == 0 && !variadic ? std::string("no") : std::to_string(min);
    return (variadic ? "at least " : "") + count + (min == 1 ? " input" : " inputs");
  }
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
/// Registers the built-in operators into `registry` (defined in ir/ops.hpp).
inline void register_builtin_ops(OpRegistry& registry);
} // namespace ops

namespace detail::op_registry_impl {

/// The candidates close enough to `name` to be what was meant, nearest first.
///
/// Close enough: a small edit distance relative to the length, or the same name in
/// another dotted namespace (`relu` for `nn.relu`).
inline std::vector<std::string> nearest(std::string_view name,
                                        const std::vector<std::string_view>& candidates,
                                        std::size_t max_count = 3) {
  const auto last_segment = [](std::string_view s) {
    const auto dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
  };
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);
  std::vector<std::pair<std::size_t, std::string_view>> scored;
  for (std::string_view candidate : candidates) {
    std::size_t distance = edit_distance(name, candidate);
    if (distance > threshold && last_segment(name) == last_segment(candidate)) {
      distance = threshold; // namespaced twin: worth suggesting, after the close ones
    }
    if (distance <= threshold && candidate != name) {
      scored.emplace_back(distance, candidate);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> result;
  for (std::size_t i = 0; i < scored.size() && i < max_count; ++i) {
    result.emplace_back(scored[i].second);
  }
  return result;
}

/// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
inline std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) {
      out += i + 1 == names.size() ? " or " : ", ";
    }
    out += '\'' + names[i] + '\'';
  }
  return out;
}

/// Whether `name` is identifiers separated by dots, as the text format requires.
inline bool valid_op_name(std::string_view name) {
  bool segment_start = true;
  for (char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (c == '.') {
      if (segment_start) {
        return false;
      }
      segment_start = true;
    } else if (letter || (digit && !segment_start)) {
      segment_start = false;
    } else {
      return false;
    }
  }
  return !segment_start;
}

inline std::string value_str(const AttrValue& value) {
  std::string out;
  print_attr_value(value, out);
  return out;
}

inline std::string article(AttrKind kind) {
  return kind == AttrKind::int_ || kind == AttrKind::int_list ? "an " : "a ";
}

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
  explicit OpDef(std::string op_name) : name(std::move(op_name)) {}

  // Setters return the definition for chaining; on a temporary they return an rvalue so
  // that `OpDef d = OpDef("x").describe(...)` moves rather than dangles.
  OpDef& describe(std::string text) & {
    description = std::move(text);
    return *this;
  }
  OpDef&& describe(std::string text) && { return std::move(describe(std::move(text))); }
  /// Exactly `count` inputs.
  OpDef& set_num_inputs(std::size_t count) & {
    arity = Arity::exactly(count);
    return *this;
  }
  OpDef&& set_num_inputs(std::size_t count) && { return std::move(set_num_inputs(count)); }
  /// At least `min_count` inputs.
  OpDef& set_variadic(std::size_t min_count) & {
    arity = Arity::at_least(min_count);
    return *this;
  }
  OpDef&& set_variadic(std::size_t min_count) && { return std::move(set_variadic(min_count)); }
  /// A required attribute.
  OpDef& add_attr(std::string key, AttrKind kind, std::string text) & {
    attrs.push_back(AttrSpec{std::move(key), kind, std::nullopt, std::move(text), false});
    return *this;
  }
  OpDef&& add_attr(std::string key, AttrKind kind, std::string text) && {
    return std::move(add_attr(std::move(key), kind, std::move(text)));
  }
  /// An attribute with a default value.
  OpDef& add_attr(std::string key, AttrKind kind, AttrValue default_value, std::string text) & {
    attrs.push_back(
        AttrSpec{std::move(key), kind, std::move(default_value), std::move(text), false});
    return *this;
  }
  OpDef&& add_attr(std::string key, AttrKind kind, AttrValue default_value, std::string text) && {
    return std::move(add_attr(std::move(key), kind, std::move(default_value), std::move(text)));
  }
  /// An attribute that may be absent, with no default (the type relation decides).
  OpDef& add_optional_attr(std::string key, AttrKind kind, std::string text) & {
    attrs.push_back(AttrSpec{std::move(key), kind, std::nullopt, std::move(text), true});
    return *this;
  }
  OpDef&& add_optional_attr(std::string key, AttrKind kind, std::string text) && {
    return std::move(add_optional_attr(std::move(key), kind, std::move(text)));
  }
  OpDef& set_type_relation(TypeRelation relation) & {
    type_relation = std::move(relation);
    return *this;
  }
  OpDef&& set_type_relation(TypeRelation relation) && {
    return std::move(set_type_relation(std::move(relation)));
  }
  OpDef& set_kernel(OpKernel fn) & {
    kernel = std::move(fn);
    return *this;
  }
  OpDef&& set_kernel(OpKernel fn) && { return std::move(set_kernel(std::move(fn))); }

  /// Whether a reference kernel is attached.
  bool has_kernel() const noexcept { return static_cast<bool>(kernel); }

  /// The schema entry for `key`, or null.
  const AttrSpec* find_attr(std::string_view key) const noexcept {
    for (const AttrSpec& spec : attrs) {
      if (spec.key == key) {
        return &spec;
      }
    }
    return nullptr;
  }

  /// The attributes with defaults filled in and ints widened where floats are expected.
  ///
  /// Throws ctir::Error for an unknown key (listing the valid keys and the nearest), a
  /// missing required key, or a value of the wrong kind (naming both kinds).
  Attrs normalize_attrs(const Attrs& given) const {
    using namespace detail::op_registry_impl;
    Attrs result;
    for (const auto& [key, value] : given) {
      const AttrSpec* spec = find_attr(key);
      if (spec == nullptr) {
        throw Error(unknown_attr_message(key));
      }
      const AttrKind actual = attr_kind_of(value);
      if (actual == spec->kind) {
        result.set(key, value);
      } else if (spec->kind == AttrKind::float_ && actual == AttrKind::int_) {
        result.set(key, static_cast<double>(std::get<std::int64_t>(value)));
      } else {
        std::string message = "ctir: attribute '" + key + "' of operator '" + name + "' must be " +
                              article(spec->kind) + std::string(to_string(spec->kind)) + ", not " +
                              article(actual) + std::string(to_string(actual)) + " (" +
                              value_str(value) + ")";
        if (spec->kind == AttrKind::int_list && actual == AttrKind::int_) {
          message += "; write [" + value_str(value) + "] for a list of one";
        }
        throw Error(message);
      }
    }
    for (const AttrSpec& spec : attrs) {
      if (result.contains(spec.key)) {
        continue;
      }
      if (spec.default_value) {
        const AttrValue& value = *spec.default_value;
        if (spec.kind == AttrKind::float_ && attr_kind_of(value) == AttrKind::int_) {
          result.set(spec.key, static_cast<double>(std::get<std::int64_t>(value)));
        } else {
          result.set(spec.key, value);
        }
      } else if (spec.required()) {
        throw Error("ctir: operator '" + name + "' requires the attribute '" + spec.key + "' (" +
                    article(spec.kind) + std::string(to_string(spec.kind)) +
                    (spec.description.empty() ? "" : ": " + spec.description) + ")");
      }
    }
    return result;
  }

  /// The output type for these inputs: checks the arity and that every input has a type,
  /// normalizes the attributes, then runs the type relation.
  Type infer_type(const std::vector<Type>& inputs, const Attrs& given = {}) const {
    if (!arity.accepts(inputs.size())) {
      throw Error("ctir: operator '" + name + "' takes " + arity.str() + ", but " +
                  std::to_string(inputs.size()) + (inputs.size() == 1 ? " was" : " were") +
                  " given");
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].defined()) {
        throw Error("ctir: input " + std::to_string(i) + " of operator '" + name +
                    "' has no type (infer the types of its arguments first)");
      }
    }
    const Attrs normalized = normalize_attrs(given);
    if (!type_relation) {
      throw Error("ctir: operator '" + name + "' has no type relation");
    }
    Type result = type_relation(inputs, normalized);
    if (!result.defined()) {
      throw Error("ctir: the type relation of operator '" + name + "' returned no type");
    }
    return result;
  }

private:
  std::string unknown_attr_message(const std::string& key) const {
    using namespace detail::op_registry_impl;
    if (attrs.empty()) {
      return "ctir: operator '" + name + "' takes no attributes, but was given '" + key + "'";
    }
    std::vector<std::string_view> keys;
    std::string listing;
    for (const AttrSpec& spec : attrs) {
      keys.push_back(spec.key);
      listing += (listing.empty() ? "" : ", ") + spec.key;
    }
    const std::vector<std::string> close = nearest(key, keys);
    std::string message = "ctir: operator '" + name + "' has no attribute '" + key + "'";
    if (!close.empty()) {
      message += "; did you mean " + quoted_alternatives(close) + "?";
    }
    return message + " (its attributes: " + listing + ")";
  }
};

/// Every operator that calls may name, by name. Extensible by users at any time;
/// reads are thread-safe against concurrent registration.
///
/// Definitions are never removed, so the pointers and references handed out stay valid
/// for the registry's lifetime. Type relations and kernels run outside the lock: they
/// may consult the registry themselves.
class OpRegistry {
public:
  OpRegistry() = default;
  OpRegistry(const OpRegistry&) = delete;
  OpRegistry& operator=(const OpRegistry&) = delete;

  /// The process-wide registry. It holds the built-in operators (ir/ops.hpp) from the
  /// first call on, so user registrations, even during static initialization, always
  /// come after them; and the built-ins cost code only where the registry is used.
  static OpRegistry& global() {
    static OpRegistry registry{with_builtins_t{}};
    return registry;
  }

  /// Adds an operator. Throws ctir::Error if the name is taken or invalid, the type
  /// relation is missing, or the attribute schema is inconsistent.
  const OpDef& register_op(OpDef def) {
    validate(def);
    std::unique_lock lock(mutex_);
    std::string key = def.name;
    // try_emplace leaves `def` alone when the name is taken.
    auto [it, inserted] = ops_.try_emplace(std::move(key), std::move(def));
    if (!inserted) {
      throw Error("ctir: operator '" + it->first + "' is already registered");
    }
    return it->second;
  }

  /// The operator named `name`, or null.
  const OpDef* find(std::string_view name) const {
    std::shared_lock lock(mutex_);
    auto it = ops_.find(name);
    return it == ops_.end() ? nullptr : &it->second;
  }
  bool contains(std::string_view name) const { return find(name) != nullptr; }

  /// The operator named `name`; throws ctir::Error naming it and the nearest registered
  /// names if there is none.
  const OpDef& get(std::string_view name) const {
    if (const OpDef* def = find(name)) {
      return *def;
    }
    using namespace detail::op_registry_impl;
    std::string message = "ctir: unknown operator '" + std::string(name) + "'";
    const std::vector<std::string> close = nearest_names(name);
    if (!close.empty()) {
      message += "; did you mean " + quoted_alternatives(close) + "?";
    } else {
      message += " (" + std::to_string(size()) + " operators are registered; none is close)";
    }
    throw Error(message);
  }

  /// The registered names, sorted.
  std::vector<std::string> names() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> result;
    result.reserve(ops_.size());
    for (const auto& entry : ops_) {
      result.push_back(entry.first);
    }
    return result;
  }
  std::size_t size() const {
    std::shared_lock lock(mutex_);
    return ops_.size();
  }

  /// Up to `max_count` registered names close to `name` (edit distance), nearest first.
  std::vector<std::string> nearest_names(std::string_view name, std::size_t max_count = 3) const {
    std::shared_lock lock(mutex_);
    std::vector<std::string_view> candidates;
    candidates.reserve(ops_.size());
    for (const auto& entry : ops_) {
      candidates.push_back(entry.first);
    }
    return detail::op_registry_impl::nearest(name, candidates, max_count);
  }

  /// `get(op).normalize_attrs(attrs)`: defaults filled in, unknown keys and wrong kinds
  /// rejected.
  Attrs normalize_attrs(std::string_view op, const Attrs& attrs) const {
    return get(op).normalize_attrs(attrs);
  }

  /// `get(op).infer_type(inputs, attrs)`: the output type of a call of `op`.
  Type infer_type(std::string_view op, const std::vector<Type>& inputs,
                  const Attrs& attrs = {}) const {
    return get(op).infer_type(inputs, attrs);
  }

  /// Attaches (or replaces) the reference kernel of a registered operator.
  ///
  /// Like registration, do this before other threads run the operator's kernel: the
  /// definition is shared, and the kernel slot is not read under the lock.
  void set_kernel(std::string_view op, OpKernel kernel) {
    std::unique_lock lock(mutex_);
    auto it = ops_.find(op);
    if (it == ops_.end()) {
      lock.unlock();
      (void)get(op); // throws with suggestions
      return;
    }
    it->second.kernel = std::move(kernel);
  }

private:
  struct with_builtins_t {};
  explicit OpRegistry(with_builtins_t) { ops::register_builtin_ops(*this); }

  static void validate(const OpDef& def) {
    if (!detail::op_registry_impl::valid_op_name(def.name)) {
      throw Error("ctir: invalid operator name '" + def.name +
                  "' (write identifiers separated by dots, such as 'nn.relu')");
    }
    if (!def.type_relation) {
      throw Error("ctir: operator '" + def.name + "' needs a type relation to be registered");
    }
    for (std::size_t i = 0; i < def.attrs.size(); ++i) {
      const AttrSpec& spec = def.attrs[i];
      if (spec.key.empty()) {
        throw Error("ctir: operator '" + def.name + "' declares an attribute with an empty key");
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (def.attrs[j].key == spec.key) {
          throw Error("ctir: operator '" + def.name + "' declares the attribute '" + spec.key +
                      "' twice");
        }
      }
      if (spec.default_value) {
        const AttrKind actual = attr_kind_of(*spec.default_value);
        const bool widened = spec.kind == AttrKind::float_ && actual == AttrKind::int_;
        if (actual != spec.kind && !widened) {
          throw Error("ctir: the default of attribute '" + spec.key + "' of operator '" + def.name +
                      "' is " + detail::op_registry_impl::article(actual) +
                      std::string(to_string(actual)) + ", but the attribute is " +
                      detail::op_registry_impl::article(spec.kind) +
                      std::string(to_string(spec.kind)));
        }
      }
    }
  }

  mutable std::shared_mutex mutex_;
  /// std::map: nodes never move, so references stay valid across insertions.
  std::map<std::string, OpDef, std::less<>> ops_;
};

namespace detail {
/// Registers a definition into the global registry when constructed (static registration).
struct op_registrar {
  // Implicit on purpose: `static const op_registrar r = OpDef("x")...;`.
  op_registrar(OpDef def) : op(&OpRegistry::global().register_op(std::move(def))) {}
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

// The built-in operators that OpRegistry::global() installs. Last, because ops.hpp
// builds on everything above.
#include <ctir/ir/ops.hpp> // IWYU pragma: export
