# a lesson folder whose program is not a .cu file: the message says what it
# found and how to name the program
cd programs/day02-scan
mkdir src
mv scan.cu src/main.cpp
mv tile.cu src/tile.cpp
printf 'cmake_minimum_required(VERSION 3.18)\n' >CMakeLists.txt
