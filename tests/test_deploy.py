"""The deployment files: the Docker image, the compose stack and the proxy in front of it.

No Docker engine runs the tests, so these read the files and check what matters: a slim image
running as a user that is not root, with a health check and migrations at start-up; two app
replicas on PostgreSQL and Redis behind a proxy that passes WebSockets on and keeps them open,
limits each client address, sets the client's address itself, and never serves /metrics; replicas
that take forwarded headers from that proxy only; only settings the app knows; and, where nginx is
installed, nginx's own check of the proxy config.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
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


def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if nginx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed, and CI checks the proxy config with it")
        pytest.skip("nginx is not installed (`make test` installs it)")
    (tmp_path / "logs").mkdir()
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/logs/error.log;\n"
        "events {}\n"
        f"http {{\n  access_log off;\n  include {NGINX_CONF};\n}}\n"
    )
    r = subprocess.run(
        [nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "e.log")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_app_answers_the_image_healthcheck(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tablee.api import create_app

    path = re.search(r"/healthz", " ".join(_final_stage(_dockerfile())))
    assert path is not None
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/t.db", redis_url=None)
    with TestClient(create_app(settings)) as client:
        assert client.get(path[0]).status_code == 200
