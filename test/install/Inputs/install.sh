#!/bin/sh
# install.sh BUILD PREFIX [all]: installs BUILD into PREFIX: the tool and
# the C API stripped, and the files to build with them; with "all", also
# the static C++ component libraries and their headers (100+ MB).
set -e
cmake --install "$1" --prefix "$2" --component Runtime --strip >/dev/null
cmake --install "$1" --prefix "$2" --component Development >/dev/null
if [ "$3" = all ]; then
  cmake --install "$1" --prefix "$2" --component Libraries >/dev/null
fi
