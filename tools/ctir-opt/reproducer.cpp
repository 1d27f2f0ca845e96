// ctir-opt's crash reproducer: the instrument that prepares it, the signal handler that
// writes it, and the reading of its command line back.
#include "reproducer.hpp"

#include "io.hpp"

#include <ctir/runtime/pass/pipeline.hpp>
#include <ctir/text/printer.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <fcntl.h>
#include <optional>
#include <signal.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>

namespace ctir_opt {
namespace {

/// The environment variable that makes a pass crash, to test the signal handler: with
/// `--reproducer`, `NAME` raises SIGSEGV as the pass NAME starts, `NAME:stack-overflow`
/// recurses there until the stack runs out (no pass of ctir crashes on purpose, and the
/// handler must be tested on real signals).
constexpr const char* crash_variable = "CTIR_OPT_TEST_CRASH_IN_PASS";
constexpr std::string_view stack_overflow_suffix = ":stack-overflow";

/// Never set: it only keeps the compiler from seeing that exhaust_stack never returns.
volatile bool stop_recursion = false;

/// Recurses until the stack runs out, a kilobyte a call (the addition after the call keeps
/// it from becoming a loop).
[[gnu::noinline]] std::size_t exhaust_stack(std::size_t depth) {
  if (stop_recursion) {
    return depth;
  }
  volatile char frame[1024];
  frame[depth % sizeof(frame)] = static_cast<char>(depth);
  return exhaust_stack(depth + 1) + static_cast<std::size_t>(frame[depth % sizeof(frame)]);
}

/// What is written for a failure of one pass: the whole file, and the lines a fatal signal
/// prints (prepared in advance: a signal handler may not allocate).
struct Snapshot {
  std::string content;
  /// What follows `ctir-opt: error: fatal signal SIGxxx`: ` in pass 'NAME'` and a newline.
  std::string signal_where;
  /// The note saying where the reproducer went.
  std::string signal_note;
  /// Why there is no content (the module could not be printed), else empty.
  std::string missing;
};

/// The reproducer of the pass running now, for the signal handler. Only the thread that
/// runs the pipeline changes it, so the handler sees a complete Snapshot or null.
std::atomic<const Snapshot*> current_snapshot{nullptr};
/// The file the signal handler writes (set while the handler is installed).
std::atomic<const char*> signal_path{nullptr};

static_assert(std::atomic<const Snapshot*>::is_always_lock_free,
              "the signal handler reads the snapshot pointer: it must be lock-free");

/// `word` as one shell word: bare when it holds only characters no shell treats specially,
/// else in single quotes (a quote inside as '\'').
std::string shell_word(std::string_view word) {
  const auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == '/' || c == '=' || c == ':' || c == '@' || c == '+' ||
           c == '%';
  };
  bool bare = !word.empty();
  for (const char c : word) {
    bare = bare && plain(c);
  }
  if (bare) {
    return std::string(word);
  }
  std::string out = "'";
  for (const char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

/// Writes all of `text` to `fd` with write(2) alone (async-signal-safe).
bool write_all(int fd, std::string_view text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

struct SignalName {
  int number;
  std::string_view name;
};
constexpr SignalName fatal_signals[] = {{SIGSEGV, "SIGSEGV"},
                                        {SIGBUS, "SIGBUS"},
                                        {SIGFPE, "SIGFPE"},
                                        {SIGILL, "SIGILL"},
                                        {SIGABRT, "SIGABRT"}};

extern "C" void on_fatal_signal(int signal_number) {
  const int saved_errno = errno;
  const Snapshot* snapshot = current_snapshot.load();
  const char* path = signal_path.load();
  if (snapshot != nullptr && path != nullptr) {
    std::string_view name = "";
    for (const SignalName& known : fatal_signals) {
      name = known.number == signal_number ? known.name : name;
    }
    write_all(STDERR_FILENO, "ctir-opt: error: fatal signal ");
    write_all(STDERR_FILENO, name);
    write_all(STDERR_FILENO, snapshot->signal_where);
    bool written = false;
    if (!snapshot->content.empty()) {
      const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd >= 0) {
        written = write_all(fd, snapshot->content);
        written = ::close(fd) == 0 && written;
      }
    }
    write_all(STDERR_FILENO, written ? std::string_view(snapshot->signal_note)
                                     : "ctir-opt: note: no reproducer written\n");
  }
  errno = saved_errno;
  // SA_RESETHAND restored the default action: the process ends by this signal, as it would
  // have without the handler (a core dump, the exit status a shell reports).
  ::raise(signal_number);
}

/// The installed handler: restores the previous actions and stack when destroyed.
class SignalHandlers {
public:
  explicit SignalHandlers(const std::string& path) : path_(path), stack_(std::size_t{1} << 16) {
    stack_t alternate{};
    alternate.ss_sp = stack_.data();
    alternate.ss_size = stack_.size();
    has_stack_ = ::sigaltstack(&alternate, &old_stack_) == 0;
    signal_path.store(path_.c_str());
    struct sigaction action {};
    action.sa_handler = &on_fatal_signal;
    sigemptyset(&action.sa_mask);
    // The flags are unsigned in some C libraries and sa_flags is an int.
    action.sa_flags = static_cast<int>(SA_RESETHAND | SA_NODEFER | SA_ONSTACK);
    for (std::size_t i = 0; i < std::size(fatal_signals); ++i) {
      ::sigaction(fatal_signals[i].number, &action, &old_actions_[i]);
    }
  }
  SignalHandlers(const SignalHandlers&) = delete;
  SignalHandlers& operator=(const SignalHandlers&) = delete;
  ~SignalHandlers() {
    for (std::size_t i = 0; i < std::size(fatal_signals); ++i) {
      ::sigaction(fatal_signals[i].number, &old_actions_[i], nullptr);
    }
    signal_path.store(nullptr);
    current_snapshot.store(nullptr);
    if (has_stack_) {
      ::sigaltstack(&old_stack_, nullptr);
    }
  }

private:
  std::string path_;
  std::vector<char> stack_;
  stack_t old_stack_{};
  bool has_stack_ = false;
  struct sigaction old_actions_[std::size(fatal_signals)]{};
};

/// Where a pass sits in the pipeline: the indices of the sequentials' elements leading to it
/// (empty: the pipeline itself).
using Path = std::vector<std::size_t>;

} // namespace

struct ReproducerInstrument::State {
  /// A pass running (or the pipeline itself, at the bottom of the stack).
  struct Frame {
    const ctir::PassInfo* info = nullptr;
    /// Where the pass sits, when it is an element of the pipeline.
    std::optional<Path> path;
    /// For an element of a sequential built at run time: the index of its last element that
    /// started, if any.
    std::optional<std::size_t> last_started;
    std::shared_ptr<const Snapshot> snapshot;
  };

