// Typed pass configuration: keys registered once with a type and a default, values checked on set.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// How a configuration value type is named, parsed from text and printed.
///
/// Specialise it for your own types (a `name`, `parse` returning std::nullopt on bad
/// text, and `print`) to use them as config values and as pass options.
template <class T>
struct config_traits;

template <>
struct config_traits<bool> {
  static constexpr std::string_view name = "bool";
  static std::optional<bool> parse(std::string_view text);
  static std::string print(bool value);
};

template <>
struct config_traits<int> {
  static constexpr std::string_view name = "int";
  static std::optional<int> parse(std::string_view text);
  static std::string print(int value);
};

template <>
struct config_traits<std::int64_t> {
  static constexpr std::string_view name = "int64";
  static std::optional<std::int64_t> parse(std::string_view text);
  static std::string print(std::int64_t value);
};

template <>
struct config_traits<double> {
  static constexpr std::string_view name = "double";
  static std::optional<double> parse(std::string_view text);
  static std::string print(double value);
};

template <>
struct config_traits<std::string> {
  static constexpr std::string_view name = "string";
  static std::optional<std::string> parse(std::string_view text);
  static std::string print(const std::string& value);
};

/// A type usable as a config value or pass option: copyable, comparable, with config_traits.
template <class T>
concept config_value_type = requires(std::string_view text, const T& value) {
  { config_traits<T>::name } -> std::convertible_to<std::string_view>;
  { config_traits<T>::parse(text) } -> std::same_as<std::optional<T>>;
  { config_traits<T>::print(value) } -> std::same_as<std::string>;
}
&&std::copy_constructible<T>&& std::equality_comparable<T>;

namespace detail {

/// The operations of one config value type, erased (one instance per type).
struct config_type {
  std::string_view name;
  std::string (*print)(const void*);
  bool (*equal)(const void*, const void*);
  /// Reads an integral (non-bool) value as int64; false for other types.
  bool (*to_int64)(const void*, std::int64_t&);
  /// Reads an arithmetic (non-bool) value as double; false for other types.
  bool (*to_double)(const void*, double&);
};

template <class T>
inline constexpr config_type config_type_of = {
    config_traits<T>::name,
    [](const void* p) { return config_traits<T>::print(*static_cast<const T*>(p)); },
    [](const void* a, const void* b) {
      return *static_cast<const T*>(a) == *static_cast<const T*>(b);
    },
    [](const void* p, std::int64_t& out) {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (std::in_range<std::int64_t>(*static_cast<const T*>(p))) {
          out = static_cast<std::int64_t>(*static_cast<const T*>(p));
          return true;
        }
      }
      static_cast<void>(p);
      static_cast<void>(out);
      return false;
    },
    [](const void* p, double& out) {
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        out = static_cast<double>(*static_cast<const T*>(p));
        return true;
      } else {
        static_cast<void>(p);
        static_cast<void>(out);
        return false;
      }
    },
};

} // namespace detail

/// A configuration value of any config_value_type (bool, int, int64, double, string, ...).
///
/// Immutable; copies share the stored value.
class ConfigValue {
public:
  /// No value.
  ConfigValue() noexcept = default;
  template <class T>
  requires(!std::same_as<std::decay_t<T>, ConfigValue> && config_value_type<std::decay_t<T>>)
      ConfigValue(T&& value) // NOLINT(google-explicit-constructor): `{"key", 4}` must work
      : type_(&detail::config_type_of<std::decay_t<T>>),
        value_(std::make_shared<const std::decay_t<T>>(std::forward<T>(value))) {}
  /// Text is a string value.
  ConfigValue(const char* text);
  ConfigValue(std::string_view text);

  bool has_value() const noexcept { return type_ != nullptr; }
  /// The name of the value's type ("int", "string", ...), or "none".
  std::string_view type_name() const noexcept { return type_ ? type_->name : "none"; }
  /// Whether the value is a T.
  template <class T>
  bool holds() const noexcept {
    return type_ == &detail::config_type_of<T>;
  }
  /// The value as a T; throws ConfigError naming both types if it is not a T.
  template <config_value_type T>
  const T& get() const {
    if (!holds<T>()) {
      throw ConfigError("ctir: a config value of type " + std::string(type_name()) +
                        " was read as " + std::string(config_traits<T>::name));
    }
    return *static_cast<const T*>(value_.get());
  }
  /// The value printed as text (what parsing would read back).
  std::string str() const;

