# a lesson folder that is a symbolic-link loop
ln -s loop programs/loop
