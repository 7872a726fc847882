# a lesson folder whose name holds a line feed (F12)
name=$(printf 'he\nllo')
mkdir "programs/$name" && cp programs/day01-demo/demo.cu "programs/$name/hello.cu"
