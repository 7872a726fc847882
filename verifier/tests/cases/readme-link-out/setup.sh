# R13: a program README that is a link out of the repository is the same
# error as a page that is one, never skipped without a word
out=../readme-link-out.outside
mkdir -p "$out" && printf 'The racy kernel took 9.99 ms.\n' > "$out/README.md"
ln -s "$(cd "$out" && pwd)/README.md" programs/day01-demo/README.md
