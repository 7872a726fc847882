# editing the shared header makes the evidence stale, naming the header
sed -i 's/std::exit(1);/std::exit(2);/' programs/common/check.h