  const detail::config_type* type() const noexcept { return type_; }
  const void* data() const noexcept { return value_.get(); }

  friend bool operator==(const ConfigValue& a, const ConfigValue& b) { return a.equals(b); }

private:
  bool equals(const ConfigValue& other) const;

  const detail::config_type* type_ = nullptr;
  std::shared_ptr<const void> value_;
};

/// `value` as a T when it is a T or converts without loss (an integer to a wider integer
/// type or to a floating-point type); std::nullopt otherwise.
template <config_value_type T>
std::optional<T> convert_config_value(const ConfigValue& value) {
  if (value.holds<T>()) {
    return value.get<T>();
  }
  if (!value.has_value()) {
    return std::nullopt;
  }
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    std::int64_t number = 0;
    if (value.type()->to_int64(value.data(), number) && std::in_range<T>(number)) {
      return static_cast<T>(number);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    std::int64_t number = 0;
    if (value.type()->to_int64(value.data(), number)) {
      return static_cast<T>(number);
    }
    double real = 0;
    if (value.type()->to_double(value.data(), real)) {
      return static_cast<T>(real);
    }
  }
  return std::nullopt;
}

/// A registered configuration key whose value type is T: `ctx.config(key)` returns a T.
template <class T>
struct ConfigKey {
  std::string_view key;
};

/// The number of threads a function pass may run functions on (`pass.num_threads`, an int,
/// registered with the registry itself): 0, the default, stands for the hardware's
/// concurrency, 1 runs the functions one after the other on the calling thread.
inline constexpr ConfigKey<int> pass_num_threads{"pass.num_threads"};

/// One registered option, as `list_configs()` reports it.
struct ConfigOptionInfo {
  std::string key;
  std::string type;
  std::string default_value;
  std::string description;
};

namespace detail {

/// A registered option: its type, default, and how to turn text or another value into it.
struct ConfigOption {
  std::string key;
  const config_type* type = nullptr;
  ConfigValue default_value;
  std::string description;
  std::optional<ConfigValue> (*parse)(std::string_view) = nullptr;
  std::optional<ConfigValue> (*coerce)(const ConfigValue&) = nullptr;
  /// Set when the key was registered twice, differently, during static initialisation;
  /// every use of the key then throws this message.
  std::string conflict;
};

template <config_value_type T>
ConfigOption make_config_option(std::string_view key, T default_value,
                                std::string_view description) {
  ConfigOption option;
  option.key = std::string(key);
  option.type = &config_type_of<T>;
  option.default_value = ConfigValue(std::move(default_value));
  option.description = std::string(description);
  option.parse = [](std::string_view text) -> std::optional<ConfigValue> {
    if (std::optional<T> value = config_traits<T>::parse(text)) {
      return ConfigValue(std::move(*value));
    }
    return std::nullopt;
  };
  option.coerce = [](const ConfigValue& value) -> std::optional<ConfigValue> {
    if (value.holds<T>()) {
      return value;
    }
    if (std::optional<T> converted = convert_config_value<T>(value)) {
      return ConfigValue(std::move(*converted));
    }
    return std::nullopt;
  };
  return option;
}

} // namespace detail

/// The process-wide table of pass configuration keys.
class PassConfigRegistry {
public:
  static PassConfigRegistry& global();

  /// Registers `key` with type T and a default; registering the same key again with the
  /// same type and default is a no-op, anything else throws ConfigError.
  template <config_value_type T>
  ConfigKey<T> add(std::string_view key, T default_value, std::string_view description = {}) {
    if (std::string message =
            insert(detail::make_config_option<T>(key, std::move(default_value), description));
        !message.empty()) {
      throw ConfigError(message);
    }
    return ConfigKey<T>{intern_name(key)};
  }

