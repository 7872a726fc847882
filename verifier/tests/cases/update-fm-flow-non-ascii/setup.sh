# a flow mapping whose label is not ASCII: libyaml's column counts
# characters, the rewrite counts bytes (F04)
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's#^evidence: .*#evidence: {"ré": evidence/day01-demo/run-2026-11-30.txt}#' pages/day01-demo.md
