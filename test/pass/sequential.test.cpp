// Tests of ctir/pass/sequential.hpp: static sequentials (PassEnabled, nesting, naming,
// instruments) and the promise that they allocate nothing of their own.
#include <ctir/pass/sequential.hpp>

#include <ctir/pass/module_pass.hpp>

#include <counting_new.hpp>
#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <stdexcept>
#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {

/// Stateless passes, usable in constant expressions.
template <int N>
struct Step {
  static constexpr PassInfo info() { return {.name = "Step", .opt_level = N}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct Infer {
  static constexpr PassInfo info() { return {"InferType", 0}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct Fold {
  static constexpr PassInfo info() { return {"FoldConstant", 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct Cse {
  static constexpr PassInfo info() { return {"EliminateCommonSubexpr", 3}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

/// Counts its hooks without allocating.
struct Counter {
  int* before;
  int* after;
  void run_before_pass(const IRModule&, const PassInfo&) const { ++*before; }
  void run_after_pass(const IRModule&, const PassInfo&) const { ++*after; }
};

} // namespace

TEST_CASE("a static pipeline of stateless passes is a constant expression") {
  constexpr auto pipeline = sequential(Infer{}, Fold{}, Cse{});
  static_assert(pipeline.info().name == "sequential");
  static_assert(pipeline.info().opt_level == 0);
  static_assert(std::tuple_size_v<std::decay_t<decltype(pipeline.passes())>> == 3);
  static_assert(pass<decltype(pipeline)>);
  IRModule mod = sample_module();
  CHECK(pipeline(mod).same_as(mod));
}

TEST_CASE("the pipeline of the design brief runs under a context with a disabled pass") {
  constexpr auto pipeline = sequential(Infer{}, Fold{}, Cse{});
  PassNameRecorder names;
  InstrumentedPassContext ctx{{.opt_level = 3, .disabled = {"EliminateCommonSubexpr"}}, names};
  auto scope = ctx.enter();
  IRModule mod = sample_module();
  mod = pipeline(mod);
  CHECK(names.log.str() == "sequential InferType FoldConstant");
}

TEST_CASE("a pass above the context's opt_level is skipped unless the context requires it") {
  EventLog log;
  const auto pipeline = sequential(logging_pass("low", log, 1), logging_pass("high", log, 3));
  IRModule mod = sample_module();
  SUBCASE("opt_level 2 skips it") {
    mod = pipeline(mod, PassContext{{.opt_level = 2}});
    CHECK(log.str() == "low");
  }
  SUBCASE("listed as required it runs") {
    mod = pipeline(mod, PassContext{{.opt_level = 2, .required = {"high"}}});
    CHECK(log.str() == "low high");
  }
  SUBCASE("disabled and required it is skipped") {
    mod = pipeline(mod, PassContext{{.opt_level = 3, .required = {"high"}, .disabled = {"high"}}});
    CHECK(log.str() == "low");
  }
  SUBCASE("opt_level 3 runs it") {
    mod = pipeline(mod, PassContext{{.opt_level = 3}});
    CHECK(log.str() == "low high");
  }
}

/// Fails when it runs; N is its opt_level.
template <int N>
struct Failing {
  static constexpr PassInfo info() { return {.name = "Failing", .opt_level = N}; }
  IRModule transform_module(IRModule, const PassContext&) const {
    throw std::runtime_error("no luck");
  }
};

TEST_CASE("an error in a plain sequential names the pass that failed, whether or not every "
          "pass is enabled") {
  const IRModule mod = sample_module();
  const auto message = [&](const auto& pipeline, int opt_level) {
    try {
      static_cast<void>(pipeline(mod, PassContext{{.opt_level = opt_level}}));
    } catch (const PassError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // opt_level 3: every pass enabled (the one-test path); 1: Step<2> is skipped (per pass).
  const auto pipeline = sequential(Step<0>{}, Step<2>{}, Failing<0>{}, Step<0>{});
  CHECK(message(pipeline, 3) == "Error in pass Failing: no luck");
  CHECK(message(pipeline, 1) == "Error in pass Failing: no luck");
  CHECK(message(sequential(Step<0>{}, Failing<3>{}), 2) == "no error");
}

TEST_CASE("a sequential is named 'sequential' unless given a PassInfo") {
  const auto unnamed = sequential(Infer{});
  CHECK(unnamed.info().name == "sequential");
  CHECK(unnamed.info().opt_level == 0);
  const auto named = sequential(PassInfo{.name = "O2", .opt_level = 2}, Infer{}, Fold{});
  CHECK(named.info().name == "O2");
  CHECK(named.info().opt_level == 2);
  // Given only an opt_level, it keeps the name "sequential".
  PassInfo only_level;
  only_level.opt_level = 2;
  const auto leveled = sequential(only_level, Infer{});
  CHECK(leveled.info().name == "sequential");
  CHECK(leveled.info().opt_level == 2);
}

namespace {
/// A pass class whose name was forgotten.
struct Nameless {
  static constexpr PassInfo info() {
    PassInfo info;
    info.opt_level = 1;
    return info;
  }
  IRModule operator()(IRModule mod, const PassContext&) const { return mod; }
};
} // namespace

TEST_CASE("a pass class with an empty name is an error that names the class") {
  CHECK_THROWS_WITH(sequential(Infer{}, Nameless{}),
                    doctest::Contains("Nameless: a pass needs a name"));
}

TEST_CASE("an empty sequential returns the very same module") {
  constexpr auto empty = sequential();
  IRModule mod = sample_module();
  CHECK(empty(mod).same_as(mod));
}

TEST_CASE("nested sequentials run in order and each is seen by the instruments") {
  EventLog log;
  PassNameRecorder names;
  const auto inner =
      sequential(PassInfo{.name = "inner"}, logging_pass("b", log), logging_pass("c", log));
  const auto outer = sequential(logging_pass("a", log), inner, logging_pass("d", log));
  InstrumentedPassContext ctx{{}, names};
  IRModule mod = sample_module();
  mod = outer(mod, ctx);
  CHECK(log.str() == "a b c d");
  CHECK(names.log.str() == "sequential a inner b c d");
}

TEST_CASE("a disabled nested sequential skips all its passes") {
  EventLog log;
  const auto inner = sequential(PassInfo{.name = "inner"}, logging_pass("b", log));
  const auto outer = sequential(logging_pass("a", log), inner);
  IRModule mod = sample_module();
  mod = outer(mod, PassContext{{.disabled = {"inner"}}});
  CHECK(log.str() == "a");
}

TEST_CASE("a static sequential allocates nothing of its own" *
          doctest::skip(!CTIR_TEST_COUNTS_ALLOCATIONS)) {
  constexpr auto pipeline =
      sequential(Step<0>{}, Step<1>{}, sequential(Step<1>{}, Step<2>{}), Step<3>{});
  IRModule mod = sample_module();
  SUBCASE("under an explicit context") {
    const PassContext ctx;
    CHECK(allocations_during([&] { mod = pipeline(mod, ctx); }) == 0);
  }
  SUBCASE("under PassContext::current()") {
    mod = pipeline(mod); // the thread's default context is made on first use
    CHECK(allocations_during([&] { mod = pipeline(mod); }) == 0);
  }
  SUBCASE("with static instruments") {
    int before = 0;
    int after = 0;
    const InstrumentedPassContext ctx{{}, Counter{&before, &after}};
    CHECK(allocations_during([&] { mod = pipeline(mod, ctx); }) == 0);
    CHECK(before == 6); // the sequential, 4 passes, the nested sequential (Step<3> gated out)
    CHECK(after == 6);
  }
  SUBCASE("a pass gated out by opt_level costs nothing either") {
    const PassContext ctx{{.opt_level = 0}};
    CHECK(allocations_during([&] { mod = pipeline(mod, ctx); }) == 0);
  }
}

TEST_CASE("the counting operator new does count" * doctest::skip(!CTIR_TEST_COUNTS_ALLOCATIONS)) {
  // The pointer escapes through a volatile: a new/delete pair the optimizer can see
  // whole may be elided (clang does).
  static int* volatile escaped = nullptr;
  CHECK(allocations_during([] {
          escaped = new int(1);
          delete escaped;
        }) == 1);
}

TEST_CASE("a Sequential is itself a pass usable in run_pass and as a member") {
  EventLog log;
  const auto inner = sequential(logging_pass("x", log));
  IRModule mod = sample_module();
  mod = run_pass(inner, mod);
  mod = run_pass(sequential(inner, inner), mod);
  CHECK(log.str() == "x x x");
}
