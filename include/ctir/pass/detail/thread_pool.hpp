// Running the functions of a module on several threads: a small pool of worker threads,
// created on the first parallel run, and the thread count a PassContext allows.
#pragma once

#include <ctir/core/linkage.hpp>
#include <ctir/pass/detail/function_ref.hpp>

#include <cstddef>

namespace ctir {
class PassContext;
} // namespace ctir

namespace ctir::detail {

/// How many threads the hardware runs at once (at least 1); asked once.
unsigned hardware_threads() noexcept;

/// The number of threads a function pass may use under `ctx`: the context's
/// `pass.num_threads` (0, the default, stands for hardware_threads()). Throws ConfigError
/// for a negative count.
unsigned pass_threads(const PassContext& ctx);

/// Whether the calling thread is running a task of parallel_for: a parallel run started
/// from inside one runs serially (the pool never waits for itself).
bool in_parallel_task() noexcept;

/// Calls `task(i)` for every i in [0, count) on up to `threads` threads, the calling one
/// included, and returns when every call has returned. The calls are spread dynamically
/// (a thread takes the next index when it is done with one); `task` must not throw.
/// With `threads` <= 1, a count below 2, or from inside a task, the calls are made in
/// order on the calling thread.
void parallel_for(std::size_t count, unsigned threads, function_ref<void(std::size_t)> task);

/// parallel_for for the functions of a module under `ctx`: while task `i` runs, on any
/// thread, PassContext::current() is the caller's and the diagnostics it emits to `ctx` are
/// held back. `task(i)` returns false when function `i` failed. Afterwards, on the calling
/// thread, the held diagnostics of the tasks up to the first failed one are emitted in
/// index order (those a serial run would have emitted, in its order). Returns the index of
/// the first failed task, or `count`.
std::size_t run_function_tasks(const PassContext& ctx, std::size_t count, unsigned threads,
                               function_ref<bool(std::size_t)> task);

} // namespace ctir::detail

#ifdef CTIR_HEADER_ONLY
#include <ctir/pass/detail/thread_pool-inl.hpp>
#endif
