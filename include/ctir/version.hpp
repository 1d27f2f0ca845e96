// The version of ctir, equal to the project version in the top-level CMakeLists.txt.
#pragma once

#define CTIR_VERSION_MAJOR 0
#define CTIR_VERSION_MINOR 1
#define CTIR_VERSION_PATCH 0
#define CTIR_VERSION_STRING "0.1.0"