  State(std::string file, ctir::Pass top, std::vector<std::string> options)
      : path(std::move(file)), pipeline(std::move(top)), flags(std::move(options)) {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): read once, before any pass runs
    if (const char* name = std::getenv(crash_variable)) {
      crash_in = name;
      crash_by_stack_overflow = crash_in.ends_with(stack_overflow_suffix);
      if (crash_by_stack_overflow) {
        crash_in.resize(crash_in.size() - stack_overflow_suffix.size());
      }
    }
  }

  std::string path;
  ctir::Pass pipeline;
  std::vector<std::string> flags;
  /// The pass in which to crash (see crash_variable), or empty, and how.
  std::string crash_in;
  bool crash_by_stack_overflow = false;
  std::unordered_map<const ctir::PassInfo*, Path> index;
  /// A sequential compiled statically (DefaultPipeline) has no run-time elements; its
  /// pipeline text parsed again gives them, to place its passes by name.
  std::unordered_map<const ctir::PassInfo*, ctir::Pass> expansions;
  std::vector<Frame> stack;
  /// The reproducer of the first pass whose failure the instrument saw.
  std::shared_ptr<const Snapshot> failed;
  /// The last module printed and its text: a pass that returns its input costs no print.
  std::optional<ctir::IRModule> printed;
  std::string printed_text;

