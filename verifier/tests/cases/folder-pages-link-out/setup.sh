# pages/ moved out of the repository and linked back (F06)
out=../folder-pages-link-out.outside
mkdir -p "$out" && mv pages "$out/" && ln -s "$out/pages" pages
