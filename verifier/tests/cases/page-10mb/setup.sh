i=0
{ cat pages/day01-demo.md; echo; while [ $i -lt 95000 ]; do
  echo "A filler paragraph: the racy kernel gets 70,320 elements wrong out of 1,049,187, and \`sm_90\` stays code."; echo; i=$((i+1)); done;
  echo "The last paragraph quotes 70,321 wrong elements."; } > big && mv big pages/day01-demo.md