  /// Indexes `pass` (at `path`) and the elements of the sequentials in it.
  void index_passes(const ctir::Pass& pass, Path& where) {
    index.emplace(&pass.info(), where);
    if (pass.is_sequential() && pass.passes().empty()) {
      try {
        ctir::Pass parsed = ctir::parse_pipeline(pass.str());
        if (!parsed.passes().empty()) {
          expansions.emplace(&pass.info(), std::move(parsed));
        }
      } catch (const std::exception&) {
        // A sequential whose text does not parse back is reproduced whole.
      }
    }
    const std::vector<ctir::Pass>& children = pass.passes();
    for (std::size_t i = 0; i < children.size(); ++i) {
      where.push_back(i);
      index_passes(children[i], where);
      where.pop_back();
    }
  }

  /// The elements of a sequential: its own, or those of its expansion.
  const std::vector<ctir::Pass>& elements_of(const ctir::Pass& pass) const {
    if (const auto found = expansions.find(&pass.info()); found != expansions.end()) {
      return found->second.passes();
    }
    return pass.passes();
  }

  const ctir::Pass& node_at(const Path& where) const {
    const ctir::Pass* node = &pipeline;
    for (const std::size_t i : where) {
      node = &elements_of(*node)[i];
    }
    return *node;
  }

  /// Whether the sequential at `where` is expanded: its passes are placed by name.
  bool is_expanded(const Path& where) const { return expansions.contains(&node_at(where).info()); }

  /// The pipeline from element `from` of the sequential at `where` on: those elements, then
  /// the elements after each enclosing one (the enclosing sequentials have passed their
  /// opt_level check already; each pass is checked again in the reproducer).
  std::string remaining(const Path& where, std::size_t from) const {
    std::string text;
    const auto add = [&text](const ctir::Pass& pass) {
      text += text.empty() ? "" : ",";
      text += pass.str();
    };
    const std::vector<ctir::Pass>& own = elements_of(node_at(where));
    for (std::size_t i = from; i < own.size(); ++i) {
      add(own[i]);
    }
    for (std::size_t level = where.size(); level-- > 0;) {
      const Path outer(where.begin(), where.begin() + static_cast<std::ptrdiff_t>(level));
      const std::vector<ctir::Pass>& elements = elements_of(node_at(outer));
      for (std::size_t i = where[level] + 1; i < elements.size(); ++i) {
        add(elements[i]);
      }
    }
    return text;
  }

  std::shared_ptr<const Snapshot> snapshot(const ctir::IRModule& mod, std::string_view pass_name,
                                           const std::string& pipeline_text) {
    auto result = std::make_shared<Snapshot>();
    const std::string what =
        pass_name.empty() ? std::string("the pipeline") : "pass " + quoted(pass_name);
    result->signal_where = " in " + what + "\n";
    if (!printed || !printed->same_as(mod)) {
      printed.reset();
      try {
        printed_text = ctir::print(mod);
        printed = mod;
      } catch (const std::exception& error) {
        result->missing = "the module before " + what + " cannot be printed: " + error.what();
        return result;
      }
    }
    std::string line(reproducer_marker);
    for (const std::string& flag : flags) {
      line += " " + shell_word(flag);
    }
    line += " -p " + shell_word(pipeline_text);
    if (line.find_first_of("\r\n") != std::string::npos) {
      result->missing = "an option or the pipeline holds a line break, which the reproducer "
                        "line cannot hold";
      return result;
    }
    result->content = line + "\n# The module before " + what +
                      " ran; run the pipeline above on it with: ctir-opt FILE "
                      "--run-reproducer\n" +
                      printed_text;
    result->signal_note = "ctir-opt: note: reproducer written to " + quoted(path) +
                          "; run it with: ctir-opt " + shell_word(path) + " --run-reproducer\n";
    return result;
  }

  void publish() { current_snapshot.store(stack.empty() ? nullptr : stack.back().snapshot.get()); }

