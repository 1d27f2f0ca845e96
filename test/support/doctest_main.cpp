// The main() shared by every ctir test executable.
//
// It starts the way a compiler built on ctir starts: the standard passes registered by name
// and the text printer handed to the structural-equality reports, both explicitly, since
// including ctir's headers registers nothing.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <ctir/passes/register.hpp>
#include <ctir/text/install_printer.hpp>

int main(int argc, char** argv) {
  ctir::passes::register_standard_passes();
  ctir::install_printer();
  return doctest::Context(argc, argv).run();
}
