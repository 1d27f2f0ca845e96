// Definitions of <ctir/ir/op_registry.hpp>.
#pragma once

#include <ctir/ir/op_registry.hpp>

#include <ctir/core/type_info.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>

namespace ctir {

CTIR_INLINE std::string Arity::str() const {
  std::string count = min == 0 && !variadic ? std::string("no") : std::to_string(min);
  return (variadic ? "at least " : "") + count + (min == 1 ? " input" : " inputs");
}

namespace detail::op_registry_impl {

CTIR_INLINE std::vector<std::string> nearest(std::string_view name,
                                             const std::vector<std::string_view>& candidates,
                                             std::size_t max_count) {
  NameRanking ranking;
  ranking.threshold_divisor = 3;
  ranking.namespaced_twins = true;
  ranking.within_one_of_best = false;
  ranking.exclude_exact = true;
  return rank_names(name, candidates, max_count, ranking);
}

/// Whether `name` is identifiers separated by dots, as the text format requires.
CTIR_INLINE bool valid_op_name(std::string_view name) {
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

CTIR_INLINE std::string value_str(const AttrValue& value) {
  std::string out;
  print_attr_value(value, out);
  return out;
}

CTIR_INLINE std::string article(AttrKind kind) {
  return kind == AttrKind::int_ || kind == AttrKind::int_list ? "an " : "a ";
}

} // namespace detail::op_registry_impl

CTIR_INLINE OpDef::OpDef(std::string op_name) : name(std::move(op_name)) {}

CTIR_INLINE OpDef& OpDef::describe(std::string text) & {
  description = std::move(text);
  return *this;
}
CTIR_INLINE OpDef&& OpDef::describe(std::string text) && {
  return std::move(describe(std::move(text)));
}

CTIR_INLINE OpDef& OpDef::set_num_inputs(std::size_t count) & {
  arity = Arity::exactly(count);
  return *this;
}
CTIR_INLINE OpDef&& OpDef::set_num_inputs(std::size_t count) && {
  return std::move(set_num_inputs(count));
}

CTIR_INLINE OpDef& OpDef::set_variadic(std::size_t min_count) & {
  arity = Arity::at_least(min_count);
  return *this;
}
CTIR_INLINE OpDef&& OpDef::set_variadic(std::size_t min_count) && {
  return std::move(set_variadic(min_count));
}

CTIR_INLINE OpDef& OpDef::add_attr(std::string key, AttrKind kind, std::string text) & {
  attrs.push_back(AttrSpec{std::move(key), kind, std::nullopt, std::move(text), false});
  return *this;
}
CTIR_INLINE OpDef&& OpDef::add_attr(std::string key, AttrKind kind, std::string text) && {
  return std::move(add_attr(std::move(key), kind, std::move(text)));
}

CTIR_INLINE OpDef& OpDef::add_attr(std::string key, AttrKind kind, AttrValue default_value,
                                   std::string text) & {
  attrs.push_back(AttrSpec{std::move(key), kind, std::move(default_value), std::move(text), false});
  return *this;
}
CTIR_INLINE OpDef&& OpDef::add_attr(std::string key, AttrKind kind, AttrValue default_value,
                                    std::string text) && {
  return std::move(add_attr(std::move(key), kind, std::move(default_value), std::move(text)));
}

CTIR_INLINE OpDef& OpDef::add_optional_attr(std::string key, AttrKind kind, std::string text) & {
  attrs.push_back(AttrSpec{std::move(key), kind, std::nullopt, std::move(text), true});
  return *this;
}
CTIR_INLINE OpDef&& OpDef::add_optional_attr(std::string key, AttrKind kind, std::string text) && {
  return std::move(add_optional_attr(std::move(key), kind, std::move(text)));
}

CTIR_INLINE OpDef& OpDef::set_type_relation(TypeRelation relation) & {
  type_relation = std::move(relation);
  return *this;
}
CTIR_INLINE OpDef&& OpDef::set_type_relation(TypeRelation relation) && {
  return std::move(set_type_relation(std::move(relation)));
}

CTIR_INLINE OpDef& OpDef::set_kernel(OpKernel fn) & {
  kernel = std::move(fn);
  return *this;
}
CTIR_INLINE OpDef&& OpDef::set_kernel(OpKernel fn) && {
  return std::move(set_kernel(std::move(fn)));
}

CTIR_INLINE const AttrSpec* OpDef::find_attr(std::string_view key) const noexcept {
  for (const AttrSpec& spec : attrs) {
    if (spec.key == key) {
      return &spec;
    }
  }
  return nullptr;
}

CTIR_INLINE void OpDef::check_attrs(const Attrs& given) const {
  using namespace detail::op_registry_impl;
  for (const auto& [key, value] : given) {
    const AttrSpec* spec = find_attr(key);
    if (spec == nullptr) {
      throw Error(unknown_attr_message(key));
    }
    const AttrKind actual = attr_kind_of(value);
    if (actual != spec->kind && !(spec->kind == AttrKind::float_ && actual == AttrKind::int_)) {
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
    if (!spec.default_value && spec.required() && !given.contains(spec.key)) {
      throw Error("ctir: operator '" + name + "' requires the attribute '" + spec.key + "' (" +
                  article(spec.kind) + std::string(to_string(spec.kind)) +
                  (spec.description.empty() ? "" : ": " + spec.description) + ")");
    }
  }
}

CTIR_INLINE Attrs OpDef::normalize_attrs(const Attrs& given) const {
  using namespace detail::op_registry_impl;
  check_attrs(given);
  Attrs result;
  for (const auto& [key, value] : given) {
    if (find_attr(key)->kind == AttrKind::float_ && attr_kind_of(value) == AttrKind::int_) {
      result.set(key, static_cast<double>(std::get<std::int64_t>(value)));
    } else {
      result.set(key, value);
    }
  }
  for (const AttrSpec& spec : attrs) {
    if (spec.default_value && !result.contains(spec.key)) {
      const AttrValue& value = *spec.default_value;
      if (spec.kind == AttrKind::float_ && attr_kind_of(value) == AttrKind::int_) {
        result.set(spec.key, static_cast<double>(std::get<std::int64_t>(value)));
      } else {
        result.set(spec.key, value);
      }
    }
  }
  return result;
}

CTIR_INLINE Type OpDef::infer_type(const std::vector<Type>& inputs, const Attrs& given) const {
  if (!arity.accepts(inputs.size())) {
    throw Error("ctir: operator '" + name + "' takes " + arity.str() + ", but " +
                std::to_string(inputs.size()) + (inputs.size() == 1 ? " was" : " were") + " given");
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

CTIR_INLINE std::string OpDef::unknown_attr_message(const std::string& key) const {
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

struct OpRegistry::State {
  mutable std::shared_mutex mutex;
  /// std::map: nodes never move, so references stay valid across insertions.
  std::map<std::string, OpDef, std::less<>> ops;
  /// This registry's number, never reused by another registry of the process (0 is none),
  /// so that a thread's cache of lookups cannot answer for a registry since destroyed.
  std::uint64_t id = next_id();

  static std::uint64_t next_id() noexcept {
    static std::atomic<std::uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }
};

namespace detail::op_registry_impl {

/// A thread's recent successful lookups, by a hash of the name: passes and the parser look
/// up an operator per call they meet, and the registry's lock and ordered map cost a few
/// hundred instructions a time. A definition is never removed or renamed, so a hit is
/// always right; a name not found is not cached, since it may be registered later.
struct lookup_cache {
  struct slot {
    std::uint64_t registry = 0;
    const OpDef* def = nullptr;
  };
  static constexpr std::size_t size = 64;
  std::array<slot, size> slots{};

  static std::size_t position(std::string_view name) noexcept {
    const std::uint32_t hash = detail::fnv1a32(name); // the type keys' hash
    return (hash ^ (hash >> 16)) % size;
  }
};

/// The calling thread's cache (trivially constructed: no guard on access).
inline lookup_cache& thread_lookup_cache() noexcept {
  static thread_local lookup_cache cache;
  return cache;
}

} // namespace detail::op_registry_impl

CTIR_INLINE OpRegistry::OpRegistry() : state_(new State) {}

CTIR_INLINE OpRegistry::OpRegistry(with_builtins_t) : OpRegistry() {
  ops::register_builtin_ops(*this);
}

CTIR_INLINE OpRegistry::~OpRegistry() { delete state_; }

CTIR_INLINE OpRegistry& OpRegistry::global() {
  static OpRegistry registry{with_builtins_t{}};
  return registry;
}

CTIR_INLINE const OpDef& OpRegistry::register_op(OpDef def) {
  validate(def);
  std::unique_lock lock(state_->mutex);
  std::string key = def.name;
  // try_emplace leaves `def` alone when the name is taken.
  auto [it, inserted] = state_->ops.try_emplace(std::move(key), std::move(def));
  if (!inserted) {
    throw Error("ctir: operator '" + it->first + "' is already registered");
  }
  return it->second;
}

CTIR_INLINE const OpDef* OpRegistry::find(std::string_view name) const {
  auto& slot = detail::op_registry_impl::thread_lookup_cache()
                   .slots[detail::op_registry_impl::lookup_cache::position(name)];
  if (slot.registry == state_->id && slot.def->name == name) {
    return slot.def;
  }
  const OpDef* def = nullptr;
  {
    std::shared_lock lock(state_->mutex);
    if (auto it = state_->ops.find(name); it != state_->ops.end()) {
      def = &it->second;
    }
  }
  if (def != nullptr) {
    slot.registry = state_->id;
    slot.def = def;
  }
  return def;
}

CTIR_INLINE const OpDef& OpRegistry::get(std::string_view name) const {
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

CTIR_INLINE std::vector<std::string> OpRegistry::names() const {
  std::shared_lock lock(state_->mutex);
  std::vector<std::string> result;
  result.reserve(state_->ops.size());
  for (const auto& entry : state_->ops) {
    result.push_back(entry.first);
  }
  return result;
}

CTIR_INLINE std::size_t OpRegistry::size() const {
  std::shared_lock lock(state_->mutex);
  return state_->ops.size();
}

CTIR_INLINE std::vector<std::string> OpRegistry::nearest_names(std::string_view name,
                                                               std::size_t max_count) const {
  std::shared_lock lock(state_->mutex);
  std::vector<std::string_view> candidates;
  candidates.reserve(state_->ops.size());
  for (const auto& entry : state_->ops) {
    candidates.push_back(entry.first);
  }
  return detail::op_registry_impl::nearest(name, candidates, max_count);
}

CTIR_INLINE Attrs OpRegistry::normalize_attrs(std::string_view op, const Attrs& attrs) const {
  return get(op).normalize_attrs(attrs);
}

CTIR_INLINE Type OpRegistry::infer_type(std::string_view op, const std::vector<Type>& inputs,
                                        const Attrs& attrs) const {
  return get(op).infer_type(inputs, attrs);
}

CTIR_INLINE void OpRegistry::set_kernel(std::string_view op, OpKernel kernel) {
  std::unique_lock lock(state_->mutex);
  auto it = state_->ops.find(op);
  if (it == state_->ops.end()) {
    lock.unlock();
    (void)get(op); // throws with suggestions
    return;
  }
  it->second.kernel = std::move(kernel);
}

CTIR_INLINE void OpRegistry::validate(const OpDef& def) {
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

namespace detail {
CTIR_INLINE op_registrar::op_registrar(OpDef def)
    : op(&OpRegistry::global().register_op(std::move(def))) {}
} // namespace detail

} // namespace ctir
