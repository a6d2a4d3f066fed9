# The two commands of the README. Each installs what is missing first.
.PHONY: run test

run:
	scripts/run

test:
	scripts/test
