# Three pages of one lesson whose evidence folder is linked out of the
# repository, and a lesson folder linked out too: each refused folder is
# reported once, where one process reports it (the evidence folder at the
# first page, the lesson folder at the listing), under any -j.
out=../jobs-folder-once.outside
mkdir -p "$out" && mv evidence/day01-demo "$out/" && ln -s "$(cd "$out" && pwd)/day01-demo" evidence/day01-demo
cp -R programs/day01-demo "$out/day02-out" && ln -s "$(cd "$out" && pwd)/day02-out" programs/day02-out
cp pages/day01-demo.md pages/day01-demo-b.md
cp pages/day01-demo.md pages/day01-demo-c.md
