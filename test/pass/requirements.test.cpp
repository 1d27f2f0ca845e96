// Tests of ctir/pass/requirements.hpp: planning providers, finding cycles, valid results, and
// required passes resolved transitively in static sequentials.
#include <ctir/pass/requirements.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <array>
#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Every run of these passes is logged here (the passes are stateless, so the log is global).
EventLog& run_log() {
  static EventLog log;
  return log;
}

template <class Self>
struct Logged {
  IRModule transform_module(IRModule mod, const PassContext&) const {
    run_log().add(std::string(Self::info().name));
    return mod;
  }
};

struct A : Logged<A> {
  static constexpr PassInfo info() { return {.name = "A", .opt_level = 0}; }
};
struct B : Logged<B> {
  using required_passes = pass_list<A>;
  static constexpr PassInfo info() { return {.name = "B", .opt_level = 0, .required = {"A"}}; }
};
struct C : Logged<C> {
  using required_passes = pass_list<B>;
  static constexpr PassInfo info() { return {.name = "C", .opt_level = 0, .required = {"B"}}; }
};
/// Invalidates A.
struct Mutate : Logged<Mutate> {
  static constexpr PassInfo info() {
    return {.name = "Mutate", .opt_level = 0, .invalidates = {"A"}};
  }
};
/// Invalidates everything.
struct Rewrite : Logged<Rewrite> {
  static constexpr PassInfo info() {
    return {.name = "Rewrite", .opt_level = 0, .invalidates = {"*"}};
  }
};
/// Requires A directly.
struct D : Logged<D> {
  using required_passes = pass_list<A>;
  static constexpr PassInfo info() { return {.name = "D", .opt_level = 0, .required = {"A"}}; }
};
/// Establishes the result "types" besides its own name.
struct Typer : Logged<Typer> {
  static constexpr PassInfo info() {
    return {.name = "Typer", .opt_level = 0, .establishes = {"types"}};
  }
};
struct NeedsTypes : Logged<NeedsTypes> {
  using required_passes = pass_list<Typer>;
  static constexpr PassInfo info() {
    return {.name = "NeedsTypes", .opt_level = 3, .required = {"types"}};
  }
};

struct Reset {
  Reset() { run_log().clear(); }
};

} // namespace

TEST_CASE("the pool of a sequential adds the declared provider types, transitively, once") {
  static_assert(std::is_same_v<detail::requirement_pool_t<C>, type_list<C, B, A>>);
  static_assert(std::is_same_v<detail::requirement_pool_t<C, D>, type_list<C, D, B, A>>);
  static_assert(std::is_same_v<detail::requirement_pool_t<A, C>, type_list<A, C, B>>);
  static_assert(std::is_same_v<detail::requirement_pool_t<>, type_list<>>);
}

TEST_CASE("planning finds the first provider of each requirement") {
  const std::array<PassInfo, 3> infos = {PassInfo{.name = "C", .required = {"B"}},
                                         PassInfo{.name = "B", .required = {"A", "t"}},
                                         PassInfo{.name = "A", .establishes = {"t"}}};
  const std::array<bool, 3> can_provide = {true, true, true};
  std::array<std::array<std::int16_t, NameList::capacity>, 3> providers{};
  std::array<std::size_t, 3> color{};
  std::array<std::size_t, 3> stack{};
  std::array<std::size_t, 3> next{};
  const auto problem = detail::plan_requirements(infos, can_provide, providers, color, stack, next);
  CHECK(problem.kind == detail::PlanProblem::Kind::none);
  CHECK(providers[0][0] == 1);
  CHECK(providers[1][0] == 2);
  CHECK(providers[1][1] == 2);
  CHECK(providers[2][0] == detail::no_provider);
}

TEST_CASE("planning reports a missing provider and a cycle with the pass names") {
  std::vector<std::array<std::int16_t, NameList::capacity>> providers(3);
  std::vector<std::size_t> color(3);
  std::vector<std::size_t> stack(3);
  std::vector<std::size_t> next(3);
  SUBCASE("missing") {
    const std::vector<PassInfo> infos = {PassInfo{.name = "C", .required = {"B"}},
                                         PassInfo{.name = "B", .required = {"X"}},
                                         PassInfo{.name = "A"}};
    const std::vector<bool> can_provide = {true, true, true};
    const auto problem =
        detail::plan_requirements(infos, can_provide, providers, color, stack, next);
    CHECK(problem.kind == detail::PlanProblem::Kind::missing);
    CHECK(detail::describe_problem(problem, infos) ==
          "ctir: pass 'B' requires 'X', which no pass in this pipeline provides");
  }
  SUBCASE("a provider that may not provide (a nested sequential) does not count") {
    const std::vector<PassInfo> infos = {PassInfo{.name = "C", .required = {"S"}},
                                         PassInfo{.name = "S"}, PassInfo{.name = "A"}};
    const std::vector<bool> can_provide = {true, false, true};
    CHECK(detail::plan_requirements(infos, can_provide, providers, color, stack, next).kind ==
          detail::PlanProblem::Kind::missing);
  }
  SUBCASE("cycle") {
    const std::vector<PassInfo> infos = {PassInfo{.name = "A", .required = {"B"}},
                                         PassInfo{.name = "B", .required = {"C"}},
                                         PassInfo{.name = "C", .required = {"A"}}};
    const std::vector<bool> can_provide = {true, true, true};
    const auto problem =
        detail::plan_requirements(infos, can_provide, providers, color, stack, next);
    CHECK(problem.kind == detail::PlanProblem::Kind::cycle);
    CHECK(detail::describe_problem(problem, infos) ==
          "ctir: passes require each other in a cycle: A -> B -> C -> A");
  }
  SUBCASE("a pass requiring itself") {
    const std::vector<PassInfo> infos = {PassInfo{.name = "A", .required = {"A"}}};
    const std::vector<bool> can_provide = {true};
    const auto problem =
        detail::plan_requirements(infos, can_provide, providers, color, stack, next);
    CHECK(detail::describe_problem(problem, infos) ==
          "ctir: passes require each other in a cycle: A -> A");
  }
}

