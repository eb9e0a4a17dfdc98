"""The deployment files: the Docker image, the compose stack and the proxy in front of it.

No Docker engine runs the tests, so these read the files and check what matters: a slim image
running as a user that is not root, with a health check and migrations at start-up; two app
replicas on PostgreSQL and Redis behind a proxy that passes WebSockets on and keeps them open,
limits each client address, sets the client's address itself, never serves /metrics, and sends
every socket of a table to one replica; replicas that take forwarded headers from that proxy only;
only settings the app knows; and, where nginx is installed, nginx's own check of the proxy config
and the proxy itself in front of two stand-in replicas on loopback ports.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from tablee.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def _dockerfile() -> list[str]:
    """The instructions of the Dockerfile, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def _final_stage(lines: list[str]) -> list[str]:
    starts = [i for i, ln in enumerate(lines) if ln.upper().startswith("FROM ")]
    return lines[starts[-1] :]


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def _app_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: svc
        for name, svc in compose["services"].items()
        if "build" in svc or str(svc.get("image", "")).startswith("tablee")
    }


def test_the_image_is_slim_and_runs_as_a_user_that_is_not_root() -> None:
    final = _final_stage(_dockerfile())
    assert re.match(r"FROM python:3\.1[1-9]-slim", final[0], re.I), final[0]
    users = [ln.split()[1] for ln in final if ln.upper().startswith("USER ")]
    assert users and users[-1] not in {"root", "0", "0:0"}


def test_the_image_checks_its_health_and_migrates_at_start() -> None:
    final = _final_stage(_dockerfile())
    checks = [ln for ln in final if ln.upper().startswith("HEALTHCHECK ")]
    assert len(checks) == 1 and "/healthz" in checks[0]
    cmd = [ln for ln in final if ln.upper().startswith(("CMD ", "ENTRYPOINT "))]
    assert cmd and "serve" in cmd[-1]  # `tablee serve` migrates first (TABLEE_MIGRATE)
    assert Settings.model_fields["migrate"].default is True


def test_the_stack_runs_two_app_replicas_on_postgres_and_redis() -> None:
    compose = _compose()
    services = compose["services"]
    apps = _app_services(compose)
    replicas = sum(int(svc.get("deploy", {}).get("replicas", 1)) for svc in apps.values())
    assert replicas >= 2
    images = {name: str(svc.get("image", "")) for name, svc in services.items()}
    pg = next(n for n, i in images.items() if i.startswith("postgres"))
    redis = next(n for n, i in images.items() if i.startswith("redis"))
    for name, svc in apps.items():
        env = svc["environment"]
        assert env["TABLEE_DATABASE_URL"].startswith("postgresql+asyncpg://"), name
        assert f"@{pg}:" in env["TABLEE_DATABASE_URL"]
        assert env["TABLEE_REDIS_URL"].startswith(f"redis://{redis}:")
        assert {pg, redis} <= set(svc["depends_on"])
        assert "ports" not in svc  # reached through the proxy only
    # the database lives in a named volume
    pg_volumes = [v.split(":")[0] for v in services[pg]["volumes"]]
    assert any(v in (compose.get("volumes") or {}) for v in pg_volumes)


def test_the_stack_sets_only_settings_the_app_knows() -> None:
    known = {f"TABLEE_{name.upper()}" for name in Settings.model_fields}
    for name, svc in _app_services(_compose()).items():
        used = {k for k in svc["environment"] if k.startswith("TABLEE_")}
        assert used <= known, (name, used - known)


