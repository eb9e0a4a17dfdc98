# syntax=docker/dockerfile:1
# tablée: one app process (uvicorn) per container. `tablee serve` applies the migrations at
# start-up; replicas starting together take turns (a PostgreSQL advisory lock around them).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN python -m venv /opt/tablee && /opt/tablee/bin/pip install --quiet .

FROM python:3.11-slim
ENV PATH=/opt/tablee/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    TABLEE_HOST=0.0.0.0 \
    TABLEE_PORT=8000 \
    TABLEE_DATABASE_URL=sqlite+aiosqlite:////var/lib/tablee/tablee.db
RUN groupadd --system --gid 10001 tablee \
    && useradd --system --uid 10001 --gid tablee --home-dir /var/lib/tablee --shell /usr/sbin/nologin tablee \
    && mkdir -p /var/lib/tablee && chown tablee:tablee /var/lib/tablee
COPY --from=build /opt/tablee /opt/tablee
WORKDIR /var/lib/tablee
USER tablee
EXPOSE 8000
VOLUME ["/var/lib/tablee"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('TABLEE_PORT', '8000')}/healthz\", timeout=2)"]
CMD ["tablee", "serve"]
