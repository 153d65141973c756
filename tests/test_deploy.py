"""docs/deploy.md: the Dockerfile, deploy/compose.yaml and deploy/Caddyfile.

No container engine runs on the test machines, so the image is not built
here: its parts are checked instead — the files say what the docs say, every
option the compose file gives ``liverpool serve`` is one it has, and the
compose file's command, with the same options, serves two processes on a real
PostgreSQL and Redis from the package as ``pip install .`` installs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from click.testing import CliRunner
from servers import PostgresServer, RedisServer
from test_server_support import free_port

from liverpool.server.cli import serve_command

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "compose.yaml"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return data


def serve_args() -> list[str]:
    command = compose()["services"]["liverpool"]["command"]
    assert isinstance(command, list), command
    assert all(isinstance(a, str) for a in command), command
    assert command[:2] == ["liverpool", "serve"]
    return list(command[2:])


def option(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_the_compose_file() -> None:
    data = compose()
    services = data["services"]
    assert set(services) == {"postgres", "redis", "liverpool", "caddy"}
    args = serve_args()
    assert option(args, "--workers") == "2"
    assert option(args, "--host") == "0.0.0.0"  # noqa: S104 - in the container, behind Caddy
    database = option(args, "--database")
    assert database == ("postgresql+psycopg://liverpool:${POSTGRES_PASSWORD}@postgres:5432/"
                        + services["postgres"]["environment"]["POSTGRES_DB"])
    assert option(args, "--redis").startswith("redis://redis:6379/")
    assert "--proxy-headers" in args
    assert "--forwarded-allow-ips" in args
    # the server's port only on the compose network: nobody but Caddy reaches it
    app = services["liverpool"]
    assert "ports" not in app
    assert app["expose"] == [option(args, "--port")]
    assert app["build"] == {"context": "..", "dockerfile": "Dockerfile"}
    assert set(app["depends_on"]) == {"postgres", "redis"}
    assert services["caddy"]["ports"][:2] == ["80:80", "443:443"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]
    assert set(data["volumes"]) == {"postgres", "caddy_data", "caddy_config"}
    # the Caddyfile hands the domain to the liverpool service's port
    caddy = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    assert re.search(r"^\{\$LIVERPOOL_DOMAIN\} \{\n\treverse_proxy liverpool:(\d+)\n\}", caddy,
                     re.M)
    assert f"reverse_proxy liverpool:{option(args, '--port')}" in caddy


def test_every_option_of_the_compose_file_is_one_of_liverpool_serve() -> None:
    help_text = CliRunner().invoke(serve_command, ["--help"]).output
    given = [a for a in serve_args() if a.startswith("--")]
    assert len(given) == 9
    for name in given:
        assert re.search(rf"(^|\s|/){re.escape(name)}(\s|$)", help_text, re.M), name
    # and click reads them all, values included, as liverpool serve would
    ctx = serve_command.make_context("serve", serve_args())
    assert ctx.params["workers"] == 2
    assert ctx.params["proxy_headers"] is True
    assert ctx.params["forwarded_allow_ips"] == "*"
    assert ctx.params["port"] == 8000


def test_the_dockerfile() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert re.fullmatch(r"FROM python:3\.1[1-3]-slim", lines[0])
    assert 'RUN pip install ".[server]"' in text
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users == ["liverpool"]  # and after the install: the server runs as it
    assert text.index("USER liverpool") > text.index("pip install")
    assert lines[-1] == 'CMD ["liverpool", "serve", "--host", "0.0.0.0"]'
    assert "EXPOSE 8000" in lines
    # what the image copies is what the package needs to build (pyproject.toml)
    copied = [w for line in lines if line.startswith("COPY ") for w in line.split()[1:-1]]
    assert sorted(copied) == ["LICENSE", "README.md", "pyproject.toml", "src"]
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {f"!{c}" for c in copied} <= {e.rstrip("/") for e in ignore}


@pytest.mark.slow
def test_the_compose_command_serves_from_the_installed_package(
        tmp_path: Path, postgres: PostgresServer, redis: RedisServer) -> None:
    # the package as the Dockerfile installs it: from what it copies, not the source tree
    context, wheels, target = tmp_path / "context", tmp_path / "wheels", tmp_path / "site"
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (context / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, context / name)
    shutil.copytree(ROOT / "src", context / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels),
                    str(context)], check=True, cwd=tmp_path, timeout=300)
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target),
                    *map(str, wheels.glob("*.whl"))], check=True, timeout=300)
    # the search's learned value comes with the package
    shipped = subprocess.run([sys.executable, "-c", "from liverpool.bots.value import ValueNet; "
                              "print(ValueNet.shipped().inputs)"], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=str(target)), cwd=tmp_path,
                             check=True, timeout=60)
    assert shipped.stdout.split() == ["49"]
    # the compose file's command, with this machine's addresses for the services
    args = serve_args()
    port = free_port()
    places = {"--host": "127.0.0.1", "--port": str(port), "--database": postgres.database(),
              "--redis": redis.url, "--allowed-hosts": "127.0.0.1"}
    for name, value in places.items():
        args[args.index(name) + 1] = value
    env = dict(os.environ, PYTHONPATH=str(target), HOME=str(tmp_path))
    cmd = [sys.executable, "-c", "from liverpool.cli import main; main()", "serve", *args]
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        processes: list[str] = []
        deadline = time.monotonic() + 60
        while len(processes) < 2 and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            try:
                health = httpx.get(f"{base}/healthz", timeout=2)
                processes = health.json().get("processes", [])
                assert health.status_code == 200
                assert health.json()["fanout"] == "redis"
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        assert len(processes) == 2, processes  # --workers 2, sharing through Redis
        made = httpx.post(f"{base}/api/tables", json={"options": {"contracts": ["SS"],
                                                                  "deal": [7]}},
                          headers={"X-Forwarded-For": "203.0.113.7",
                                   "X-Forwarded-Proto": "https"}, timeout=10)
        assert made.status_code == 201, made.text
        import sqlalchemy

        engine = sqlalchemy.create_engine(postgres.database().rsplit("/", 1)[0] + "/"
                                          + places["--database"].rsplit("/", 1)[1])
        with engine.connect() as conn:
            codes = [c for (c,) in conn.execute(sqlalchemy.text("SELECT code FROM tables"))]
        engine.dispose()
        assert codes == [made.json()["code"]]
    finally:
        proc.terminate()
        proc.wait(20)
    text = log.read_text(errors="replace")
    # the proxy's X-Forwarded-For is believed: the log names the player's address
    assert re.search(r'203\.0\.113\.7:\d+ - "POST /api/tables HTTP/1\.1" 201', text), text
    assert "Traceback" not in text
