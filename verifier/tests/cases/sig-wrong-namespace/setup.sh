# the course's key, but a signature made for another purpose (namespace)
ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n file evidence/day01-demo/run-2026-11-30.txt
