// The text format: printer, parser and their diagnostics.
#pragma once

#include <ctir/text/diagnostic.hpp>
#include <ctir/text/dot.hpp>
#include <ctir/text/install_printer.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>
