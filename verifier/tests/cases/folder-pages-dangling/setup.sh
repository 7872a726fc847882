# pages/ is a link to nothing: the course is there, its pages cannot be listed
rm -rf pages && ln -s gone pages
