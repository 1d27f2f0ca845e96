// Runs a piece of a test in a child process, so that a crash fails one check, not the run.
#pragma once

#include <ctir/core/error.hpp>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>
#include <utility>

namespace ctir_test {

/// How a function run by run_in_child ended.
struct ChildOutcome {
  enum class Kind {
    returned,    ///< returned normally
    threw_error, ///< threw a ctir::Error (message holds its what())
    threw_other, ///< threw something else
    crashed,     ///< died (a signal, or a sanitizer's report)
    fork_failed, ///< could not run it at all
  };
  Kind kind = Kind::fork_failed;
  std::string message;

  bool threw_error() const noexcept { return kind == Kind::threw_error; }

  /// "returned", "threw ctir::Error: ...", "crashed", ... for failure messages.
  std::string describe() const {
    switch (kind) {
    case Kind::returned:
      return "returned normally";
    case Kind::threw_error:
      return "threw ctir::Error: " + message;
    case Kind::threw_other:
      return "threw an exception that is not a ctir::Error";
    case Kind::crashed:
      return "crashed";
    case Kind::fork_failed:
      return "could not fork";
    }
    return "?";
  }
};

/// Runs `f` in a forked child and reports how it ended; a std::string that `f` returns
/// comes back as the message.
///
/// For input that must be rejected with a ctir::Error but that a bug turns into a null
/// dereference: the check fails with "crashed" and the remaining tests still run.
template <class F>
ChildOutcome run_in_child(F&& f) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    return {};
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return {};
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    // Die quietly: no test framework or sanitizer report from the child.
    for (int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) {
      std::signal(signal, SIG_DFL);
    }
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDOUT_FILENO);
      ::dup2(null_fd, STDERR_FILENO);
    }
    int code = 0;
    std::string message;
    try {
      if constexpr (std::is_convertible_v<std::invoke_result_t<F>, std::string>) {
        message = std::forward<F>(f)();
      } else {
        std::forward<F>(f)();
      }
      code = 10;
    } catch (const ctir::Error& error) {
      code = 11;
      message = error.what();
    } catch (...) {
      code = 12;
    }
    ssize_t written = ::write(pipe_fds[1], message.data(), message.size());
    (void)written;
    ::close(pipe_fds[1]);
    ::_exit(code); // no atexit handlers, no leak report from the child
  }
  ::close(pipe_fds[1]);
  ChildOutcome outcome;
  char buffer[512];
  ssize_t n = 0;
  while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) {
    outcome.message.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 10) {
    outcome.kind = ChildOutcome::Kind::returned;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 11) {
    outcome.kind = ChildOutcome::Kind::threw_error;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 12) {
    outcome.kind = ChildOutcome::Kind::threw_other;
  } else {
    outcome.kind = ChildOutcome::Kind::crashed;
  }
  return outcome;
}

} // namespace ctir_test
