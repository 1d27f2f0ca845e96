// Tests of ctir/runtime/pass/resolve.hpp: the pipeline as it will run, with the passes
// requirements add and without the ones the context skips.
#include <ctir/runtime/pass/resolve.hpp>

#include <ctir/pass/module_pass.hpp>
#include <ctir/pass/sequential.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/runtime/pass/sequential.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>
#include <vector>

using namespace ctir;
using namespace ctir::testing;

namespace {

Pass resolve_logged(EventLog log, PassInfo info) {
  const std::string name(info.name);
  return make_module_pass(info, [log, name](IRModule mod) {
    log.add(name);
    return mod;
  });
}

/// A registry of passes that log their runs: A, B (requires A), C (requires B), Mutate
/// (invalidates A), Heavy (opt_level 3), Typer (establishes "types"), Typed (requires it).
struct ResolveFixture {
  EventLog log;
  PassRegistry registry;
  ResolveFixture() {
    registry.add(resolve_logged(log, {.name = "A"}));
    registry.add(resolve_logged(log, {.name = "B", .required = {"A"}}));
    registry.add(resolve_logged(log, {.name = "C", .required = {"B"}}));
    registry.add(resolve_logged(log, {.name = "Mutate", .invalidates = {"A"}}));
    registry.add(resolve_logged(log, {.name = "Heavy", .opt_level = 3}));
    registry.add(resolve_logged(log, {.name = "Typer", .opt_level = 3, .establishes = {"types"}}));
    registry.add(resolve_logged(log, {.name = "Typed", .required = {"types"}}));
  }

  /// The passes `text` runs under `options`.
  std::string run(std::string_view text, const PassContextOptions& options) {
    log.clear();
    const Pass pipeline = parse_pipeline(text, registry);
    PassContext ctx(options);
    auto scope = ctx.enter();
    pipeline.transform_module(sample_module(), ctx);
    return log.str();
  }

  /// Checks that the resolved form of `text` runs what `text` runs, and returns it.
  ResolvedPipeline resolve(std::string_view text, const PassContextOptions& options) {
    const ResolvedPipeline resolved =
        resolve_pipeline(parse_pipeline(text, registry), PassContext(options), registry);
    const std::string original = run(text, options);
    CHECK_MESSAGE(run(resolved.pipeline, options) == original, resolved.pipeline);
    return resolved;
  }
};

} // namespace

TEST_CASE("a transitive chain of requirements prints the passes it adds where they run") {
  ResolveFixture f;
  const ResolvedPipeline resolved = f.resolve("C,Mutate", {});
  CHECK(resolved.pipeline == "A,B,C,Mutate");
  CHECK(resolved.skipped.empty());
}

TEST_CASE("a lone pass is called, not run by a sequential: it resolves to itself") {
  ResolveFixture f;
  CHECK(f.resolve("C", {}).pipeline == "C");
  CHECK(f.resolve("Heavy", {.opt_level = 0}).pipeline == "Heavy");
}

TEST_CASE("a required result still valid adds nothing; an invalidated one runs its pass again") {
  ResolveFixture f;
  CHECK(f.resolve("A,B,C", {}).pipeline == "A,B,C");
  CHECK(f.resolve("B,Mutate,B", {}).pipeline == "A,B,Mutate,A,B");
}

TEST_CASE("passes the opt_level gates or the context disables are left out and listed") {
  ResolveFixture f;
  const ResolvedPipeline resolved =
      f.resolve("A,Heavy,Mutate", {.opt_level = 2, .disabled = {"Mutate"}});
  CHECK(resolved.pipeline == "A");
  REQUIRE(resolved.skipped.size() == 2);
  CHECK(resolved.skipped[0].pass == "Heavy");
  CHECK(resolved.skipped[0].reason == "opt_level 3 > 2");
  CHECK(resolved.skipped[1].pass == "Mutate");
  CHECK(resolved.skipped[1].reason == "disabled");
  CHECK(f.resolve("A,Heavy", {.opt_level = 3}).pipeline == "A,Heavy");
  CHECK(f.resolve("A,Heavy", {.opt_level = 0, .required = {"Heavy"}}).pipeline == "A,Heavy");
}

TEST_CASE("a gated pass that provides a requirement still runs, where the requirement needs it") {
  ResolveFixture f;
  // Typer is the list's provider of "types": gated at its place, it runs before Typed.
  const ResolvedPipeline resolved = f.resolve("Typer,A,Typed", {.opt_level = 2});
  CHECK(resolved.pipeline == "A,Typer,Typed");
  REQUIRE(resolved.skipped.size() == 1);
  CHECK(resolved.skipped[0].pass == "Typer");
}

TEST_CASE("nested sequentials print with their head, share the requirements of the outer one") {
  ResolveFixture f;
  const ResolvedPipeline resolved =
      f.resolve("A,sequential{name=Inner}(B,sequential{opt_level=3}(Heavy)),C", {});
  CHECK(resolved.pipeline == "A,sequential{name=Inner}(B),C");
  REQUIRE(resolved.skipped.size() == 1);
  CHECK(resolved.skipped[0].pass == "sequential{opt_level=3}(Heavy)");
  CHECK(f.resolve("sequential(C)", {}).pipeline == "A,B,C");
}

TEST_CASE("a static sequential resolves through its printed form") {
  ResolveFixture f;
  const auto pass_a = [](IRModule mod) { return mod; };
  const Pass pipeline(
      sequential(PassInfo{.name = "Static"}, make_module_pass(PassInfo{.name = "A"}, pass_a),
                 make_module_pass(PassInfo{.name = "Heavy", .opt_level = 3}, pass_a)));
  const ResolvedPipeline resolved =
      resolve_pipeline(pipeline, PassContext(PassContextOptions{}), f.registry);
  CHECK(resolved.pipeline == "A");
  REQUIRE(resolved.skipped.size() == 1);
  CHECK(resolved.skipped[0].pass == "Heavy");
}

TEST_CASE("a pass the registry does not know cannot be resolved: the pipeline error says so") {
  ResolveFixture f;
  const Pass unknown =
      make_module_pass(PassInfo{.name = "Unregistered"}, [](IRModule mod) { return mod; });
  CHECK_THROWS_AS(resolve_pipeline(sequential({unknown}, {.name = "sequential"}, f.registry),
                                   PassContext(PassContextOptions{}), f.registry),
                  PipelineError);
}
