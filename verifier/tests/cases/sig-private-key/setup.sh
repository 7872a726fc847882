# a key file left in the repository, in evidence/ and in the lesson folder
# (its first line is what gives it away; the rest is cut short here)
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n' >evidence/node-key
printf -- '\n-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----\n' >programs/day01-demo/id_ed25519
