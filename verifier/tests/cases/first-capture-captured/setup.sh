# captured since: the page still says none yet
sed -i 's|^evidence: .*|evidence: none yet|' pages/day01-demo.md
