# the review file's name is taken by a folder: the write fails, named
mkdir -p out/day01-demo.html
