// Definitions of <ctir/pass/config.hpp>.
#pragma once

#include <ctir/pass/config.hpp>

#include <ctir/core/detail/names.hpp>

#include <charconv>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace ctir {

namespace detail {
template <class T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (!text.empty() && text.front() == '+') {
    ++first; // from_chars does not take a leading '+'
  }
  auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || first == last) {
    return std::nullopt;
  }
  return value;
}
} // namespace detail

CTIR_INLINE std::optional<bool> config_traits<bool>::parse(std::string_view text) {
  if (text == "true" || text == "1") {
    return true;
  }
  if (text == "false" || text == "0") {
    return false;
  }
  return std::nullopt;
}
CTIR_INLINE std::string config_traits<bool>::print(bool value) { return value ? "true" : "false"; }

CTIR_INLINE std::optional<int> config_traits<int>::parse(std::string_view text) {
  return detail::parse_number<int>(text);
}
CTIR_INLINE std::string config_traits<int>::print(int value) { return std::to_string(value); }

CTIR_INLINE std::optional<std::int64_t> config_traits<std::int64_t>::parse(std::string_view text) {
  return detail::parse_number<std::int64_t>(text);
}
CTIR_INLINE std::string config_traits<std::int64_t>::print(std::int64_t value) {
  return std::to_string(value);
}

CTIR_INLINE std::optional<double> config_traits<double>::parse(std::string_view text) {
  return detail::parse_number<double>(text);
}
CTIR_INLINE std::string config_traits<double>::print(double value) {
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

CTIR_INLINE std::optional<std::string> config_traits<std::string>::parse(std::string_view text) {
  return std::string(text);
}
CTIR_INLINE std::string config_traits<std::string>::print(const std::string& value) {
  return value;
}

CTIR_INLINE ConfigValue::ConfigValue(const char* text) : ConfigValue(std::string(text)) {}
CTIR_INLINE ConfigValue::ConfigValue(std::string_view text) : ConfigValue(std::string(text)) {}

CTIR_INLINE std::string ConfigValue::str() const {
  return type_ ? type_->print(value_.get()) : std::string("none");
}

CTIR_INLINE bool ConfigValue::equals(const ConfigValue& other) const {
  if (type_ != other.type_) {
    return false;
  }
  return type_ == nullptr || type_->equal(value_.get(), other.value_.get());
}

struct PassConfigRegistry::State {
  mutable std::shared_mutex mutex;
  std::map<std::string, std::shared_ptr<const detail::ConfigOption>, std::less<>> options;
};

CTIR_INLINE PassConfigRegistry::PassConfigRegistry() : state_(new State) {
  // The pass infrastructure's own options are there from the registry's first use.
  static_cast<void>(insert(detail::make_config_option<int>(
      pass_num_threads.key, 0,
      "function passes run the functions of a module on this many threads (0: the "
      "hardware's concurrency; 1: one after the other; the output is the same)")));
}

CTIR_INLINE PassConfigRegistry& PassConfigRegistry::global() {
  static PassConfigRegistry* registry = new PassConfigRegistry(); // used during exit too
  return *registry;
}

CTIR_INLINE std::shared_ptr<const detail::ConfigOption>
PassConfigRegistry::find(std::string_view key) const {
  std::shared_lock lock(state_->mutex);
  auto it = state_->options.find(key);
  return it == state_->options.end() ? nullptr : it->second;
}

CTIR_INLINE std::shared_ptr<const detail::ConfigOption>
PassConfigRegistry::lookup(std::string_view key) const {
  std::shared_ptr<const detail::ConfigOption> option = find(key);
  if (!option) {
    const std::vector<std::string> candidates = keys();
    std::string message = "ctir: unknown pass config option '" + std::string(key) + "'" +
                          detail::did_you_mean(detail::nearest_names(key, candidates));
    message += candidates.empty()
                   ? std::string(" (no options are registered; "
                                 "ctir::passes::register_standard_passes() registers the "
                                 "standard passes' options)")
                   : " (registered options: " + detail::quoted_list(candidates) + ")";
    throw ConfigError(message);
  }
  if (!option->conflict.empty()) {
    throw ConfigError(option->conflict);
  }
  return option;
}

CTIR_INLINE ConfigValue PassConfigRegistry::validate(std::string_view key,
                                                     const ConfigValue& value) const {
  std::shared_ptr<const detail::ConfigOption> option = lookup(key);
  if (std::optional<ConfigValue> coerced = option->coerce(value)) {
    return std::move(*coerced);
  }
  throw ConfigError("ctir: pass config option '" + std::string(key) + "' has type " +
                    std::string(option->type->name) + ", but a value of type " +
                    std::string(value.type_name()) + " was given (" + value.str() + ")");
}

CTIR_INLINE ConfigValue PassConfigRegistry::parse(std::string_view key,
                                                  std::string_view text) const {
  std::shared_ptr<const detail::ConfigOption> option = lookup(key);
  if (std::optional<ConfigValue> value = option->parse(text)) {
    return std::move(*value);
  }
  throw ConfigError("ctir: pass config option '" + std::string(key) + "' has type " +
                    std::string(option->type->name) + "; '" + std::string(text) +
                    "' is not a valid " + std::string(option->type->name));
}

CTIR_INLINE std::vector<std::string> PassConfigRegistry::keys() const {
  std::shared_lock lock(state_->mutex);
  std::vector<std::string> result;
  for (const auto& [key, option] : state_->options) {
    result.push_back(key);
  }
  return result;
}

CTIR_INLINE std::vector<ConfigOptionInfo> PassConfigRegistry::list() const {
  std::shared_lock lock(state_->mutex);
  std::vector<ConfigOptionInfo> result;
  for (const auto& [key, option] : state_->options) {
    result.push_back(
        {key, std::string(option->type->name), option->default_value.str(), option->description});
  }
  return result;
}

CTIR_INLINE std::string PassConfigRegistry::insert(detail::ConfigOption option) {
  std::unique_lock lock(state_->mutex);
  auto it = state_->options.find(option.key);
  if (it == state_->options.end()) {
    std::string key = option.key;
    state_->options.emplace(std::move(key),
                            std::make_shared<const detail::ConfigOption>(std::move(option)));
    return {};
  }
  const detail::ConfigOption& existing = *it->second;
  if (existing.type != option.type) {
    return "ctir: pass config option '" + option.key + "' is registered twice, as " +
           std::string(existing.type->name) + " and as " + std::string(option.type->name);
  }
  if (!(existing.default_value == option.default_value)) {
    return "ctir: pass config option '" + option.key +
           "' is registered twice with different defaults (" + existing.default_value.str() +
           " and " + option.default_value.str() + ")";
  }
  return {};
}

CTIR_INLINE void PassConfigRegistry::mark_conflict(std::string_view key, std::string message) {
  std::unique_lock lock(state_->mutex);
  auto it = state_->options.find(key);
  auto marked = std::make_shared<detail::ConfigOption>(*it->second);
  marked->conflict = std::move(message);
  it->second = std::move(marked);
}

CTIR_INLINE std::vector<ConfigOptionInfo> list_configs() {
  return PassConfigRegistry::global().list();
}

} // namespace ctir
