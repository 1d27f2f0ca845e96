// Pass options: named, typed members of a pass class, settable from text (pipeline strings).
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/error.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir {

/// One option of pass class T: a name, the member it sets, a description.
template <class T, class V>
struct PassOption {
  using pass_type = T;
  using value_type = V;
  std::string_view name;
  V T::*member;
  std::string_view description;
};

/// Declares an option; a pass lists its options in a static member function:
///
///     struct UnrollLoop {
///       int max_extent = 0;
///       static constexpr auto pass_options() {
///         return std::tuple{ctir::pass_option("max_extent", &UnrollLoop::max_extent,
///                                             "unroll loops of at most this many iterations")};
///       }
///       ...
///     };
///
/// In a pipeline string: `UnrollLoop{max_extent=4}`.
template <class T, class V>
constexpr PassOption<T, V> pass_option(std::string_view name, V T::*member,
                                       std::string_view description = {}) {
  // An error here means the option's type has no ctir::config_traits (bool, int,
  // std::int64_t, double and std::string are built in).
  static_assert(config_value_type<V>,
                "ctir::pass_option: the member's type needs ctir::config_traits");
  return {name, member, description};
}

/// A pass class that declares options.
template <class T>
concept has_pass_options = requires {
  std::tuple_size<decltype(T::pass_options())>::value;
};

/// An option value given as text (`max_extent=4`).
struct PassOptionValue {
  std::string name;
  std::string value;
  friend bool operator==(const PassOptionValue&, const PassOptionValue&) = default;
};
using PassOptionValues = std::vector<PassOptionValue>;

/// An option as a listing shows it.
struct PassOptionInfo {
  std::string name;
  std::string type;
  std::string default_value;
  std::string description;
};

namespace detail {

/// Throws the PipelineError for `text` that is not a value of option `name`'s `type`.
[[noreturn]] void throw_bad_pass_option_value(std::string_view pass_name, std::string_view name,
                                              std::string_view type, std::string_view text);

/// Throws the PipelineError for an option `name` that pass `pass_name` does not have,
/// suggesting the nearest of its option `names`.
[[noreturn]] void throw_unknown_pass_option(std::string_view pass_name, std::string_view name,
                                            const std::vector<std::string>& names);

} // namespace detail

/// The options of pass class T (name, type, default as in `T{}`, description).
template <class T>
std::vector<PassOptionInfo> pass_option_infos() {
  std::vector<PassOptionInfo> result;
  if constexpr (has_pass_options<T>) {
    std::apply(
        [&](const auto&... option) {
          (
              [&] {
                using V = typename std::decay_t<decltype(option)>::value_type;
                std::string default_value;
                if constexpr (std::is_default_constructible_v<T>) {
                  const T defaults{};
                  default_value = config_traits<V>::print(defaults.*option.member);
                }
                result.push_back({std::string(option.name), std::string(config_traits<V>::name),
                                  std::move(default_value), std::string(option.description)});
              }(),
              ...);
        },
        T::pass_options());
  }
  return result;
}

/// Sets option `name` of `pass` from `text`; throws PipelineError for an unknown option
/// (with the nearest names) or text that is not a value of the option's type.
/// `pass_name` is used in messages.
template <class T>
void set_pass_option(T& pass, std::string_view pass_name, std::string_view name,
                     std::string_view text) {
  bool found = false;
  if constexpr (has_pass_options<T>) {
    std::apply(
        [&](const auto&... option) {
          (
              [&] {
                if (found || option.name != name) {
                  return;
                }
                found = true;
                using V = typename std::decay_t<decltype(option)>::value_type;
                std::optional<V> value = config_traits<V>::parse(text);
                if (!value) {
                  detail::throw_bad_pass_option_value(pass_name, name, config_traits<V>::name,
                                                      text);
                }
                pass.*option.member = std::move(*value);
              }(),
              ...);
        },
        T::pass_options());
  }
  if (!found) {
    std::vector<std::string> names;
    for (const PassOptionInfo& info : pass_option_infos<T>()) {
      names.push_back(info.name);
    }
    detail::throw_unknown_pass_option(pass_name, name, names);
  }
}

/// The value of option `name` of `pass` as text (empty if there is no such option).
template <class T>
std::string pass_option_text(const T& pass, std::string_view name) {
  std::string text;
  if constexpr (has_pass_options<T>) {
    std::apply(
        [&](const auto&... option) {
          (
              [&] {
                using V = typename std::decay_t<decltype(option)>::value_type;
                if (option.name == name) {
                  text = config_traits<V>::print(pass.*option.member);
                }
              }(),
              ...);
        },
        T::pass_options());
  } else {
    static_cast<void>(pass);
    static_cast<void>(name);
  }
  return text;
}

/// The options of `pass` that differ from a default-constructed T (all of them when T has
/// no default constructor), in declaration order, as text.
template <class T>
PassOptionValues changed_pass_options(const T& pass) {
  PassOptionValues result;
  if constexpr (has_pass_options<T>) {
    std::apply(
        [&](const auto&... option) {
          (
              [&] {
                using V = typename std::decay_t<decltype(option)>::value_type;
                const V& value = pass.*option.member;
                if constexpr (std::is_default_constructible_v<T>) {
                  const T defaults{};
                  if (defaults.*option.member == value) {
                    return;
                  }
                }
                result.push_back({std::string(option.name), config_traits<V>::print(value)});
              }(),
              ...);
        },
        T::pass_options());
  } else {
    static_cast<void>(pass);
  }
  return result;
}

} // namespace ctir

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/options-inl.hpp>
#endif