  /// As `add`, for registration during static initialisation, where throwing would end the
  /// program: a conflicting registration is recorded and reported when the key is used.
  template <config_value_type T>
  ConfigKey<T> add_static(std::string_view key, T default_value,
                          std::string_view description = {}) noexcept {
    try {
      if (std::string message =
              insert(detail::make_config_option<T>(key, std::move(default_value), description));
          !message.empty()) {
        mark_conflict(key, std::move(message));
      }
      return ConfigKey<T>{intern_name(key)};
    } catch (...) {
      return ConfigKey<T>{}; // out of memory during static initialisation
    }
  }

  /// The option registered as `key`, or null.
  std::shared_ptr<const detail::ConfigOption> find(std::string_view key) const;

  /// The option registered as `key`; throws ConfigError, listing the registered keys and
  /// the nearest ones, if there is none.
  std::shared_ptr<const detail::ConfigOption> lookup(std::string_view key) const;

  /// `value` checked (and losslessly converted) for `key`; throws ConfigError naming the
  /// option's type and the value's type when they do not fit.
  ConfigValue validate(std::string_view key, const ConfigValue& value) const;

  /// The value of `key` parsed from `text` (a command line); throws ConfigError when the
  /// key is unknown or the text is not a value of the key's type.
  ConfigValue parse(std::string_view key, std::string_view text) const;

  /// Every registered key, sorted.
  std::vector<std::string> keys() const;

  /// Every registered option with its type, default and description, sorted by key.
  std::vector<ConfigOptionInfo> list() const;

  PassConfigRegistry(const PassConfigRegistry&) = delete;
  PassConfigRegistry& operator=(const PassConfigRegistry&) = delete;

private:
  struct State;
  PassConfigRegistry();

  /// Inserts `option`; returns an error message when the key exists with another type or
  /// default (an identical registration is accepted: headers register in every TU).
  std::string insert(detail::ConfigOption option);
  /// Marks the registered `key` as conflicting: every use of it then throws `message`.
  void mark_conflict(std::string_view key, std::string message);

  State* state_; // never freed: the registry is used during exit too
};

/// Registers a pass configuration key at run time (see CTIR_REGISTER_PASS_CONFIG_OPTION).
template <config_value_type T>
ConfigKey<T> register_pass_config_option(std::string_view key, T default_value,
                                         std::string_view description = {}) {
  return PassConfigRegistry::global().add<T>(key, std::move(default_value), description);
}

/// Every registered configuration key with its type, default and description, by key.
std::vector<ConfigOptionInfo> list_configs();

namespace detail {
template <class T, class D>
ConfigKey<T> register_static_config_option(std::string_view key, D&& default_value,
                                           std::string_view description = {}) noexcept {
  static_assert(config_value_type<T>,
                "CTIR_REGISTER_PASS_CONFIG_OPTION: the type needs ctir::config_traits (built in: "
                "bool, int, std::int64_t, double, std::string)");
  return PassConfigRegistry::global().add_static<T>(key, T(std::forward<D>(default_value)),
                                                    description);
}
} // namespace detail
} // namespace ctir

#define CTIR_DETAIL_PASS_CAT2(a, b) a##b
#define CTIR_DETAIL_PASS_CAT(a, b) CTIR_DETAIL_PASS_CAT2(a, b)

/// Registers a pass configuration key of type `Type` with a default (and optionally a
/// description) during static initialisation, at namespace scope in a program's source file:
///
///     CTIR_REGISTER_PASS_CONFIG_OPTION("tensor.UnrollLoop.max_extent", int, 0,
///                                      "unroll loops up to this many iterations");
///
/// Identical registrations from several files are merged. Not in a header: every file
/// including it would run code before main (`register_pass_config_option` registers
/// explicitly).
#define CTIR_REGISTER_PASS_CONFIG_OPTION(Key, Type, ...)                                           \
  [[maybe_unused]] static const ::ctir::ConfigKey<Type> CTIR_DETAIL_PASS_CAT(                      \
      ctir_pass_config_option_, __COUNTER__) =                                                     \
      ::ctir::detail::register_static_config_option<Type>(Key, __VA_ARGS__)

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/config-inl.hpp>
#endif
