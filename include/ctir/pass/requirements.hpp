// Requirement resolution: which pass provides each required result, cycles, and which
// results are valid while a sequential runs.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/pass/error.hpp>
#include <ctir/pass/info.hpp>
#include <ctir/pass/run.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ctir::detail {

// ---------------------------------------------------------------------------------------
// Planning: for each requirement of each pass, the pass that provides it.
// ---------------------------------------------------------------------------------------

/// The first thing wrong with a set of requirements.
struct PlanProblem {
  enum class Kind { none, missing, cycle };
  static constexpr std::size_t max_cycle = 32;

  Kind kind = Kind::none;
  /// missing: the entry with the requirement nobody provides, and its index in `required`.
  std::size_t entry = 0;
  std::size_t requirement = 0;
  /// cycle: the entries around the cycle, the first one repeated at the end.
  std::array<std::size_t, max_cycle> cycle{};
  std::size_t cycle_length = 0;
};

/// No provider (in a plan table).
inline constexpr std::int16_t no_provider = -1;

/// Finds, for every requirement k of every entry e, the first entry p that may provide
/// (`can_provide[p]`) and establishes it: `providers[e][k] = p`. Then looks for a cycle of
/// requirements. Works in constant expressions (std::array) and at run time (std::vector).
template <class Infos, class Flags, class Table, class Scratch>
constexpr PlanProblem plan_requirements(const Infos& infos, const Flags& can_provide,
                                        Table& providers, Scratch& color, Scratch& stack,
                                        Scratch& next) {
  const std::size_t n = infos.size();
  PlanProblem problem;
  for (std::size_t e = 0; e < n; ++e) {
    for (std::size_t k = 0; k < NameList::capacity; ++k) {
      providers[e][k] = no_provider;
    }
    for (std::size_t k = 0; k < infos[e].required.size(); ++k) {
      for (std::size_t p = 0; p < n; ++p) {
        if (can_provide[p] && infos[p].establishes_result(infos[e].required[k])) {
          providers[e][k] = static_cast<std::int16_t>(p);
          break;
        }
      }
      if (providers[e][k] == no_provider && problem.kind == PlanProblem::Kind::none) {
        problem.kind = PlanProblem::Kind::missing;
        problem.entry = e;
        problem.requirement = k;
      }
    }
  }
  if (problem.kind != PlanProblem::Kind::none) {
    return problem;
  }
  // Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done.
  for (std::size_t i = 0; i < n; ++i) {
    color[i] = 0;
  }
  for (std::size_t start = 0; start < n; ++start) {
    if (color[start] != 0 || infos[start].required.empty()) {
      continue;
    }
    std::size_t depth = 0;
    stack[depth] = start;
    next[depth] = 0;
    ++depth;
    color[start] = 1;
    while (depth > 0) {
      const std::size_t v = stack[depth - 1];
      const std::size_t k = next[depth - 1];
      if (k == infos[v].required.size()) {
        color[v] = 2;
        --depth;
        continue;
      }
      ++next[depth - 1];
      const auto w = static_cast<std::size_t>(providers[v][k]);
      if (color[w] == 1) {
        std::size_t from = 0;
        while (stack[from] != w) {
          ++from;
        }
        problem.kind = PlanProblem::Kind::cycle;
        for (std::size_t j = from; j < depth && problem.cycle_length + 1 < PlanProblem::max_cycle;
             ++j) {
          problem.cycle[problem.cycle_length++] = stack[j];
        }
        problem.cycle[problem.cycle_length++] = w;
        return problem;
      }
      if (color[w] == 0) {
        color[w] = 1;
        stack[depth] = w;
        next[depth] = 0;
        ++depth;
      }
    }
  }
  return problem;
}

/// The message of a planning problem, naming the passes.
std::string describe_problem(const PlanProblem& problem, std::span<const PassInfo> infos);

// ---------------------------------------------------------------------------------------
// Valid results while a sequential runs.
// ---------------------------------------------------------------------------------------

/// The results that are valid at this point of a sequential run (shared with the
/// sequentials nested in it). Small: names live inline up to 32.
class RequirementState {
public:
  RequirementState() = default;
  RequirementState(const RequirementState&) = delete;
  RequirementState& operator=(const RequirementState&) = delete;

  bool contains(std::string_view name) const noexcept;
  std::size_t size() const noexcept { return size_; }

  /// A pass ran: its invalidated results go, then its own results come.
  void apply(const PassInfo& info);

private:
  static constexpr std::size_t inline_capacity = 32;

  std::string_view at(std::size_t i) const noexcept;
  void set(std::size_t i, std::string_view name) noexcept;
  void add(std::string_view name);
  void remove(std::string_view name) noexcept;

  std::array<std::string_view, inline_capacity> inline_{};
  std::vector<std::string_view> more_;
  std::size_t size_ = 0;
};

/// The state of the sequential running on this thread, if it tracks requirements.
inline thread_local RequirementState* active_requirements = nullptr;

/// Makes `state` the active one for the lifetime of the guard.
class ActiveRequirements {
public:
  explicit ActiveRequirements(RequirementState* state) noexcept
      : previous_(std::exchange(active_requirements, state)) {}
  ActiveRequirements(const ActiveRequirements&) = delete;
  ActiveRequirements& operator=(const ActiveRequirements&) = delete;
  ~ActiveRequirements() { active_requirements = previous_; }

private:
  RequirementState* previous_;
};

// ---------------------------------------------------------------------------------------
// The static pool: a sequential's passes plus the types their `required_passes` name.
// ---------------------------------------------------------------------------------------

