# a second, identical run of a lesson of several files (a header beside the
# program and one in programs/common/): it is current, so update carries it.
# update once compared the program's own hash with the lesson's and refused
# every such run as stale.
cp evidence/day02-scan/run-2026-11-30.txt evidence/day02-scan/run-2026-11-30-2.txt