  /// Pops the frames down to (and with) the one of `info`.
  void pop(const ctir::PassInfo& info) {
    for (std::size_t i = stack.size(); i-- > 1;) {
      if (stack[i].info == &info) {
        stack.resize(i);
        break;
      }
    }
    publish();
  }
};

std::vector<std::string> reproducer_flags(const Options& options) {
  std::vector<std::string> flags = {"--opt-level", std::to_string(options.opt_level)};
  const auto add_list = [&flags](const char* flag, const std::vector<std::string>& names) {
    if (names.empty()) {
      return;
    }
    std::string joined;
    for (const std::string& name : names) {
      joined += (joined.empty() ? "" : ",") + name;
    }
    flags.emplace_back(flag);
    flags.push_back(std::move(joined));
  };
  add_list("--disable", options.disabled);
  add_list("--required", options.required);
  for (const auto& [key, value] : options.config) {
    flags.emplace_back("--config");
    flags.push_back(key + "=" + value);
  }
  if (options.verify_each) {
    flags.emplace_back("--verify-each");
  }
  return flags;
}

std::vector<std::string> reproducer_arguments(std::string_view text, std::string_view file_name) {
  const std::string where(file_name);
  // The line: among the comment (and blank) lines that open the file.
  std::optional<std::string_view> line;
  while (!text.empty() && !line) {
    const std::size_t end = text.find('\n');
    std::string_view current = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (current.starts_with("\xEF\xBB\xBF")) {
      current.remove_prefix(3); // a byte-order mark
    }
    while (!current.empty() && (current.front() == ' ' || current.front() == '\t')) {
      current.remove_prefix(1);
    }
    if (current.starts_with(reproducer_marker)) {
      line = current.substr(reproducer_marker.size());
    } else if (!current.empty() && current != "\r" && !current.starts_with('#')) {
      break;
    }
  }
  if (!line) {
    throw UsageError("--run-reproducer: " + where + " has no '" + std::string(reproducer_marker) +
                     " ...' line among the comments that open it");
  }

  // Shell words: quotes group, a backslash outside single quotes takes the next character.
  std::vector<std::string> words;
  std::optional<std::string> word;
  for (std::size_t i = 0; i < line->size(); ++i) {
    const char c = (*line)[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      if (word) {
        words.push_back(std::move(*word));
        word.reset();
      }
      continue;
    }
    if (!word) {
      word.emplace();
    }
    if (c == '\'' || c == '"') {
      const std::size_t close = line->find(c, i + 1);
      if (close == std::string_view::npos) {
        throw UsageError("--run-reproducer: the reproducer line of " + where + " has a " +
                         (c == '\'' ? "single" : "double") + " quote that is not closed");
      }
      for (std::size_t k = i + 1; k < close; ++k) {
        if (c == '"' && (*line)[k] == '\\' && k + 1 < close) {
          ++k;
        }
        *word += (*line)[k];
      }
      i = close;
    } else if (c == '\\' && i + 1 < line->size()) {
      *word += (*line)[++i];
    } else {
      *word += c;
    }
  }
  if (word) {
    words.push_back(std::move(*word));
  }

  // Only the options a reproducer carries: a reproducer file from elsewhere must not make
  // ctir-opt write files (-o, --dump-ir) or read others.
  constexpr std::string_view with_value[] = {"-p",        "--pipeline", "--opt-level",
                                             "--disable", "--required", "--config"};
  bool has_pipeline = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& arg = words[i];
    const std::string name = arg.starts_with("--") ? arg.substr(0, arg.find('=')) : arg;
    if (name == "--verify-each" && name == arg) {
      continue;
    }
    bool known = false;
    for (const std::string_view option : with_value) {
      known = known || name == option;
    }
    if (!known || (name == "-p" && arg != name)) {
      throw UsageError("--run-reproducer: the reproducer line of " + where + " has " + quoted(arg) +
                       "; it may hold only -p, --opt-level, --disable, --required, --config "
                       "and --verify-each");
    }
    has_pipeline = has_pipeline || name == "-p" || name == "--pipeline";
    if (name == arg) {
      ++i; // the value (parse_command_line says so if it is missing)
    }
  }
  if (!has_pipeline) {
    throw UsageError("--run-reproducer: the reproducer line of " + where +
                     " names no pipeline (-p)");
  }
  return words;
}

ReproducerInstrument::ReproducerInstrument(std::string path, ctir::Pass pipeline,
                                           std::vector<std::string> flags)
    : state_(std::make_shared<State>(std::move(path), std::move(pipeline), std::move(flags))) {
  Path where;
  state_->index_passes(state_->pipeline, where);
}

