# a .sig that is no SSH signature: armored, but its base64 cut short
printf -- '-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg\n-----END SSH SIGNATURE-----\n' \
	>evidence/day01-demo/run-2026-11-30.txt.sig
