# a lesson folder linked out of the repository
out=../folder-lesson-link-out.outside
mkdir -p "$out" && cp -R programs/day01-demo "$out/day02-out" && ln -s "$(cd "$out" && pwd)/day02-out" programs/day02-out