TEST_CASE("valid results: a run establishes its name and results after its invalidations") {
  detail::RequirementState state;
  state.apply(PassInfo{.name = "A", .establishes = {"t"}});
  CHECK(state.contains("A"));
  CHECK(state.contains("t"));
  state.apply(PassInfo{.name = "B", .invalidates = {"t"}});
  CHECK(state.contains("A"));
  CHECK_FALSE(state.contains("t"));
  CHECK(state.contains("B"));
  state.apply(PassInfo{.name = "Z", .invalidates = {"*"}});
  CHECK(state.size() == 1);
  CHECK(state.contains("Z"));
}

TEST_CASE("valid results grow past the inline capacity") {
  detail::RequirementState state;
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i) {
    names.push_back("p" + std::to_string(i));
  }
  for (const std::string& name : names) {
    state.apply(PassInfo{.name = name});
  }
  CHECK(state.size() == 40);
  CHECK(state.contains("p39"));
  state.apply(PassInfo{.name = "q", .invalidates = {"p0", "p39"}});
  CHECK(state.size() == 39);
  CHECK_FALSE(state.contains("p0"));
  CHECK_FALSE(state.contains("p39"));
  CHECK(state.contains("p38"));
}

TEST_CASE("a transitive chain C -> B -> A runs A and B once each, before C") {
  Reset reset;
  constexpr auto pipeline = sequential(C{});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(run_log().str() == "A B C");
}

TEST_CASE("a required pass whose result is still valid is skipped") {
  Reset reset;
  constexpr auto pipeline = sequential(A{}, C{}, D{}, B{});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  // B runs for C; D finds A valid; the explicit B runs again (listed passes always run).
  CHECK(run_log().str() == "A B C D B");
}

TEST_CASE("a pass that invalidates A makes A run again before the next dependant") {
  Reset reset;
  constexpr auto pipeline = sequential(C{}, Mutate{}, D{}, D{});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(run_log().str() == "A B C Mutate A D D");
}

TEST_CASE("invalidating everything re-runs the whole chain") {
  Reset reset;
  constexpr auto pipeline = sequential(C{}, Rewrite{}, C{});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(run_log().str() == "A B C Rewrite A B C");
}

TEST_CASE("a requirement may name a result established by a pass other than by its name") {
  Reset reset;
  IRModule mod = sample_module();
  mod = sequential(NeedsTypes{})(mod, PassContext{{.opt_level = 3}});
  CHECK(run_log().str() == "Typer NeedsTypes");
}

TEST_CASE("required passes run whatever their opt_level; a disabled dependant does not ask") {
  Reset reset;
  IRModule mod = sample_module();
  SUBCASE("the dependant is gated out: nothing runs") {
    mod = sequential(NeedsTypes{})(mod, PassContext{{.opt_level = 2}});
    CHECK(run_log().str() == "");
  }
  SUBCASE("a disabled provider still runs for its dependant (as in TVM)") {
    mod = sequential(A{}, C{})(mod, PassContext{{.disabled = {"A"}}});
    CHECK(run_log().str() == "A B C");
  }
}

TEST_CASE("nested sequentials share the valid results of the enclosing one") {
  Reset reset;
  const auto inner = sequential(PassInfo{.name = "inner"}, Mutate{}, D{});
  const auto pipeline = sequential(C{}, inner, D{});
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(run_log().str() == "A B C Mutate A D D");
}

TEST_CASE("a requirement without a provider in a pipeline with runtime names is an error "
          "when the sequential is made") {
  EventLog log;
  const auto needy = make_module_pass(PassInfo{.name = "Needy", .required = {"Missing"}},
                                      [](IRModule mod) { return mod; });
  CHECK(error_of([&] { static_cast<void>(sequential(needy)); }) ==
        "ctir: pass 'Needy' requires 'Missing', which no pass in this pipeline provides");
  const auto a =
      make_module_pass(PassInfo{.name = "a", .required = {"b"}}, [](IRModule mod) { return mod; });
  const auto b =
      make_module_pass(PassInfo{.name = "b", .required = {"a"}}, [](IRModule mod) { return mod; });
  CHECK(error_of([&] { static_cast<void>(sequential(a, b)); }) ==
        "ctir: passes require each other in a cycle: a -> b -> a");
}

TEST_CASE("requirements between lambda passes resolve at run time") {
  EventLog log;
  const auto provider = logging_pass("Provider", log);
  const auto user =
      make_module_pass(PassInfo{.name = "User", .required = {"Provider"}}, [log](IRModule mod) {
        log.add("User");
        return mod;
      });
  const auto pipeline = sequential(user, user, provider);
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(log.str() == "Provider User User Provider");
}
