ln -s /etc programs/day01-demo/outside
