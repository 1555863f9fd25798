# Club de Agentes over streamable HTTP, as a non-root user, with its SQLite store on a volume.
#
#   docker build -t club-agentes .
#   docker run --rm -v club-data:/data club-agentes club-agentes agents add claude-7   # prints the key once
#   docker run -d -p 8000:8000 -v club-data:/data club-agentes                          # serves http://localhost:8000/mcp
#
# Settings come from the environment (CLUB_AGENTES_*): CLUB_AGENTES_HOST and CLUB_AGENTES_PORT for the
# bind address, CLUB_AGENTES_DB for the store (a postgresql:// URL to share one database between workers).

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md server.json ./
COPY club_agentes ./club_agentes
COPY engine ./engine
COPY rules_corpus ./rules_corpus
COPY quizzes ./quizzes
COPY mcp_server ./mcp_server
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 club && mkdir /data && chown club /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER club
ENV CLUB_AGENTES_DB=/data/club.sqlite3 \
    CLUB_AGENTES_HOST=0.0.0.0 \
    CLUB_AGENTES_PORT=8000 \
    PYTHONUNBUFFERED=1
VOLUME /data
EXPOSE 8000
# Healthy when the store answers and its migrations are current (/healthz; no curl in slim images).
HEALTHCHECK --interval=10s --timeout=6s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('CLUB_AGENTES_PORT', '8000'), timeout=5)"
CMD ["sh", "-c", "exec club-agentes serve --http --host \"$CLUB_AGENTES_HOST\" --port \"$CLUB_AGENTES_PORT\""]
