# evidence/ moved out of the repository and linked back
out=../folder-evidence-link-out.outside
mkdir -p "$out" && mv evidence "$out/" && ln -s "$out/evidence" evidence
