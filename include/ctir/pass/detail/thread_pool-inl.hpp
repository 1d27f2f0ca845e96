// Definitions of <ctir/pass/detail/thread_pool.hpp>.
#pragma once

#include <ctir/pass/detail/thread_pool.hpp>

#include <ctir/pass/config.hpp>
#include <ctir/pass/context.hpp>
#include <ctir/pass/error.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ctir::detail {

/// Whether this thread is inside parallel_for's tasks (a worker always is).
inline thread_local bool parallel_task_running = false;

/// One parallel_for: the calling thread and the helpers it got take indices from `next`.
struct ParallelJob {
  function_ref<void(std::size_t)> task;
  std::size_t count = 0;
  std::atomic<std::size_t> next{0};
  /// Helpers that took the job and have not finished it (guarded by the pool's mutex).
  std::size_t helpers_running = 0;
  std::condition_variable helpers_done;

  explicit ParallelJob(function_ref<void(std::size_t)> t, std::size_t n) : task(t), count(n) {}

  void work() noexcept {
    const bool outer = parallel_task_running;
    parallel_task_running = true;
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < count;
         i = next.fetch_add(1, std::memory_order_relaxed)) {
      task(i);
    }
    parallel_task_running = outer;
  }
};

/// Worker threads waiting for jobs; made on the first parallel run, grown on demand, and
/// never destroyed (a pass may run while the program exits; the threads end with it).
class ThreadPool {
public:
  /// The most helper threads one run may use.
  static constexpr unsigned max_helpers = 255;

  static ThreadPool& instance() {
    static ThreadPool* pool = new ThreadPool(); // NOLINT: deliberately never destroyed
    return *pool;
  }

  /// Runs `job` on the calling thread and up to `helpers` workers; returns when all are done.
  void run(ParallelJob& job, unsigned helpers) {
    {
      std::lock_guard lock(mutex_);
      grow(helpers);
      for (unsigned i = 0; i < helpers; ++i) {
        queue_.push_back(&job);
      }
    }
    if (helpers == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
    job.work();
    std::unique_lock lock(mutex_);
    // Entries no worker took are not needed any more: every index has been taken.
    queue_.erase(std::remove(queue_.begin(), queue_.end(), &job), queue_.end());
    job.helpers_done.wait(lock, [&] { return job.helpers_running == 0; });
  }

private:
  ThreadPool() = default;

  /// Makes sure there are at least `count` workers (with mutex_ held).
  void grow(unsigned count) {
    while (workers_.size() < count) {
      workers_.emplace_back([this] { serve(); });
      workers_.back().detach();
    }
  }

  void serve() {
    parallel_task_running = true; // a task a worker runs never waits for the pool
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return !queue_.empty(); });
      ParallelJob* job = queue_.front();
      queue_.pop_front();
      ++job->helpers_running;
      lock.unlock();
      job->work();
      lock.lock();
      if (--job->helpers_running == 0) {
        // Under the lock: the job's owner cannot see the count and destroy the job before
        // this notification is done.
        job->helpers_done.notify_all();
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<ParallelJob*> queue_;
  std::vector<std::thread> workers_;
};

CTIR_INLINE unsigned hardware_threads() noexcept {
  static const unsigned count = std::max(1u, std::thread::hardware_concurrency());
  return count;
}

CTIR_INLINE unsigned pass_threads(const PassContext& ctx) {
  const ConfigValue* value = ctx.find_config(pass_num_threads.key);
  if (value == nullptr) [[likely]] {
    return hardware_threads();
  }
  const int count = value->get<int>();
  if (count < 0) {
    throw ConfigError("ctir: pass config option '" + std::string(pass_num_threads.key) + "' is " +
                      std::to_string(count) +
                      "; expected 0 (the hardware's concurrency), 1 (serial) or more");
  }
  return count == 0 ? hardware_threads() : static_cast<unsigned>(count);
}

CTIR_INLINE bool in_parallel_task() noexcept { return parallel_task_running; }

CTIR_INLINE void parallel_for(std::size_t count, unsigned threads,
                              function_ref<void(std::size_t)> task) {
  if (threads <= 1 || count < 2 || parallel_task_running) {
    for (std::size_t i = 0; i < count; ++i) {
      task(i);
    }
    return;
  }
  const std::size_t wanted = std::min<std::size_t>(threads, count) - 1;
  const auto helpers =
      static_cast<unsigned>(std::min<std::size_t>(wanted, ThreadPool::max_helpers));
  ParallelJob job(task, count);
  ThreadPool::instance().run(job, helpers);
}

CTIR_INLINE std::size_t run_function_tasks(const PassContext& ctx, std::size_t count,
                                           unsigned threads, function_ref<bool(std::size_t)> task) {
  PassContext* const caller_context = current_context;
  std::vector<DiagnosticBuffer> held(count);
  std::vector<char> failed(count, 0);
  auto run_one = [&](std::size_t i) {
    PassContext* const saved_context = current_context;
    DiagnosticBuffer* const saved_buffer = diagnostic_buffer;
    current_context = caller_context;
    held[i].context = &ctx;
    diagnostic_buffer = &held[i];
    bool ok = false;
    try {
      ok = task(i);
    } catch (...) {
      ok = false; // the task reports its own exceptions; this one is only counted
    }
    failed[i] = ok ? 0 : 1;
    diagnostic_buffer = saved_buffer;
    current_context = saved_context;
  };
  parallel_for(count, threads, function_ref<void(std::size_t)>(run_one));
  std::size_t first_failed = count;
  for (std::size_t i = 0; i < count && first_failed == count; ++i) {
    if (failed[i] != 0) {
      first_failed = i;
    }
  }
  const std::size_t last = first_failed < count ? first_failed + 1 : count;
  for (std::size_t i = 0; i < last; ++i) {
    for (Diagnostic& diagnostic : held[i].diagnostics) {
      ctx.emit(std::move(diagnostic));
    }
  }
  return first_failed;
}

} // namespace ctir::detail