void ReproducerInstrument::start(const ctir::IRModule& input) const {
  State& state = *state_;
  state.stack.clear();
  state.failed.reset();
  State::Frame root;
  root.info = &state.pipeline.info();
  root.path.emplace();
  root.snapshot = state.snapshot(input, "", state.remaining({}, 0));
  state.stack.push_back(std::move(root));
  state.publish();
}

void ReproducerInstrument::run_before_pass(const ctir::IRModule& mod,
                                           const ctir::PassInfo& info) const {
  State& state = *state_;
  if (state.stack.empty()) {
    start(mod);
  }
  State::Frame frame;
  frame.info = &info;
  State::Frame& parent = state.stack.back();
  const auto next_of = [](const State::Frame& sequential) {
    return sequential.last_started ? *sequential.last_started + 1 : 0;
  };
  std::optional<Path> path;
  if (const auto found = state.index.find(&info); found != state.index.end()) {
    path = found->second;
  } else if (parent.path && state.is_expanded(*parent.path)) {
    // A pass of a static sequential: the first element of that name not yet started (a
    // static sequential runs its elements in order).
    const std::vector<ctir::Pass>& elements = state.elements_of(state.node_at(*parent.path));
    for (std::size_t i = next_of(parent); i < elements.size() && !path; ++i) {
      if (elements[i].info().name == info.name) {
        path = *parent.path;
        path->push_back(i);
      }
    }
  }
  if (path) {
    frame.path = path;
    const Path outer(path->begin(), path->end() - 1);
    if (parent.path == outer) {
      parent.last_started = path->back();
    }
    frame.snapshot = state.snapshot(mod, info.name, state.remaining(outer, path->back()));
  } else if (parent.path && !state.elements_of(state.node_at(*parent.path)).empty()) {
    // A pass the sequential runs for a requirement of its next element: from that element on.
    frame.snapshot = state.snapshot(mod, info.name, state.remaining(*parent.path, next_of(parent)));
  } else {
    // Inside a pass the instrument cannot look into: reproduced by that pass.
    frame.snapshot = parent.snapshot;
  }
  state.stack.push_back(std::move(frame));
  state.publish();
  if (!state.crash_in.empty() && info.name == state.crash_in) {
    // As the pass would crash: after every hook before it.
    if (state.crash_by_stack_overflow) {
      static_cast<void>(exhaust_stack(0));
    }
    std::raise(SIGSEGV);
  }
}

void ReproducerInstrument::run_after_pass(const ctir::IRModule&, const ctir::PassInfo& info) const {
  state_->pop(info);
}

void ReproducerInstrument::run_after_pass_failed(const ctir::IRModule&, const ctir::PassInfo& info,
                                                 const ctir::Error&) const {
  State& state = *state_;
  // The innermost pass fails first; a verifier failing after a pass has returned leaves that
  // pass's frame on top, so it is the one reported when its enclosing sequential fails.
  if (!state.failed && !state.stack.empty()) {
    state.failed = state.stack.back().snapshot;
  }
  state.pop(info);
}

std::string ReproducerInstrument::write() const {
  const State& state = *state_;
  std::shared_ptr<const Snapshot> snapshot = state.failed;
  if (!snapshot && !state.stack.empty()) {
    snapshot = state.stack.back().snapshot; // the failure was reported after a pass returned
  }
  if (!snapshot) {
    return "ctir-opt: note: no reproducer written: no pass was running\n";
  }
  if (snapshot->content.empty()) {
    return "ctir-opt: note: no reproducer written: " + snapshot->missing + "\n";
  }
  try {
    write_output(state.path, snapshot->content);
  } catch (const IoError& error) {
    return "ctir-opt: note: no reproducer written: " + std::string(error.what()) + "\n";
  }
  return "ctir-opt: note: reproducer written to " + quoted(state.path) +
         "; run it with: ctir-opt " + shell_word(state.path) + " --run-reproducer\n";
}

std::shared_ptr<void> ReproducerInstrument::catch_fatal_signals() const {
  auto handlers = std::make_shared<SignalHandlers>(state_->path);
  state_->publish();
  return handlers;
}

} // namespace ctir_opt
