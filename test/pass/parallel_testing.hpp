// Helpers for the tests of function passes run on several threads: large generated modules
// with shared values, contexts with a thread count, and a rendezvous of two functions.
#pragma once

#include <ctir/ir/module.hpp>
#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/text/parser.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <utility>

namespace ctir::testing {

/// A module of `count` graph-level functions `@g<k>` and `count` tensor-level functions
/// `@p<k>`, interleaved. Each graph-level function uses a shared value twice
/// (`%0 = add(%x, ...)` feeds two equal `exp` calls) and adds a sum of constants; each
/// tensor-level function has a loop marked unroll and a loop of one iteration over
/// foldable arithmetic. FoldConstant, EliminateCommonSubexpr, Simplify and UnrollLoop all
/// change every function.
inline IRModule many_functions_module(int count) {
  std::string text;
  for (int k = 0; k < count; ++k) {
    const std::string n = std::to_string(k);
    text += "def @g" + n + "(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n" +
            "  %0 = add(%x, const([" + n + "f, 1f]));\n" +              //
            "  %1 = exp(%0);\n" +                                       //
            "  %2 = exp(%0);\n" +                                       //
            "  %3 = multiply(%1, %2);\n" +                              //
            "  %4 = add(const([1f, 2f]), const([3f, " + n + "f]));\n" + //
            "  add(%3, %4)\n" +                                         //
            "}\n";
    text += "prim @p" + n + "(%A: Tensor[(8), int32]) {\n" + //
            "  for %i in unroll(0, 4) {\n" +                 //
            "    %A[%i] = %i * (1 + 1) + " + n + ";\n" +     //
            "  }\n" +                                        //
            "  for %j in range(0, 1) {\n" +                  //
            "    %A[%j + 4] = " + n + " * 2;\n" +            //
            "  }\n" +                                        //
            "}\n";
  }
  return parse_module(text, "many_functions");
}

/// Options of a context whose function passes use `threads` threads.
inline PassContextOptions with_threads(int threads, PassContextOptions options = {}) {
  options.config.push_back({std::string(pass_num_threads.key), threads});
  return options;
}

/// Two parties meet: each `arrive()` waits until both have arrived (true), or gives up
/// after `timeout` (false). Two functions of a pass meet only if they run at the same time.
class Rendezvous {
public:
  explicit Rendezvous(std::chrono::milliseconds timeout) : timeout_(timeout) {}
  bool arrive() {
    std::unique_lock lock(mutex_);
    ++arrived_;
    met_.notify_all();
    return met_.wait_for(lock, timeout_, [&] { return arrived_ >= 2; });
  }

private:
  std::mutex mutex_;
  std::condition_variable met_;
  int arrived_ = 0;
  std::chrono::milliseconds timeout_;
};

} // namespace ctir::testing
