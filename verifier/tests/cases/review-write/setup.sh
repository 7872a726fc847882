# a file where the review folder should be: the folder cannot be made
touch not-a-folder
