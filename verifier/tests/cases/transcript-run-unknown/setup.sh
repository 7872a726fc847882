sed -i 's|<!-- transcript: racecheck/stderr -->|<!-- transcript: memcheck/stderr -->|; s|<!-- transcript: racecheck/stdout -->|<!-- transcript: racecheck/stdlog -->|' pages/day02-scan.md
