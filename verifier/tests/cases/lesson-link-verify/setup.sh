# a link in a lesson folder is refused: it could lead out of the repository
ln -s /etc/passwd programs/day02-scan/data.txt