template <class P>
struct declared_dependencies {
  using type = type_list<>;
};
template <class P>
requires requires { typename P::required_passes; }
struct declared_dependencies<P> {
  template <class L>
  struct convert;
  template <class... Ds>
  struct convert<pass_list<Ds...>> {
    using type = type_list<Ds...>;
  };
  // An error here means `required_passes` is not a ctir::pass_list<...>.
  using type = typename convert<typename P::required_passes>::type;
};

template <class Done, class Todo>
struct dependency_closure;
template <bool Seen, class Done, class T, class Rest>
struct dependency_visit;

template <class... Done>
struct dependency_closure<type_list<Done...>, type_list<>> {
  using type = type_list<Done...>;
};
template <class... Done, class T, class... Rest>
struct dependency_closure<type_list<Done...>, type_list<T, Rest...>>
    : dependency_visit<list_contains_v<T, type_list<Done...>>, type_list<Done...>, T,
                       type_list<Rest...>> {};
template <class... Done, class T, class... Rest>
struct dependency_visit<true, type_list<Done...>, T, type_list<Rest...>>
    : dependency_closure<type_list<Done...>, type_list<Rest...>> {};
template <class... Done, class T, class... Rest>
struct dependency_visit<false, type_list<Done...>, T, type_list<Rest...>>
    : dependency_closure<type_list<Done..., T>,
                         concat_t<type_list<Rest...>, typename declared_dependencies<T>::type>> {};

/// The passes of a sequential followed by every type their `required_passes` name,
/// transitively, each once.
template <class... Ps>
using requirement_pool_t =
    typename dependency_closure<type_list<Ps...>,
                                concat_t<typename declared_dependencies<Ps>::type...>>::type;

/// Whether P is a sequential (statically, or a runtime Pass holding one).
template <class P>
constexpr bool is_sequential(const P& p) noexcept {
  if constexpr (requires { p.is_sequential(); }) {
    return p.is_sequential();
  } else {
    return false;
  }
}
template <class P>
inline constexpr bool is_static_sequential_v = requires {
  {
    std::bool_constant<P::is_sequential()> {}
    } -> std::same_as<std::true_type>;
};

// ---------------------------------------------------------------------------------------
// Compile-time diagnostics naming the passes.
// ---------------------------------------------------------------------------------------

template <class T>
inline constexpr bool always_false_v = false;

/// A required result's name, spelled out in a compiler message.
template <char... Cs>
struct result_name {};

/// Instantiated when pass `Pass` requires `Name`, which nothing in the pipeline provides.
template <class Pass, class Name>
struct requirement_not_provided {
  static_assert(always_false_v<Pass>,
                "ctir: a pass in this static pipeline requires a result that no pass provides "
                "(the pass and the missing name are the template arguments of "
                "requirement_not_provided); add the providing pass to the sequential or name "
                "its type in `using required_passes = ctir::pass_list<...>;`");
  static constexpr bool value = false;
};

/// Instantiated when passes require each other in a cycle (the template arguments, the
/// first repeated at the end).
template <class... Passes>
struct requirement_cycle {
  static_assert(always_false_v<type_list<Passes...>>,
                "ctir: passes in this static pipeline require each other in a cycle (the passes "
                "are the template arguments of requirement_cycle, in order); break the cycle");
  static constexpr bool value = false;
};

template <class T>
constexpr PassInfo static_info_or_empty() {
  if constexpr (has_static_info<T>) {
    return T::info();
  } else {
    return PassInfo{};
  }
}

template <class Pool>
struct static_plan;
template <class... Ts>
struct static_plan<type_list<Ts...>> {
  /// Whether the check can happen at compile time: every pass has a static info(), or is
  /// a sequential (whose own requirements its constructor checked).
  static constexpr bool checkable = ((has_static_info<Ts> || is_static_sequential_v<Ts>)&&...);
  static constexpr std::size_t size = sizeof...(Ts);

  static constexpr std::array<PassInfo, size> infos = {static_info_or_empty<Ts>()...};
  static constexpr std::array<bool, size> can_provide = {!is_static_sequential_v<Ts>...};

  static constexpr PlanProblem problem = [] {
    std::array<std::array<std::int16_t, NameList::capacity>, size> providers{};
    std::array<std::size_t, size> color{};
    std::array<std::size_t, size> stack{};
    std::array<std::size_t, size> next{};
    return plan_requirements(infos, can_provide, providers, color, stack, next);
  }();
};

template <class T, std::size_t K, std::size_t... I>
auto make_result_name(std::index_sequence<I...>) -> result_name<T::info().required[K][I]...>;

template <class Pool, class Plan, std::size_t... I>
auto make_cycle(std::index_sequence<I...>)
    -> requirement_cycle<list_element_t<Plan::problem.cycle[I], Pool>...>;

/// Checks the requirements of a static pool at compile time; a problem becomes a compiler
/// error naming the passes. Returns true otherwise.
template <class Pool>
constexpr bool check_static_requirements() {
  using Plan = static_plan<Pool>;
  if constexpr (!Plan::checkable) {
    return true; // the constructor checks at run time
  } else if constexpr (Plan::problem.kind == PlanProblem::Kind::missing) {
    using Pass = list_element_t<Plan::problem.entry, Pool>;
    using Name = decltype(make_result_name<Pass, Plan::problem.requirement>(
        std::make_index_sequence<Pass::info().required[Plan::problem.requirement].size()>{}));
    return requirement_not_provided<Pass, Name>::value;
  } else if constexpr (Plan::problem.kind == PlanProblem::Kind::cycle) {
    using Cycle =
        decltype(make_cycle<Pool, Plan>(std::make_index_sequence<Plan::problem.cycle_length>{}));
    return Cycle::value;
  } else {
    return true;
  }
}

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/requirements-inl.hpp>
#endif
