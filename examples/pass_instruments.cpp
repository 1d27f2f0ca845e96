// Pass instruments: the six hooks and the order they are called in, exceptions included;
// override_instruments; and the built-in instruments with what they print.
#include <ctir/ctir.hpp>
#include <ctir/pass/instruments/all.hpp>
#include <ctir/passes/passes.hpp>
#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <filesystem>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

using namespace ctir;

const char* const program = R"(
def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = add(const([1f, 2f]), const([3f, 4f]));
  negative(negative(multiply(%x, %0)))
}
)";

// [snippet:tracer]
// An instrument is any copyable class with some of the six hooks; each missing hook does
// nothing (a missing should_run says yes). This one prints every call.
struct Tracer {
  std::string id;
  std::string veto = {}; // a pass this instrument does not let run

  std::string name() const { return "Tracer" + id; }
  void enter_pass_ctx() const { std::cout << id << ": enter_pass_ctx\n"; }
  void exit_pass_ctx() const { std::cout << id << ": exit_pass_ctx\n"; }
  bool should_run(const IRModule&, const PassInfo& info) const {
    std::cout << id << ": should_run " << info.name << '\n';
    return info.name != veto;
  }
  void run_before_pass(const IRModule&, const PassInfo& info) const {
    std::cout << id << ": run_before_pass " << info.name << '\n';
  }
  void run_after_pass(const IRModule&, const PassInfo& info) const {
    std::cout << id << ": run_after_pass " << info.name << '\n';
  }
  void run_after_pass_failed(const IRModule&, const PassInfo& info, const Error& error) const {
    std::cout << id << ": run_after_pass_failed " << info.name << " (" << error.what() << ")\n";
  }
};
// [/snippet]

int main() {
  const IRModule input = parse_module(program, "program.ctir");
  passes::register_standard_passes();

  // [snippet:order]
  const auto identity = make_module_pass("Identity", 0, [](IRModule mod) { return mod; });
  const auto failing = make_module_pass(
      "Failing", 0, [](IRModule) -> IRModule { throw std::runtime_error("no luck"); });
  const auto skipped = make_module_pass("Skipped", 0, [](IRModule mod) { return mod; });

  PassContext ctx{{.instruments = {Tracer{.id = "A"}, Tracer{.id = "B", .veto = "Skipped"}}}};
  try {
    auto scope = ctx.enter();
    IRModule mod = identity(input);
    mod = skipped(mod);
    mod = failing(mod);
  } catch (const PassError& error) {
    std::cout << "caught: " << error.what() << '\n';
  }
  // [/snippet]

  // [snippet:override]
  // override_instruments swaps the instruments of a context, even of the current default
  // one: the old ones are exited, then the new ones entered.
  PassContext& current = PassContext::current();
  current.override_instruments({Tracer{.id = "C"}});
  std::cout << "-- replacing C by nothing\n";
  current.override_instruments({});
  // [/snippet]

  // [snippet:timing]
  // Pass timing: a tree of the runs, as the sequential nests them.
  TimingInstrument timing;
  const Pass pipeline = parse_pipeline("SimplifyExpr,FoldConstant");
  {
    PassContext timed{{.instruments = {timing}}};
    auto scope = timed.enter();
    static_cast<void>(pipeline(input));
    std::cout << timing.render(); // before the scope ends, which clears the records
  }
  // [/snippet]

  // [snippet:print]
  // The module after chosen passes, and what each pass changed (a unified diff).
  {
    PassContext printing{{.instruments = {PrintIRInstrument::after({"SimplifyExpr"}, std::cout),
                                          PrintChangedInstrument(std::cout)}}};
    auto scope = printing.enter();
    static_cast<void>(pipeline(input));
  }
  // [/snippet]

  // [snippet:bisect]
  // Bisection: only the first N optional passes run (LLVM's -opt-bisect-limit).
  BisectInstrument bisect(1, {.log = &std::cout});
  {
    PassContext bisecting{{.instruments = {bisect}}};
    auto scope = bisecting.enter();
    static_cast<void>(pipeline(input));
  }
  std::cout << bisect.report() << '\n';
  // [/snippet]

  // [snippet:dump]
  // One file per step of the pipeline, each parsing back to the module, in a new folder
  // (two runs of this program at once must not share one).
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      ("ctir_example_dump_ir." + std::to_string(std::random_device{}()));
  DumpIRInstrument dump(folder);
  {
    PassContext dumping{{.instruments = {dump}}};
    auto scope = dumping.enter();
    static_cast<void>(pipeline(input));
  }
  for (const std::filesystem::path& file : dump.files()) {
    std::cout << file.filename().string() << '\n';
  }
  std::filesystem::remove_all(folder);
  // [/snippet]

  // [snippet:checks]
  // The checks: the IR is well-formed after each pass; no pass modified its input.
  const auto breaks_ir = make_function_pass("BreaksIR", 0, [](Function f) {
    return Function::make(f->params, Var::make("y"), f->ret_type); // %y is defined nowhere
  });
  const auto writes_input = make_function_pass("WritesInput", 0, [](Function f) {
    // Wrong on purpose: changes the node the input module holds instead of building one.
    const_cast<FunctionNode*>(f.get())->body = f->params[0];
    return f;
  });
  for (const Instrument& check :
       {Instrument(VerifyWellFormedInstrument()), Instrument(ImmutableInputInstrument())}) {
    PassContext checked{{.instruments = {check}}};
    auto scope = checked.enter();
    for (const Pass& pass : {Pass(breaks_ir), Pass(writes_input)}) {
      try {
        static_cast<void>(pass(parse_module(program, "program.ctir")));
        std::cout << check.name() << " accepts " << pass.info().name << '\n';
      } catch (const Error& error) {
        std::cout << error.what() << '\n';
      }
    }
  }
  // [/snippet]
  return 0;
}
