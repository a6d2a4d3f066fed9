# The two commands of the README. Each installs what is missing first.
.PHONY: run test check

run:
	scripts/run

test:
	scripts/test

# The quick loop for contributors (CONTRIBUTING.md): build, generated code, public API, swift test.
check:
	scripts/check
