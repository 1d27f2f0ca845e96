// Tests of ctir/pass/instrument.hpp: the static instrument concept and the erased Instrument.
#include <ctir/pass/instrument.hpp>

#include <doctest/doctest.h>
#include <pass_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

namespace {
struct OnlyBefore {
  int* count;
  void run_before_pass(const IRModule&, const PassInfo&) { ++*count; }
};
struct Veto {
  bool should_run(const IRModule&, const PassInfo& info) const { return info.name != "no"; }
};
struct Named {
  std::string name() const { return "Named!"; }
  void enter_pass_ctx() {}
};
struct NotAnInstrument {
  void unrelated() {}
};
} // namespace

static_assert(pass_instrument<OnlyBefore>);
static_assert(pass_instrument<Veto>);
static_assert(pass_instrument<RecordingInstrument>);
static_assert(!pass_instrument<NotAnInstrument>);
static_assert(!pass_instrument<int>);
static_assert(has_run_before_pass<OnlyBefore> && !has_should_run<OnlyBefore>);
static_assert(has_run_after_pass_failed<RecordingInstrument>);

TEST_CASE("missing hooks do nothing and a missing should_run says yes") {
  int count = 0;
  OnlyBefore instrument{&count};
  const IRModule mod;
  const PassInfo info{"p", 0};
  detail::call_enter_pass_ctx(instrument);
  CHECK(detail::call_should_run(instrument, mod, info));
  detail::call_run_before_pass(instrument, mod, info);
  detail::call_run_after_pass(instrument, mod, info);
  detail::call_run_after_pass_failed(instrument, mod, info, Error("x"));
  detail::call_exit_pass_ctx(instrument);
  CHECK(count == 1);
  Veto veto;
  CHECK_FALSE(detail::call_should_run(veto, mod, PassInfo{"no", 0}));
  CHECK(detail::call_should_run(veto, mod, PassInfo{"yes", 0}));
}

TEST_CASE("an Instrument erases any static instrument and forwards every hook") {
  EventLog log;
  const Instrument instrument = RecordingInstrument{.id = "1", .log = log};
  const IRModule mod;
  const PassInfo info{"p", 0};
  instrument.enter_pass_ctx();
  CHECK(instrument.should_run(mod, info));
  instrument.run_before_pass(mod, info);
  instrument.run_after_pass(mod, info);
  instrument.run_after_pass_failed(mod, info, Error("x"));
  instrument.exit_pass_ctx();
  CHECK(log.str() == "1enter 1sr 1rb 1ra 1raf 1exit");
  CHECK(instrument.name() == "PI1");
}

TEST_CASE("copies of an Instrument share the instrument") {
  int count = 0;
  const Instrument a = OnlyBefore{&count};
  const Instrument b = a;
  CHECK(a.same_as(b));
  REQUIRE(b.target<OnlyBefore>() != nullptr);
  CHECK(b.target<OnlyBefore>() == a.target<OnlyBefore>());
  CHECK(a.target<Veto>() == nullptr);
  CHECK(a.name() == "instrument");
  CHECK(Instrument(Named{}).name() == "Named!");
}

TEST_CASE("Instrument::reference calls an instrument that lives elsewhere") {
  int count = 0;
  OnlyBefore instrument{&count};
  const Instrument view = Instrument::reference(instrument);
  CHECK(view.target<OnlyBefore>() == &instrument);
  view.run_before_pass(IRModule(), PassInfo{"p", 0});
  CHECK(count == 1);
}
