# The game server in a container (docs/deploy.md). From the repository's root:
#   docker build -t liverpool-rummy .
#   docker run -p 8000:8000 -v liverpool-data:/home/liverpool/.local/share/liverpool-rummy liverpool-rummy
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# the package with the server's extra (psycopg's binary wheel: no compiler needed)
WORKDIR /tmp/build
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip install ".[server]" && cd / && rm -rf /tmp/build

# the server needs no rights: its own user, a port above 1024
RUN useradd --create-home --uid 10001 --user-group liverpool
USER liverpool
WORKDIR /home/liverpool
# where the SQLite file lives when no --database is given (a volume keeps it)
RUN mkdir -p /home/liverpool/.local/share/liverpool-rummy

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["liverpool", "serve", "--host", "0.0.0.0"]