def test_the_proxy_passes_websockets_on_and_keeps_them_open() -> None:
    compose = _compose()
    proxy = next(s for s in compose["services"].values() if "nginx" in str(s.get("image", "")))
    assert proxy["ports"]
    assert any(str(v).startswith("./deploy/nginx.conf:") for v in proxy["volumes"])
    conf = NGINX_CONF.read_text()
    ws = re.search(r"location\s+=?\s*/ws\s*\{(?P<body>[^}]*)\}", conf)
    assert ws is not None, "no location for /ws"
    body = ws["body"]
    # the headers are set in the location, or inherited from the server block when it sets none
    headers = body if "proxy_set_header" in body else _top_level(_server_block(conf))
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", headers)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", headers)
    assert re.search(r"proxy_http_version\s+1\.1;", conf)
    timeout = re.search(r"proxy_read_timeout\s+(\d+)([smh]?);", body)
    assert timeout is not None
    seconds = int(timeout[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[timeout[2]]
    assert seconds >= 600  # a quiet table keeps its socket
    apps = _app_services(compose)
    assert any(f"http://{name}:8000" in conf for name in apps)


def _server_block(conf: str) -> str:
    conf = re.sub(r"#[^\n]*", "", conf)  # comments may say "location" too
    start = re.search(r"^server\s*\{", conf, re.M)
    assert start is not None
    return conf[start.end() :]


def _locations(conf: str) -> dict[str, str]:
    """Each location's body, by its pattern (no nested blocks in ours)."""
    return {
        m["where"].strip(): m["body"]
        for m in re.finditer(r"location\s+(?P<where>[^{]+)\{(?P<body>[^}]*)\}", conf)
    }


def _top_level(block: str) -> str:
    """The directives of the server block itself, location bodies taken out."""
    return re.sub(r"location\s+[^{]+\{[^}]*\}", "", block)


def test_the_proxy_sets_the_client_address_and_never_appends_to_it() -> None:
    """nginx's $proxy_add_x_forwarded_for appends to what the client wrote: the app would read
    an address the client chose. Every location that proxies must send the header set."""
    conf = NGINX_CONF.read_text()
    assert "$proxy_add_x_forwarded_for" not in conf
    server = _server_block(conf)
    top = _top_level(server)
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", top)
    for where, body in _locations(server).items():
        if "proxy_pass" not in body:
            continue
        # a location that sets any header inherits none from the server block
        if "proxy_set_header" in body:
            assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", body), where
            assert re.search(r"proxy_set_header\s+Host\s+\$host;", body), where


def test_the_replicas_take_forwarded_headers_from_the_proxy_only() -> None:
    compose = _compose()
    proxy = next(s for s in compose["services"].values() if "nginx" in str(s.get("image", "")))
    fixed = [
        net.get("ipv4_address")
        for net in (proxy.get("networks") or {}).values()
        if isinstance(net, dict) and net.get("ipv4_address")
    ]
    assert fixed, "the proxy needs a fixed address for the replicas to trust"
    for name, svc in _app_services(compose).items():
        trusted = str(svc["environment"].get("FORWARDED_ALLOW_IPS", "127.0.0.1"))
        entries = [e.strip() for e in trusted.split(",")]
        assert "*" not in entries, name
        networks = [ipaddress.ip_network(e, strict=False) for e in entries]
        assert all(n.num_addresses == 1 for n in networks), (name, "trust single addresses")
        assert {str(n.network_address) for n in networks} == set(fixed), name


def test_the_proxy_limits_requests_and_connections_per_address() -> None:
    conf = NGINX_CONF.read_text()
    zones = dict(re.findall(r"limit_req_zone\s+(\S+)\s+zone=(\w+):\w+\s+rate=\S+;", conf))
    assert zones, "no limit_req_zone"
    keys = set(zones)
    assert "$binary_remote_addr" in keys
    assert re.search(r"limit_conn_zone\s+\$binary_remote_addr\s+zone=\w+:\w+;", conf)
    server = _server_block(conf)
    top = _top_level(server)
    assert re.search(r"limit_conn\s+\w+\s+\d+;", top)
    assert re.search(r"limit_req_status\s+429;", top)
    for where, body in _locations(server).items():
        if "proxy_pass" in body:
            assert re.search(r"limit_req\s+zone=\w+", body), f"location {where} is not limited"
    creation = next(
        body
        for where, body in _locations(server).items()
        if "players" in where and "tables" in where
    )
    assert len(re.findall(r"limit_req\s+zone=", creation)) >= 2  # its own zone and the general one
    size = re.search(r"client_max_body_size\s+(\d+)([km]?);", top)
    assert size is not None
    assert int(size[1]) * {"": 1, "k": 1024, "m": 1 << 20}[size[2]] <= Settings().max_body_bytes


def test_the_proxy_never_serves_metrics() -> None:
    """Prometheus scrapes each replica inside the network; the proxy answers 404 itself."""
    locations = _locations(_server_block(NGINX_CONF.read_text()))
    body = locations.get("= /metrics")
    assert body is not None and "proxy_pass" not in body
    assert re.search(r"return\s+40[34];|deny\s+all;", body)


def test_a_forwarded_for_written_by_the_client_is_not_what_the_audit_log_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replicas run with the stack's FORWARDED_ALLOW_IPS: a client that is not the proxy
    writes its own X-Forwarded-For, and the audit log records where it really came from."""
    import httpx

    from tests.serverkit import Database, Uvicorn

    app_env = next(iter(_app_services(_compose()).values()))["environment"]
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", str(app_env["FORWARDED_ALLOW_IPS"]))
    db = Database("sqlite", f"sqlite+aiosqlite:///{tmp_path}/t.db")
    admin = {"Authorization": "Bearer deploy-test-admin-token-0123"}
    token = admin["Authorization"].split()[1]
    with Uvicorn(db, admin_token=token) as server, httpx.Client(base_url=server.http) as http:
        player = http.post("/api/players", json={"name": "Mallory"}).json()
        forged = {**admin, "X-Forwarded-For": "203.0.113.66"}
        r = http.post(f"/api/admin/players/{player['id']}/ban", json={}, headers=forged)
        assert r.status_code == 200, r.text
        audit = http.get("/api/admin/audit", headers=admin).json()["items"]
    assert [e["action"] for e in audit] == ["player.ban"]
    assert audit[0]["ip"] == "127.0.0.1"


def test_every_setting_is_described_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [n for n in Settings.model_fields if f"TABLEE_{n.upper()}" not in readme]
    assert not missing


def _nginx() -> str:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None:
        from tests.serverkit import unavailable

        unavailable("nginx is not installed (`make test` installs it)", "the proxy config checked")
    return nginx


#: The upstream group's replicas: the name nginx resolves once, at start, to every replica.
_GROUP_SERVER = re.compile(r"^(\s*)server\s+app:8000;", re.M)


def _replicas_at(conf: str, replicas: list[str]) -> str:
    """The proxy config with the upstream group's ``server app:8000`` (resolved when nginx
    starts, by Docker's DNS, to every replica) made the given addresses: outside the stack no
    name ``app`` resolves, and ``nginx -t`` resolves the groups' names too."""
    conf, n = _GROUP_SERVER.subn(
        lambda m: "".join(f"{m[1]}server {a};\n" for a in replicas).rstrip("\n"), conf
    )
    assert n == 1, "the group of replicas by table is not `server app:8000;`"
    return conf


def _main_conf(tmp_path: Path, include: Path, *, run: bool = False) -> Path:
    """A main config around ``include`` (the image's http block), everything under
    ``tmp_path``; ``run``: one process in the foreground, as whoever runs the test."""
    (tmp_path / "logs").mkdir(exist_ok=True)
    lines = [f"pid {tmp_path}/nginx.pid;", f"error_log {tmp_path}/logs/error.log;"]
    temps = ""
    if run:
        lines += ["daemon off;", "master_process off;"]
        temps = "".join(
            f"  {kind}_temp_path {tmp_path}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
    main = tmp_path / "nginx.conf"
    main.write_text(
        "\n".join(lines)
        + "\nevents {}\n"
        + f"http {{\n  access_log off;\n{temps}  include {include};\n}}\n"
    )
    return main


def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    nginx = _nginx()
    conf = tmp_path / "default.conf"
    conf.write_text(_replicas_at(NGINX_CONF.read_text(), ["127.0.0.1:8000"]))
    main = _main_conf(tmp_path, conf)
    r = subprocess.run(
        [nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "e.log")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def _ws_upstreams(conf: str) -> tuple[str, dict[str, str]]:
    """The variable ``location = /ws`` passes to, and the map that sets it: value by pattern."""
    server = _server_block(conf)
    body = _locations(server)["= /ws"]
    target = re.search(r"proxy_pass\s+(\$\w+);", body)
    assert target is not None, "/ws is not passed to a variable's upstream"
    # its patterns may hold braces (a regex's {1,18}): the block ends at a line of its own
    block = re.search(
        r"map\s+\$arg_table\s+" + re.escape(target[1]) + r"\s*\{(?P<body>.*?)^\s*\}",
        re.sub(r"#[^\n]*", "", conf),
        re.M | re.S,
    )
    assert block is not None, f"no map of $arg_table sets {target[1]}"
    values = dict(
        (pattern.strip('"'), value)
        for pattern, value in re.findall(r'^\s*("[^"]*"|\S+)\s+(\S+);', block["body"], re.M)
    )
    return target[1], values


def test_the_proxy_sends_every_socket_of_a_table_to_one_replica() -> None:
    """The browser opens /ws?table=ID at a table: the proxy hashes that argument over the
    replicas, so that a table's sockets reach one replica (where its home goes), and spreads
    the others round robin as before (docs/scaling.md, "What the proxy does")."""
    conf = NGINX_CONF.read_text()
    _, values = _ws_upstreams(conf)
    by_table = [v for p, v in values.items() if p.startswith("~")]
    assert len(by_table) == 1 and re.fullmatch(r"http://\w+", by_table[0]), values
    group = by_table[0].removeprefix("http://")
    pattern = next(p for p in values if p.startswith("~"))
    assert re.search(pattern[1:], "42") and not re.search(pattern[1:], "")
    assert not re.search(pattern[1:], "../etc")  # anything but an id goes round robin
    upstream = re.search(r"upstream\s+" + group + r"\s*\{(?P<body>[^}]*)\}", conf)
    assert upstream is not None, f"no upstream {group}"
    assert re.search(r"^\s*hash\s+\$arg_table\s+consistent;", upstream["body"], re.M)
    assert _GROUP_SERVER.search(upstream["body"])
    # no table: round robin over every replica, looked up again by the resolver
    assert values.get("default") == "$app"
    assert re.search(r"set\s+\$app\s+http://app:8000;", conf)
    # a replica added later is hashed to after a reload: the compose file says how
    header = (ROOT / "docker-compose.yml").read_text().split("\nname:")[0]
    assert "nginx -s reload" in header


class _Replica:
    """A stand-in replica on a loopback port: answers every GET with its name and the path it
    was asked for."""

    def __init__(self, name: str) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = f"{name} {self.path}".encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def __enter__(self) -> _Replica:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.http.shutdown()
        self.http.server_close()


def test_the_app_answers_the_image_healthcheck(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tablee.api import create_app

    path = re.search(r"/healthz", " ".join(_final_stage(_dockerfile())))
    assert path is not None
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/t.db", redis_url=None)
    with TestClient(create_app(settings)) as client:
        assert client.get(path[0]).status_code == 200


@contextmanager
def _proxy(
    tmp_path: Path, by_table: list[str], every: list[str], answers: bool = True
) -> Iterator[Any]:
    """The shipped config run by nginx on a loopback port: the stack's names made loopback
    addresses (``by_table``: the group of the table hash, which nginx resolves at start;
    ``every``: what Docker's DNS answers for the round robin's late lookup, every replica), its
    rates raised (one client sends every request here), the rest as shipped. Yields a function
    that GETs a path through it and returns the name of the stand-in replica that answered
    (``answers=False``: the proxy's base URL)."""
    import time

    import httpx

    from tests.serverkit import free_port

    nginx = _nginx()
    conf = _replicas_at(NGINX_CONF.read_text(), by_table)
    conf, n = re.subn(r"set\s+\$app\s+http://app:8000;", "set $app http://tablee_all;", conf)
    assert n == 1
    servers = "".join(f"    server {a};\n" for a in every)
    conf += f"\nupstream tablee_all {{\n{servers}}}\n"
    port = free_port()
    conf, n = re.subn(r"listen\s+80;", f"listen 127.0.0.1:{port};", conf)
    assert n == 1
    conf = re.sub(r"rate=\d+r/[sm]", "rate=10000r/s", conf)
    (tmp_path / "default.conf").write_text(conf)
    main = _main_conf(tmp_path, tmp_path / "default.conf", run=True)
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "e.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False) as http:
            for _ in range(200):  # up to 10 s for nginx to listen
                if proc.poll() is not None:
                    log = tmp_path / "logs" / "error.log"
                    raise AssertionError(log.read_text() if log.exists() else "nginx stopped")
                try:
                    http.get("/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            else:
                raise AssertionError("nginx did not listen")

            def reached(path: str) -> str:
                r = http.get(path)
                assert r.status_code == 200, (path, r.status_code, r.text)
                name, seen = r.text.split(" ", 1)
                assert seen == path  # the argument reaches the replica as sent
                return name

            yield reached if answers else f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def test_nginx_sends_a_tables_sockets_to_one_replica_and_spreads_the_others(
    tmp_path: Path,
) -> None:
    """nginx with the shipped config in front of two stand-in replicas: plain GETs to /ws (the
    handshake's way, without its upgrade) show where a socket would go."""
    with _Replica("one") as one, _Replica("two") as two:
        replicas = [one.address, two.address]
        with _proxy(tmp_path, replicas, replicas) as reached:
            # every request for one table reaches the same replica
            homes = {}
            for table in range(1, 41):
                names = {reached(f"/ws?table={table}") for _ in range(5)}
                assert len(names) == 1, (table, names)
                homes[table] = names.pop()
            # the tables are spread over both
            assert set(homes.values()) == {"one", "two"}, homes
            # a socket at no table (or with a key that is no table's id): round robin
            for path in ("/ws", "/ws?table=", "/ws?table=abc"):
                names_rr = [reached(path) for _ in range(10)]
                assert names_rr.count("one") == names_rr.count("two") == 5, (path, names_rr)


def test_nginx_sends_a_tables_sockets_round_robin_when_no_address_of_the_hash_answers(
    tmp_path: Path,
) -> None:
    """The replicas were made anew with new addresses and nginx was not reloaded: the group it
    resolved at start answers nowhere, and a table's socket goes round robin instead of failing."""
    from tests.serverkit import free_port

    gone = f"127.0.0.1:{free_port()}"  # nobody listens there any more
    with (
        _Replica("one") as one,
        _Replica("two") as two,
        _proxy(tmp_path, [gone], [one.address, two.address]) as reached,
    ):
        names = [reached(f"/ws?table={table}") for table in range(1, 11)]
        assert set(names) == {"one", "two"}, names


@pytest.mark.parametrize("group", ["found", "gone"])
def test_a_websocket_at_a_table_through_nginx(tmp_path: Path, group: str) -> None:
    """A real socket at /ws?table=ID through nginx to the app: upgraded and served, whether the
    table hash's address answers (``found``) or nginx falls back to the round robin (``gone``)."""
    import asyncio
    import json

    import httpx
    import websockets

    from tests.serverkit import Database, Uvicorn, free_port

    db = Database("sqlite", f"sqlite+aiosqlite:///{tmp_path}/t.db")
    with Uvicorn(db) as app:
        address = f"127.0.0.1:{app.port}"
        by_table = [address] if group == "found" else [f"127.0.0.1:{free_port()}"]
        proxy_dir = tmp_path / "proxy"
        proxy_dir.mkdir()
        with _proxy(proxy_dir, by_table, [address], answers=False) as base:
            with httpx.Client(base_url=base, trust_env=False) as http:
                player = http.post("/api/players", json={"name": "Alice"}).json()

            async def hello() -> dict[str, Any]:
                url = base.replace("http://", "ws://") + "/ws?table=12"
                async with websockets.connect(url) as ws, asyncio.timeout(10):
                    await ws.send(json.dumps({"type": "hello", "token": player["token"]}))
                    frame: dict[str, Any] = json.loads(await ws.recv())
                    return frame

            assert asyncio.run(hello())["type"] == "welcome"
