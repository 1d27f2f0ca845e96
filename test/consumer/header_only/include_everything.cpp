// A translation unit that includes all of ctir and does nothing: it must run no code before
// main (nothing registers itself while the program starts).
#include <ctir/all.hpp>
